import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { sqliteDatabase } from '../helpers/databases.js';
import { startTestServer } from '../helpers/browser.js';

/** the head of a page in its language, and the language links keeping the address's query (server-rendered) */
describe('storefront head and language links per language', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  const get = async (path: string) => {
    const res = await fetch(server.url + path);
    return { status: res.status, html: await res.text(), cache: res.headers.get('x-page-cache'), etag: res.headers.get('etag') };
  };
  const meta = (html: string, name: string) => new RegExp(`<meta (?:name|property)="${name}" content="([^"]*)">`).exec(html)?.[1];
  const title = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];
  beforeAll(async () => {
    server = await startTestServer(sqliteDatabase(), { SEED: 'true' });
  });
  afterAll(async () => server?.close());

  it("a /ru page's description and site title are the site metadata's Russian texts; /en keeps the English ones", async () => {
    const ru = (await get('/ru')).html;
    expect(title(ru)).toBe('Студия — шаблоны сайтов');
    expect(meta(ru, 'description')).toBe('Шаблоны сайтов, блог и магазин, собранные из манифестов');
    expect(meta(ru, 'og:description')).toBe('Шаблоны сайтов, блог и магазин, собранные из манифестов');
    const blog = (await get('/ru/blog')).html;
    expect(title(blog)).toMatch(/ \| Студия — шаблоны сайтов$/);
    expect(meta(blog, 'description')).toBe('Шаблоны сайтов, блог и магазин, собранные из манифестов');
    const en = (await get('/')).html;
    expect(title(en)).toBe('Studio — site templates');
    expect(meta(en, 'description')).toBe('Site templates, a blog and a shop, built from manifests');
    // /blog has a description of its own (a page's text is in its language, English here): over the site's in
    // English, and not on /ru/blog (above)
    expect(meta((await get('/blog')).html, 'og:description')).toBe('News, guides and launches');
    expect(meta((await get('/blog')).html, 'description')).toBe('News, guides and launches');
  });

  it("a translation's missing text falls back to the default language's", async () => {
    // the seed's Russian row gives no twitter card: the English row's stands
    expect(meta((await get('/ru')).html, 'twitter:card')).toBe('summary_large_image');
  });

  it("a page about a row is described by the row's own description, in the page's language", async () => {
    const en = (await get('/ecommerce/products/landing-template')).html;
    expect(meta(en, 'description')).toBe('A one-page site');
    expect(meta(en, 'og:description')).toBe('A one-page site');
    const ru = (await get('/ru/ecommerce/products/landing-template')).html;
    expect(meta(ru, 'description')).toBe('Одностраничный сайт');
    expect(meta(ru, 'og:description')).toBe('Одностраничный сайт');
    expect(title(ru)).toBe('Шаблон лендинга | Студия — шаблоны сайтов');
    // an article has no short description: its subtitle (else its description's text, cut to a summary)
    const article = meta((await get('/ru/blog/articles/launch-week')).html, 'description')!;
    expect(article).not.toContain('Шаблоны сайтов, блог и магазин');
    expect(article).toMatch(/[а-я]/);
    expect(article.length).toBeLessThanOrEqual(201);
  });

  it("the language links keep the request's query, cached or not; the page without a query is unchanged", async () => {
    const first = await get('/ecommerce/orders?order=o-1&payment=canceled');
    expect(first.html).toContain('href="/ru/ecommerce/orders?order=o-1&amp;payment=canceled"');
    const again = await get('/ecommerce/orders?order=o-2');
    expect(again.cache).toBe('hit');
    expect(again.html).toContain('href="/ru/ecommerce/orders?order=o-2"');
    expect(again.html).not.toContain('o-1');
    const ru = await get('/ru/ecommerce/orders?order=o-3');
    expect(ru.html).toContain('href="/ecommerce/orders?order=o-3"');
    const plain = await get('/ecommerce/orders');
    expect(plain.cache).toBe('hit');
    expect(plain.html).toContain('href="/ru/ecommerce/orders"');
    expect(plain.html).not.toContain('?order=');
    // each answer's validator is its own bytes'
    expect(plain.etag).not.toBe(again.etag);
  });
});
