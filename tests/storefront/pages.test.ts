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
  /** the cookie of a real session (it does not skip the page cache: every visitor gets the same HTML) */
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

  it("the visitor's own pages (sign-in, registration, settings, orders) are sent with robots noindex and left out of the sitemap; the others are not", async () => {
    const robots = (html: string) => /<meta name="robots" content="([^"]*)">/.exec(html)?.[1];
    const personal = ['/rbac/subject/authentication/email-and-password/authentication', '/rbac/subject/authentication/email-and-password/registration', '/rbac/subjects/settings', '/ecommerce/orders'];
    for (const url of personal) {
      for (const path of [url, `/ru${url}`]) {
        const r = await get(path);
        expect(r.status, path).toBe(200);
        expect(robots(r.html), path).toBe('noindex');
      }
    }
    for (const path of ['/', '/ru', '/blog/articles/launch-week', '/ecommerce/products', '/rbac/subjects']) expect(robots((await get(path)).html), path).toBeUndefined();
    const sitemap = (await get('/sitemap.xml')).html;
    expect(sitemap).toContain('/ecommerce/products<');
    for (const url of personal) expect(sitemap).not.toContain(`${url}<`);
    expect(sitemap).not.toContain('/rbac/subject/authentication/');
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

  it("page data carries only the page's language, no write times, and no relation ids its ends already carry", async () => {
    const a = await article();
    for (const [path, language, other] of [['/ru', 'ru', 'en'], ['/', 'en', 'ru'], ['/ru/blog/articles/launch-week', 'ru', 'en']] as const) {
      const html = (await get(path)).html;
      const json = html.match(/<script id="__PAGE__" type="application\/json">(.*?)<\/script>/s)![1];
      const data = JSON.parse(json);
      const maps: Record<string, unknown>[] = [];
      const keys = new Set<string>();
      const walk = (x: unknown): void => {
        if (Array.isArray(x)) return x.forEach(walk);
        if (!x || typeof x !== 'object') return;
        const o = x as Record<string, unknown>;
        Object.keys(o).forEach((k) => keys.add(k));
        if (Object.keys(o).length && Object.keys(o).every((k) => k === 'en' || k === 'ru')) maps.push(o);
        Object.values(o).forEach(walk);
      };
      walk(data.before);
      walk(data.content);
      walk(data.after);
      walk(data.context.params);
      expect(maps.length, path).toBeGreaterThan(10);
      // a value only in the other language is kept (the page falls back to it); both never travel together
      expect(maps.filter((m) => Object.keys(m).length > 1), path).toEqual([]);
      expect(maps.filter((m) => m[language]).length, path).toBeGreaterThan(maps.filter((m) => m[other]).length);
      expect(keys.has('createdAt') || keys.has('updatedAt'), path).toBe(false);
      expect(keys.has('widgetId') || keys.has('articleId') || keys.has('buttonsArrayId'), path).toBe(false);
      expect(json, path).not.toContain(other === 'en' ? a.title.en : a.title.ru);
    }
  });

  it('page data carries only what the widgets drew: no admin names, no rich text a card does not show, no unread relation', async () => {
    const html = (await get('/')).html;
    const json = html.match(/<script id="__PAGE__" type="application\/json">(.*?)<\/script>/s)![1];
    const data = JSON.parse(json);
    const keys = new Set<string>();
    const walk = (x: unknown): void => {
      if (Array.isArray(x)) return x.forEach(walk);
      if (!x || typeof x !== 'object') return;
      Object.keys(x).forEach((k) => keys.add(k));
      Object.values(x).forEach(walk);
    };
    walk([data.before, data.content, data.after]);
    // the admin's names and bookkeeping of relation rows never reach a visitor's page
    for (const key of ['adminTitle', 'orderIndex', 'createdAt']) expect(keys.has(key), key).toBe(false);
    // the category list draws its categories, not their products: no product under a category
    const categories = data.content.find((b: { widget: { variant: string } }) => b.widget.variant === 'category-list-default');
    expect(categories.widget.widgetsToCategories.length).toBeGreaterThan(0);
    for (const link of categories.widget.widgetsToCategories) expect(link.category.categoriesToProducts).toBeUndefined();
    // a card shows an article's title and subtitle, not its body
    const latest = data.content.find((b: { module: string }) => b.module === 'blog');
    for (const link of latest.widget.widgetsToArticles) expect(link.article.description).toBeUndefined();
    const body = JSON.parse((await article()).description.en).content[1].content[0].text as string;
    expect(html).not.toContain(body.slice(0, 40));
    // what was drawn is there: every article's title, every slide of the slider (not only the one on screen)
    for (const link of latest.widget.widgetsToArticles) expect(typeof link.article.title.en).toBe('string');
    const slider = data.content.find((b: { widget: Record<string, unknown> }) => Array.isArray(b.widget.widgetsToSliders)).widget.widgetsToSliders[0].slider;
    const slides = slider.slidersToSlides.map((l: { slide: Record<string, unknown> }) => l.slide);
    expect(slides.length).toBeGreaterThan(1);
    expect(slides.every((s: Record<string, unknown>) => s.title)).toBe(true);
  });

  it('the page data is all the browser draws from: drawing each page again from it alone gives the markup the server sent', async () => {
    // what hydration needs (web/storefront/main.tsx renders the same tree from the same data): a field the server's
    // render read but the page data left out, or one the browser reads that the server did not, would differ here
    const { createElement } = await import('react');
    const { renderToString } = await import('react-dom/server');
    const { PageView } = await import('../../web/storefront/page.js');
    const { StorefrontShell } = await import('../../web/storefront/shell.js');
    const { registerPluginVariants } = await import('../../plugins/web.js');
    await registerPluginVariants();
    for (const path of ['/', '/ru', '/blog', '/ecommerce', '/careers', '/blog/articles/launch-week', '/ru/ecommerce/products/shop-template', '/ecommerce/stores']) {
      const html = (await get(path)).html;
      const root = html.slice(html.indexOf('<div id="root">') + '<div id="root">'.length, html.indexOf('</div>\n    <script id="__PAGE__"'));
      const data = JSON.parse(html.match(/<script id="__PAGE__" type="application\/json">(.*?)<\/script>/s)![1]);
      expect(data.title ?? data.meta, `${path}: the head is in the HTML, not in the page data`).toBeUndefined();
      expect(renderToString(createElement(StorefrontShell, { language: data.context.language, children: createElement(PageView, { data }) })), path).toBe(root);
      // the toasts' region is named in the page's language
      expect(root, path).toContain(path.startsWith('/ru') ? 'aria-label="Уведомления' : 'aria-label="Notifications');
    }
  });

  it("beside the storefront's catch-all, an unknown API route is a 404 for a visitor, not a 401 asking to sign in", async () => {
    for (const path of ['/api/ecommerce/nonsense', '/api/ecommerce/attribute-keies', '/api/nothing/here']) {
      expect((await fetch(server.url + path)).status, path).toBe(404);
    }
    // a known route still asks for authorization
    expect((await fetch(server.url + '/api/ecommerce/orders', { method: 'POST' })).status).toBe(401);
  });

  it('an article page by its slug', async () => {
    const a = await article();
    const r = await get('/blog/articles/launch-week');
    expect(r.status).toBe(200);
    expect(r.html).toContain(a.title.en);
    expect((await get('/blog/articles/no-such-article')).status).toBe(404);
  });

  // in another language the site title is the site metadata's translation's (the seed's 'site-ru')
  it("a page about one row is titled by the row's title in the page's language; the home page has an h1", async () => {
    const title = async (path: string) => (await get(path)).html.match(/<title>([^<]*)<\/title>/)?.[1];
    expect(await title('/ecommerce/products/shop-template')).toBe('Shop template | Studio — site templates');
    expect(await title('/ru/ecommerce/products/shop-template')).toBe('Шаблон магазина | Студия — шаблоны сайтов');
    expect(await title('/blog/articles/launch-week')).toBe(`${(await article()).title.en} | Studio — site templates`);
    expect(await title('/ru/blog/articles/launch-week')).toBe(`${(await article()).title.ru} | Студия — шаблоны сайтов`);
    expect(await title('/ecommerce/stores/main-store')).toBe('Studio store | Studio — site templates');
    expect(await title('/ru/ecommerce/categories/hosting')).toBe('Хостинг | Студия — шаблоны сайтов');
    expect(await title('/blog/categories/guides')).toBe('Guides | Studio — site templates');
    // a page about no row keeps its own title; in another language, its first titled content widget's title
    expect(await title('/blog')).toBe('Blog | Studio — site templates');
    const ru = await title('/ru/blog');
    expect(ru).toMatch(/^[А-Яа-яЁё][^|]* \| Студия — шаблоны сайтов$/);
    expect(await title('/ru/ecommerce/products')).toMatch(/^[А-Яа-яЁё]/);
    for (const home of ['/', '/ru']) expect((await get(home)).html, home).toMatch(/<h1[ >]/);
  });

  it('from the home page, links reach every public route of spec §2 and every list page, in both languages', async () => {
    const patterns = [
      /^\/ecommerce\/products\/[^/]+$/, /^\/ecommerce\/categories\/[^/]+$/, /^\/ecommerce\/stores\/[^/]+$/, /^\/blog\/categories\/[^/]+$/, /^\/blog\/articles\/[^/]+$/,
      /^\/rbac\/subjects\/(?!settings$)[^/]+$/, /^\/rbac\/subjects\/[^/]+\/social\/profile$/, /^\/rbac\/subjects\/settings$/, /^\/rbac\/subject\/authentication\/select-method$/,
      /^\/rbac\/subject\/authentication\/email-and-password\/forgot-password$/, /^\/rbac\/subject\/authentication\/email-and-password\/registration$/,
      /^\/blog$/, /^\/blog\/articles$/, /^\/blog\/categories$/, /^\/ecommerce$/, /^\/ecommerce\/products$/, /^\/ecommerce\/categories$/, /^\/ecommerce\/stores$/, /^\/careers$/,
    ];
    for (const prefix of ['', '/ru']) {
      // follow the links of the server-rendered pages, breadth first, from the home page
      const seen = new Set<string>();
      const queue = [prefix || '/'];
      while (queue.length) {
        const path = queue.shift()!;
        if (seen.has(path)) continue;
        seen.add(path);
        const r = await get(path);
        expect(r.status, `${path} (linked)`).toBe(200);
        for (const [tag, href] of r.html.matchAll(/<a [^>]*href="([^"#?]*)[^"]*"[^>]*>/g)) {
          if (!href.startsWith('/') || href.startsWith('//')) continue;
          if (/ lang="/.test(tag)) continue; // the language switcher's links lead to the other language on purpose
          // links stay in the page's language
          if (prefix) expect(href === prefix || href.startsWith(prefix + '/'), `${href} on ${path}`).toBe(true);
          if (!seen.has(href)) queue.push(href);
        }
      }
      const reached = [...seen].map((p) => p.slice(prefix.length) || '/');
      for (const pattern of patterns) expect(reached.some((p) => pattern.test(p)), `${prefix || 'en'}: ${pattern}`).toBe(true);
    }
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
      // a store's attribute is named by its key's title in the page's language (the relation is expanded back)
      ['/ru/ecommerce/stores/main-store', 'Доставка'],
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
    const queries = async () => {
      await server.system('GET', '/api/revalidation/revalidate?path=/&type=layout'); // drawn anew, not from the cache
      const before = server.database.queries;
      const r = await get('/');
      expect(r.cache).toBe('miss');
      return { n: server.database.queries - before, html: r.html };
    };
    // a steady page: the first render of each variant on a server walks every relation (expansion plans), and whether
    // an earlier test drew this page first depends on timing
    await queries();
    const first = await queries();
    const extra = (await server.system('POST', '/api/blog/articles/bulk', { data: Array.from({ length: 10 }, (_, i) => ({ slug: `extra-${i}`, title: { en: `Extra article ${i}` } })) })).body.data;
    await server.system('POST', '/api/blog/widgets-to-articles/bulk', { data: extra.map((a: { id: string }, i: number) => ({ widgetId: '9b000000-0000-4000-8000-000000000001', articleId: a.id, orderIndex: 10 + i })) });
    const second = await queries();
    expect(second.html).toContain('Extra article 9');
    expect(second.n).toBe(first.n);
  });

  it('a page drawn again reads only the relations its widgets drew the first time: fewer queries, the same HTML', async () => {
    // a server of its own: no variant has been drawn on it yet
    const fresh = await startTestServer(sqliteDatabase(), { SEED: 'true' });
    try {
      const draw = async () => {
        await fresh.system('GET', '/api/revalidation/revalidate?path=/&type=layout');
        const before = fresh.database.queries;
        const html = await (await fetch(fresh.url + '/')).text();
        return { n: fresh.database.queries - before, html };
      };
      const first = await draw();
      const second = await draw();
      expect(second.html).toBe(first.html);
      expect(second.n).toBeLessThan(first.n);
      // something new to draw under a relation the plan walks is drawn (a new article in the latest list)
      const [extra] = (await fresh.system('POST', '/api/blog/articles/bulk', { data: [{ slug: 'planned', title: { en: 'Drawn by the plan' } }] })).body.data;
      await fresh.system('POST', '/api/blog/widgets-to-articles', { data: { widgetId: '9b000000-0000-4000-8000-000000000001', articleId: extra.id, orderIndex: 0 } });
      expect((await draw()).html).toContain('Drawn by the plan');
    } finally {
      await fresh.close();
    }
  });

  it('data in the page cannot close its script tag', async () => {
    const a = await article();
    await server.system('PATCH', `/api/blog/articles/${a.id}`, { data: { subtitle: { en: '</script><script>alert(1)</script>' } } });
    const r = await get('/');
    expect(r.html).not.toContain('</script><script>alert(1)');
    expect(r.html).toContain('\\u003c/script\\u003e');
  });

  it("a page's own metadata goes over the site's, in link order; the site's is the first primary made", async () => {
    const careers = (await server.api('GET', '/api/host/pages/find-by-url?url=/careers')).body.data;
    const made: string[] = [];
    const make = async (data: Record<string, unknown>) => {
      const r = await server.system('POST', '/api/host/metadata', { data });
      expect(r.status).toBe(201);
      made.push(r.body.data.id);
      return r.body.data.id as string;
    };
    const links: string[] = [];
    try {
      await make({ adminTitle: 'Later site', slug: 'later-site', variant: 'primary', title: 'Not the site title', description: 'Not the site description' });
      const first = await make({ adminTitle: 'Careers', slug: 'careers-meta', variant: 'default', title: 'Careers', description: 'Open roles at Studio', twitterCard: 'summary' });
      const second = await make({ adminTitle: 'Careers 2', slug: 'careers-meta-2', variant: 'default', title: 'Careers 2', keywords: 'jobs, careers', twitterCard: 'app' });
      for (const [metadataId, orderIndex] of [[second, 2], [first, 1]] as const) {
        const r = await server.system('POST', '/api/host/pages-to-metadata', { data: { pageId: careers.id, metadataId, orderIndex } });
        expect(r.status).toBe(201);
        links.push(r.body.data.id);
      }
      const html = (await get('/careers')).html;
      expect(html).toContain('<meta name="description" content="Open roles at Studio">');
      expect(html).toContain('<meta name="keywords" content="jobs, careers">');
      // both set twitter:card: the later link wins
      expect(html).toContain('<meta name="twitter:card" content="app">');
      // the rest is the first primary's
      expect(html).toContain('<meta property="og:site_name" content="Studio">');
      // the page's own metadata titles it (the later link's), before the site's title
      expect(html).toContain('<title>Careers 2 | Studio — site templates</title>');
      expect(html).not.toContain('Not the site');
    } finally {
      for (const id of links) await server.system('DELETE', `/api/host/pages-to-metadata/${id}`);
      for (const id of made) await server.system('DELETE', `/api/host/metadata/${id}`);
    }
  });

  it("a page's own description is over the site's (and under the page's own metadata)", async () => {
    const careers = (await server.api('GET', '/api/host/pages/find-by-url?url=/careers')).body.data;
    const before = careers.description;
    try {
      expect((await server.system('PATCH', `/api/host/pages/${careers.id}`, { data: { description: 'Work with the studio' } })).status).toBe(200);
      const html = (await get('/careers')).html;
      expect(html).toContain('<meta name="description" content="Work with the studio">');
      expect(html).toContain('<meta property="og:description" content="Work with the studio">');
      // the default text is no description of its own: the site's stays
      expect((await server.system('PATCH', `/api/host/pages/${careers.id}`, { data: { description: 'Description' } })).status).toBe(200);
      expect((await get('/careers')).html).toContain('<meta name="description" content="Site templates, a blog and a shop, built from manifests">');
    } finally {
      await server.system('PATCH', `/api/host/pages/${careers.id}`, { data: { description: before } });
    }
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
    // a signed-in visitor gets the same page from the cache: the HTML holds no subject's data
    const anonymous = await get('/');
    const signed = await get('/', await signedIn());
    expect(signed.cache).toBe('hit');
    expect(signed.html).toBe(anonymous.html);
    expect(signed.html).not.toContain('cache-skip@example.com');
  });
});
