import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { startTestServer } from '../helpers/browser.js';

const PAYLOAD = 'x"><img src=x onerror=alert(1)>';

/**
 * Finding 11 (security trial 2026-11-23): a stores-to-products sku `x"><img src=x onerror=alert(1)>` on a
 * page `/sku/[ecommerce.stores-to-products.sku]` went raw into the hreflang <link> of `GET /ru/sku/…`;
 * and `%3D` was not decoded, so '=' in a segment found no page.
 * Finding 16: `url-segment-value?segment=__proto__` looked up the object prototype.
 */
for (const d of DIALECTS) {
  describe(`storefront urls on ${d.name}`, () => {
    let server: Awaited<ReturnType<typeof startTestServer>>;
    const get = async (path: string) => {
      const res = await fetch(server.url + path);
      return { status: res.status, html: await res.text() };
    };
    beforeAll(async () => {
      server = await startTestServer(await d.make(), { PUBLIC_URL: 'https://shop.example.com' });
      const store = (await server.system('POST', '/api/ecommerce/stores', { data: { slug: 'sku-store' } })).body.data;
      const product = (await server.system('POST', '/api/ecommerce/products', { data: { slug: 'sku-product' } })).body.data;
      const product2 = (await server.system('POST', '/api/ecommerce/products', { data: { slug: 'sku-product-2' } })).body.data;
      expect((await server.system('POST', '/api/ecommerce/stores-to-products', { data: { storeId: store.id, productId: product.id, sku: PAYLOAD } })).status).toBe(201);
      expect((await server.system('POST', '/api/ecommerce/stores-to-products', { data: { storeId: store.id, productId: product2.id, sku: 'a=b' } })).status).toBe(201);
      expect((await server.system('POST', '/api/host/pages', { data: { url: '/sku/[ecommerce.stores-to-products.sku]', title: 'SKU' } })).status).toBe(201);
    });
    afterAll(async () => server?.close());

    it('finding 11: an entity segment holding markup is escaped in every head attribute, however the request encodes it', async () => {
      for (const path of [`/ru/sku/${encodeURIComponent(PAYLOAD)}`, '/ru/sku/x%22%3E%3Cimg%20src=x%20onerror=alert(1)%3E', `/sku/${encodeURIComponent(PAYLOAD)}`]) {
        const r = await get(path);
        expect(r.status, path).toBe(200);
        const head = r.html.slice(0, r.html.indexOf('</head>'));
        expect(head, path).not.toContain('<img');
        expect(head, path).not.toContain('x">');
        expect(head, path).not.toContain('onerror=alert(1)>');
        expect(head, path).toContain(`<link rel="alternate" hreflang="ru" href="https://shop.example.com/ru/sku/${encodeURIComponent(PAYLOAD)}">`);
        expect(head, path).toContain(`<link rel="alternate" hreflang="en" href="https://shop.example.com/sku/${encodeURIComponent(PAYLOAD)}">`);
        expect(head, path).toContain(`<link rel="alternate" hreflang="x-default" href="https://shop.example.com/sku/${encodeURIComponent(PAYLOAD)}">`);
        expect(head, path).toContain(`<meta property="og:url" content="https://shop.example.com${path.startsWith('/ru') ? '/ru' : ''}/sku/${encodeURIComponent(PAYLOAD)}">`);
        // the body has no such element either: React escapes, the page data is JSON with '<' escaped
        expect(r.html, path).not.toContain('<img src=x');
      }
    });

    it('finding 11: every percent-escape in a path is decoded the same way: %3D finds the sku a=b', async () => {
      expect((await get('/sku/a%3Db')).status).toBe(200);
      expect((await get('/sku/a=b')).status).toBe(200);
      expect((await get('/ru/sku/a%3db')).status).toBe(200);
      // a malformed escape, or an encoded '/', finds no page (and breaks nothing)
      expect((await get('/sku/%E0%A4%A')).status).toBe(404);
      expect((await get('/sku/a%2Fb')).status).toBe(404);
    });

    it('finding 16: url-segment-value answers own segments only: __proto__, constructor and toString name nothing', async () => {
      const base = '/api/host/pages/url-segment-value?url=/sku/a%3Db&segment=';
      expect((await server.api('GET', base + '[ecommerce.stores-to-products.sku]')).body.data).toBe('a=b');
      for (const segment of ['__proto__', '[__proto__]', 'constructor', 'toString', 'hasOwnProperty']) {
        const r = await server.api('GET', base + encodeURIComponent(segment));
        expect(r.status, segment).toBe(404);
        expect(r.body.data, segment).toBeUndefined();
      }
      // a missing parameter is named, as find-by-url names it
      const causes = async (q: string) => {
        const r = await server.api('GET', `/api/host/pages/url-segment-value${q}`);
        expect(r.status).toBe(400);
        return r.body.cause.map((c: { field: string; rule: string }) => `${c.field}:${c.rule}`);
      };
      expect(await causes('?segment=[blog.article.slug]')).toEqual(['url:required']);
      expect(await causes('?url=/sku/a%3Db')).toEqual(['segment:required']);
      expect(await causes('')).toEqual(['url:required', 'segment:required']);
    });

    it('find-by-url and url-segment-value take a url with its language prefix, as the storefront serves and links it', async () => {
      for (const prefix of ['/ru', '/en', '']) {
        const page = await server.api('GET', `/api/host/pages/find-by-url?url=${prefix}/sku/a%3Db`);
        expect(page.status, prefix).toBe(200);
        expect(page.body.data.url).toBe('/sku/[ecommerce.stores-to-products.sku]');
        const value = await server.api('GET', `/api/host/pages/url-segment-value?url=${prefix}/sku/a%3Db&segment=ecommerce.stores-to-products.sku`);
        expect(value.body.data, prefix).toBe('a=b');
        expect((await fetch(`${server.url}${prefix}/sku/a%3Db`)).status, prefix).toBe(200);
      }
      expect((await server.api('GET', '/api/host/pages/find-by-url?url=/de/sku/a%3Db')).status).toBe(404);
    });

    it('a page url whose entity segment could never match is refused naming url; a known one, in either spelling, is taken', async () => {
      for (const url of ['/x/[nope.thing.slug]', '/x/[blog.article.title]', '/x/[blog.article.slug]/[blog.category.slug]', '/x/pre-[blog.article.slug]', '/x/[blog.article.slug']) {
        const r = await server.system('POST', '/api/host/pages', { data: { url, title: 'X' } });
        expect(r.status, url).toBe(400);
        expect(r.body.cause[0]).toMatchObject({ field: 'url', rule: 'reference' });
      }
      const made = await server.system('POST', '/api/host/pages', { data: { url: '/y/[blog.articles.slug]', title: 'Y' } });
      expect(made.status).toBe(201);
      expect((await server.system('PATCH', `/api/host/pages/${made.body.data.id}`, { data: { url: '/y/[x.y.z]' } })).body.cause[0]).toMatchObject({ field: 'url', rule: 'reference' });
      const bulk = await server.system('POST', '/api/host/pages/bulk', { data: [{ url: '/z1', title: 'Z' }, { url: '/z2/[a.b.c]', title: 'Z' }] });
      expect(bulk.status).toBe(400);
      expect(bulk.body.cause[0].field).toBe('data[1].url');
    });
  });
}
