import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { sqliteDatabase } from '../helpers/databases.js';
import { startTestServer } from '../helpers/browser.js';

/** server-rendered pages over HTTP: page lookup, content, metadata, languages, cache */
describe('storefront pages', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  const get = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(server.url + path, { headers });
    return { status: res.status, html: await res.text(), cache: res.headers.get('x-page-cache'), type: res.headers.get('content-type') };
  };
  /** the cookie of a real session: only a validly signed one skips the page cache */
  let session: string | undefined;
  const signedIn = async () => {
    if (!session) {
      const reg = await server.api('POST', '/api/rbac/subjects/authentication/email-and-password/registration', { data: { login: 'cache-skip@example.com', password: 'password123' } });
      session = `rbac.subject.jwt=${reg.body.data.jwt}`;
    }
    return { cookie: session };
  };
  const article = async () => (await server.api('GET', '/api/blog/articles?filters[and][0][column]=slug&filters[and][0][method]=eq&filters[and][0][value]=launch-week')).body.data[0];
  beforeAll(async () => {
    server = await startTestServer(sqliteDatabase(), { SEED: 'true' });
  });
  afterAll(async () => server?.close());

  it('find-by-url: exact urls and urls with an entity segment', async () => {
    expect((await server.api('GET', '/api/host/pages/find-by-url?url=/')).body.data.url).toBe('/');
    expect((await server.api('GET', '/api/host/pages/find-by-url?url=/blog/articles/launch-week')).body.data.url).toBe('/blog/articles/[blog.article.slug]');
    expect((await server.api('GET', '/api/host/pages/find-by-url?url=/blog/articles/no-such-article')).status).toBe(404);
    expect((await server.api('GET', '/api/host/pages/find-by-url')).status).toBe(400);
    const value = await server.api('GET', '/api/host/pages/url-segment-value?url=/blog/articles/launch-week&segment=[blog.article.slug]');
    expect(value.body.data).toBe('launch-week');
  });

  it('urls: every url split into segments, entity segments filled in, / as empty', async () => {
    const urls = (await server.api('GET', '/api/host/pages/urls')).body.data.urls as { url: string; segments: string[] }[];
    expect(urls).toContainEqual({ url: '/', segments: [] });
    expect(urls).toContainEqual({ url: '/blog/articles/launch-week', segments: ['blog', 'articles', 'launch-week'] });
    expect(urls.some((u) => u.url.includes('['))).toBe(false);
  });

  it('renders the home page on the server with its metadata and the hydration data', async () => {
    const r = await get('/');
    expect(r.status).toBe(200);
    expect(r.type).toContain('text/html');
    expect(r.html).toMatch(/<html lang="en">/);
    expect(r.html).toContain('<title>Studio — site templates</title>');
    expect(r.html).toContain('<meta name="description" content="Site templates, a blog and a shop, built from manifests">');
    expect(r.html).toContain('<meta property="og:site_name" content="Studio">');
    expect(r.html).toContain('<meta name="twitter:card" content="summary_large_image">');
    expect(r.html).toMatch(/<script type="module" src="\/assets\/[^"]+\.js"><\/script>/);
    expect(r.html).toMatch(/<link rel="stylesheet" href="\/assets\/[^"]+\.css">/);
    expect(r.html).toContain('<script id="__PAGE__" type="application/json">');
    const a = await article();
    expect(r.html).toContain(a.title.en);
  });

  it('/ru shows the ru texts and prefixes internal links', async () => {
    const r = await get('/ru');
    expect(r.status).toBe(200);
    expect(r.html).toMatch(/<html lang="ru">/);
    expect(r.html).toContain((await article()).title.ru);
    expect(r.html).toContain('href="/ru/blog/articles/launch-week"');
    expect(r.html).not.toContain('href="/blog/articles/launch-week"');
  });

  it('an article page by its slug', async () => {
    const a = await article();
    const r = await get('/blog/articles/launch-week');
    expect(r.status).toBe(200);
    expect(r.html).toContain(a.title.en);
    expect((await get('/blog/articles/no-such-article')).status).toBe(404);
  });

  it('the public routes of spec §2 answer with their pages', async () => {
    const reg = await server.api('POST', '/api/rbac/subjects/authentication/email-and-password/registration', { data: { login: 'routes@example.com', password: 'password123' } });
    const me = await fetch(server.url + '/api/rbac/subjects/authentication/me', { headers: { authorization: `Bearer ${reg.body.data.jwt}` } }).then((r) => r.json());
    const product = (await server.api('GET', '/api/ecommerce/products?filters[and][0][column]=slug&filters[and][0][method]=eq&filters[and][0][value]=shop-template')).body.data[0];
    const routes: [string, string?][] = [
      ['/'], [`/ecommerce/products/shop-template`, product.title.en], ['/ecommerce/categories/templates'], ['/ecommerce/stores/main-store', 'Studio store'],
      ['/blog/categories/news'], ['/blog/articles/launch-week'], [`/rbac/subjects/${me.data.slug}`, me.data.adminTitle], [`/rbac/subjects/${me.data.slug}/social/profile`],
      ['/rbac/subjects/settings'], ['/rbac/subject/authentication/select-method'], ['/rbac/subject/authentication/email-and-password/forgot-password'],
      ['/rbac/subject/authentication/email-and-password/registration'], ['/500'], ['/ru/ecommerce/products/shop-template', product.title.ru],
    ];
    for (const [path, text] of routes) {
      const r = await get(path);
      expect(r.status, path).toBe(200);
      if (text) expect(r.html, path).toContain(text);
    }
    expect((await get('/ecommerce/products/no-such-product')).status).toBe(404);
    expect((await get('/no/such/page')).html).toContain('Page not found');
  });

  it('a page costs the same queries however many widget rows it shows: no query per row', async () => {
    const rendered = await signedIn();
    const queries = async () => {
      const before = server.database.queries;
      const r = await get('/', rendered);
      expect(r.cache).toBe('miss');
      return { n: server.database.queries - before, html: r.html };
    };
    const first = await queries();
    const extra = (await server.system('POST', '/api/blog/articles/bulk', { data: Array.from({ length: 10 }, (_, i) => ({ slug: `extra-${i}`, title: { en: `Extra article ${i}` } })) })).body.data;
    await server.system('POST', '/api/blog/widgets-to-articles/bulk', { data: extra.map((a: { id: string }, i: number) => ({ widgetId: '9b000000-0000-4000-8000-000000000001', articleId: a.id, orderIndex: 10 + i })) });
    const second = await queries();
    expect(second.html).toContain('Extra article 9');
    expect(second.n).toBe(first.n);
  });

  it('data in the page cannot close its script tag', async () => {
    const a = await article();
    await server.system('PATCH', `/api/blog/articles/${a.id}`, { data: { subtitle: { en: '</script><script>alert(1)</script>' } } });
    const r = await get('/');
    expect(r.html).not.toContain('</script><script>alert(1)');
    expect(r.html).toContain('\\u003c/script\\u003e');
  });

  it('caches pages for visitors, drops them when what they show changes, and on revalidation', async () => {
    await get('/');
    expect((await get('/')).cache).toBe('hit');
    const a = await article();
    await server.system('PATCH', `/api/blog/articles/${a.id}`, { data: { title: { en: 'Freshly renamed', ru: a.title.ru } } });
    const after = await get('/');
    expect(after.cache).toBe('miss');
    expect(after.html).toContain('Freshly renamed');
    expect((await get('/')).cache).toBe('hit');
    expect((await server.api('GET', '/api/revalidation/revalidate?path=/&type=layout')).status).toBe(200);
    expect((await get('/')).cache).toBe('miss');
    // a request carrying a session is never answered from the cache
    expect((await get('/', await signedIn())).cache).toBe('miss');
  });
});
