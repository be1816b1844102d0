import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import qs from 'qs';
import { ROOT } from '../../engine/codegen.js';
import { loadConfig } from '../../runtime/config.js';
import { startServer } from '../../runtime/server.js';
import { plugins } from '../../plugins/index.js';
import { DIALECTS } from '../helpers/databases.js';
import { SESSION_COOKIE } from '../../plugins/rbac/server/tokens.js';

const KEY = 'wire-secret-key-0123456789';

/**
 * The spec's API as its reference client calls it: query strings built by qs with encodeValuesOnly, every
 * body a multipart form with a `data` JSON part, answers read as {data} and errors as {message, status, cause}.
 * Run against a real server over HTTP, on each database.
 */
for (const d of DIALECTS) {
  describe(`the API as real clients call it, on ${d.name}`, () => {
    let server: Awaited<ReturnType<typeof startServer>>;
    let base = '';
    const db = d.make();
    beforeAll(async () => {
      const made = await db;
      const config = loadConfig({ NODE_ENV: 'test', PORT: '0', DATABASE_URL: made.url, RBAC_SECRET_KEY: KEY, RBAC_JWT_SECRET: 'wire-jwt-secret-0123456789', LOG_LEVEL: 'silent', CORS_ORIGINS: 'https://shop.example' });
      server = await startServer({ config, root: ROOT, plugins, web: 'off', seed: true });
      base = `http://127.0.0.1:${server.port}`;
    });
    afterAll(async () => {
      await server?.close();
      await (await db).drop();
    });

    /** the reference client's request helper */
    async function call(method: string, path: string, opts: { query?: unknown; data?: unknown; token?: string; system?: boolean; headers?: Record<string, string> } = {}) {
      const q = opts.query ? '?' + qs.stringify(opts.query, { encodeValuesOnly: true }) : '';
      const headers: Record<string, string> = { ...opts.headers };
      if (opts.token) headers.authorization = `Bearer ${opts.token}`;
      if (opts.system) headers['x-rbac-secret-key'] = KEY;
      let body: FormData | undefined;
      if (opts.data !== undefined) {
        body = new FormData();
        body.append('data', JSON.stringify(opts.data));
      }
      const res = await fetch(base + path + q, { method, headers, body });
      const text = await res.text();
      let json: any;
      try {
        json = JSON.parse(text);
      } catch {
        json = text;
      }
      return { status: res.status, body: json, headers: res.headers };
    }

    it('1. like and ilike mean contains, % and _ escaped; ilike on an id finds it by a prefix', async () => {
      const landing = await call('GET', '/api/ecommerce/products', { query: { filters: { and: [{ column: 'adminTitle', method: 'ilike', value: 'landing' }] } } });
      expect(landing.status).toBe(200);
      expect(landing.body.data.map((p: { adminTitle: string }) => p.adminTitle)).toContain('Landing template');
      expect((await call('GET', '/api/ecommerce/products', { query: { filters: { and: [{ column: 'adminTitle', method: 'ilike', value: '%' }] } } })).body.data).toEqual([]);
      const one = landing.body.data[0];
      const byId = await call('GET', '/api/ecommerce/products', { query: { filters: { or: [{ column: 'id', method: 'ilike', value: one.id.slice(0, 8) }] } } });
      expect(byId.status).toBe(200);
      expect(byId.body.data.map((p: { id: string }) => p.id)).toContain(one.id);
    });

    it('2. me without a token is 200 with data null', async () => {
      const r = await call('GET', '/api/rbac/subjects/authentication/me');
      expect(r).toMatchObject({ status: 200, body: { data: null } });
    });

    it('3. init answers jwt, refresh and nonce: an anonymous session', async () => {
      const r = await call('GET', '/api/rbac/subjects/authentication/init');
      expect(r.status).toBe(200);
      expect(typeof r.body.data.refresh).toBe('string');
      expect(r.body.data.refresh).not.toBe('null');
      const me = await call('GET', '/api/rbac/subjects/authentication/me', { token: r.body.data.jwt });
      expect(me.body.data).toMatchObject({ isAnonymous: true });
    });

    it('4. is-authorized takes permission[route|method|type] and answers ok', async () => {
      const r = await call('GET', '/api/rbac/subjects/authentication/is-authorized', { query: { permission: { route: '/api/ecommerce/products', method: 'GET', type: 'HTTP' } } });
      expect(r.body).toEqual({ data: { ok: true, authorized: true } });
    });

    it('5. a list tells its total in X-Total-Count and gets every row by default', async () => {
      for (let i = 0; i < 3; i++) await call('POST', '/api/blog/categories', { system: true, data: { adminTitle: `wire ${i}` } });
      const count = (await call('GET', '/api/blog/categories/count')).body.data as number;
      const all = await call('GET', '/api/blog/categories');
      expect(all.body.data).toHaveLength(count);
      expect(all.headers.get('x-total-count')).toBe(String(count));
      const page = await call('GET', '/api/blog/categories', { query: { limit: 2, offset: 1 } });
      expect(page.body.data).toHaveLength(2);
      expect(page.headers.get('x-total-count')).toBe(String(count));
      const filtered = await call('GET', '/api/blog/categories', { query: { limit: 1, filters: { and: [{ column: 'adminTitle', method: 'ilike', value: 'wire' }] } } });
      expect(filtered.headers.get('x-total-count')).toBe('3');
    });

    it('6. host urls answer data.urls[].url', async () => {
      const r = await call('GET', '/api/host/pages/urls');
      expect(r.body.data.urls).toContainEqual({ url: '/', segments: [] });
      expect(r.body.data.urls.every((u: { url: string }) => typeof u.url === 'string')).toBe(true);
    });

    it('7. entity segments in the route form: [blog.articles.slug] in page urls and url-segment-value', async () => {
      const page = await call('POST', '/api/host/pages', { system: true, data: { url: '/news/[blog.articles.slug]', title: 'News' } });
      expect(page.status).toBe(201);
      const found = await call('GET', '/api/host/pages/find-by-url', { query: { url: '/news/launch-week' } });
      expect(found.body.data.url).toBe('/news/[blog.articles.slug]');
      for (const segment of ['[blog.articles.slug]', '[blog.article.slug]']) {
        expect((await call('GET', '/api/host/pages/url-segment-value', { query: { url: '/news/launch-week', segment } })).body.data).toBe('launch-week');
      }
      expect((await call('GET', '/api/host/pages/urls')).body.data.urls.map((u: { url: string }) => u.url)).toContain('/news/launch-week');
    });

    it('8. a plain string for a language map is the default language\'s text, in every entity', async () => {
      const r = await call('POST', '/api/blog/categories', { system: true, data: { adminTitle: 'plain', title: 'Plain title' } });
      expect(r.status).toBe(201);
      expect(r.body.data.title).toEqual({ en: 'Plain title' });
      const u = await call('PATCH', `/api/blog/categories/${r.body.data.id}`, { system: true, data: { subtitle: 'Sub' } });
      expect(u.body.data.subtitle).toEqual({ en: 'Sub' });
    });

    it('11. CORS: preflight and credentials for exactly the configured origins, nothing for others', async () => {
      const pre = await fetch(`${base}/api/ecommerce/products`, { method: 'OPTIONS', headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST' } });
      expect(pre.status).toBe(204);
      expect(pre.headers.get('access-control-allow-origin')).toBe('https://shop.example');
      expect(pre.headers.get('access-control-allow-credentials')).toBe('true');
      const get = await fetch(`${base}/api/ecommerce/products`, { headers: { origin: 'https://shop.example' } });
      expect(get.headers.get('access-control-allow-origin')).toBe('https://shop.example');
      expect(get.headers.get('access-control-expose-headers')).toContain('X-Total-Count');
      const other = await fetch(`${base}/api/ecommerce/products`, { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
      expect(other.headers.get('access-control-allow-credentials')).toBeNull();
      // to another origin (or none) OPTIONS is HTTP's own: the methods the path takes, and no CORS header
      expect(other.status).toBe(204);
      expect(other.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
      expect(pre.headers.get('allow')).toBeNull();
      const otherGet = await fetch(`${base}/api/ecommerce/products`, { headers: { origin: 'https://evil.example' } });
      expect(otherGet.headers.get('access-control-allow-origin')).toBeNull();
      // the answer depends on the Origin, allowed or not: a shared cache must not give one origin's to another
      for (const r of [get, otherGet, await fetch(`${base}/api/ecommerce/products`)]) expect(r.headers.get('vary')).toMatch(/(^|, )Origin(,|$)/);
      // an answer to the allowed origin is compressed and has a validator like any other, and its 304 still allows it
      const zipped = await fetch(`${base}/api/ecommerce/products`, { headers: { origin: 'https://shop.example', 'accept-encoding': 'gzip' } });
      expect(zipped.headers.get('content-encoding')).toBe('gzip');
      const etag = zipped.headers.get('etag');
      expect(etag).toBeTruthy();
      expect((await zipped.json()).data.length).toBeGreaterThan(0);
      const again = await fetch(`${base}/api/ecommerce/products`, { headers: { origin: 'https://shop.example', 'accept-encoding': 'gzip', 'if-none-match': etag! } });
      expect(again.status).toBe(304);
      expect(again.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    });

    it('12. unknown routes answer 404, to visitors too', async () => {
      for (const path of ['/api/nothing-here', '/api/ecommerce/nothing', '/api/rbac/subjects/x/y/z/w', '/api/ecommerce/products/x/y']) {
        const r = await call('GET', path);
        expect(r.status, path).toBe(404);
      }
      // a real private route still asks for authorization
      expect((await call('GET', '/api/rbac/identities')).status).toBe(401);
    });

    it('13. revalidation by tag: an entity or a page', async () => {
      const byEntity = await call('GET', '/api/revalidation/revalidate', { query: { tag: 'blog.articles' }, system: true });
      expect(byEntity.body.data).toMatchObject({ revalidated: true, entity: 'blog/article' });
      const byPage = await call('GET', '/api/revalidation/revalidate', { query: { tag: '/blog' } });
      expect(byPage.body.data).toMatchObject({ revalidated: true, path: '/blog' });
      expect((await call('GET', '/api/revalidation/revalidate', { query: { tag: 'nothing' } })).status).toBe(400);
      // each refusal names its parameter and rule
      expect((await call('GET', '/api/revalidation/revalidate', { query: { path: 'x' } })).body.cause).toEqual([{ field: 'path', rule: 'format', message: 'path must start with /' }]);
      expect((await call('GET', '/api/revalidation/revalidate', { query: { path: '/', type: 'foo' } })).body.cause).toEqual([{ field: 'type', rule: 'enum', message: "type must be 'page' or 'layout'" }]);
    });

    it('§3 the shop as the reference client calls it: cart, totals, checkout, order calls', async () => {
      const reg = await call('POST', '/api/rbac/subjects/authentication/email-and-password/registration', { data: { login: 'wire-shopper@example.com', password: 'password123' } });
      const token = reg.body.data.jwt as string;
      const me = (await call('GET', '/api/rbac/subjects/authentication/me', { token })).body.data;
      const shop = `/api/rbac/subjects/${me.id}/ecommerce-module`;
      const landing = '6f1c2a40-0000-4000-8000-000000000301';
      expect((await call('GET', `${shop}/orders`, { token })).body.data).toEqual([]);
      expect((await call('POST', `${shop}/orders`, { token, data: { quantity: 1 } })).body.message).toBe('productId is required');
      const added = await call('POST', `${shop}/orders`, { token, data: { productId: landing, quantity: 2, billingModule: { currency: {} } } });
      expect(added.status).toBe(201);
      const cart = (await call('GET', `${shop}/orders`, { token })).body.data;
      expect(cart).toHaveLength(1);
      expect(cart[0]).toMatchObject({ type: 'cart', status: 'new' });
      expect((await call('GET', `${shop}/orders/quantity`, { token })).body.data).toBe(2);
      const totals = (await call('GET', `${shop}/orders/total`, { token })).body.data;
      expect(totals.length).toBeGreaterThan(0);
      expect(totals[0]).toMatchObject({ billingModuleCurrency: { id: expect.any(String) }, total: expect.any(Number), orders: [expect.objectContaining({ id: cart[0].id, total: expect.any(Number) })] });
      // the single store that sells it is the order's store
      const stores = await call('GET', '/api/ecommerce/stores-to-orders', { system: true, query: { filters: { and: [{ column: 'orderId', method: 'eq', value: cart[0].id }] } } });
      expect(stores.body.data.map((r: { storeId: string }) => r.storeId)).toEqual(['9f000000-0000-4000-8000-000000000101']);
      const line = cart[0].ordersToProducts[0];
      const patched = await call('PATCH', `${shop}/orders/${cart[0].id}`, { token, data: { ordersToProducts: [{ id: line.id, quantity: 3 }] } });
      expect(patched.status).toBe(200);
      expect((await call('GET', `/api/ecommerce/orders/${cart[0].id}/quantity`, { token })).body.data).toBe(3);
      expect((await call('GET', `/api/ecommerce/orders/${cart[0].id}/total`, { token })).body.data).toMatchObject({ total: expect.any(Number), billingModuleCurrency: { id: expect.any(String) } });
      const currencyId = totals[0].billingModuleCurrency.id;
      expect((await call('GET', `/api/ecommerce/orders/${cart[0].id}/checkout-attributes/${currencyId}`, { token })).body.data).toMatchObject({ amount: expect.any(Number), type: expect.stringMatching(/^(one_off|subscription)$/) });
      // checkout: provider, email, comment?, ecommerceModule.orders[].id → billingModule.invoices[0].paymentUrl
      const checkout = await call('POST', `${shop}/orders/checkout`, { token, data: { provider: 'dummy', email: 'wire-shopper@example.com', comment: 'gift', ecommerceModule: { orders: [{ id: cart[0].id }] } } });
      expect(checkout.status, JSON.stringify(checkout.body)).toBe(201);
      expect(checkout.body.data.billingModule.invoices[0].paymentUrl).toEqual(expect.any(String));
      expect((await call('PATCH', `${shop}/orders/${cart[0].id}`, { token, data: { ordersToProducts: [{ id: line.id, quantity: 1 }] } })).status).toBe(409);
      expect((await call('POST', `${shop}/orders/checkout`, { token, data: { provider: 'nope', email: 'a@b.co', ecommerceModule: { orders: [{ id: cart[0].id }] } } })).body.message).toBe('Invalid provider');
      const oneStep = await call('POST', `${shop}/products/${landing}/checkout`, { token, data: { provider: 'dummy', email: 'wire-shopper@example.com', quantity: 1, billingModule: { currency: { id: currencyId } } } });
      expect(oneStep.status).toBe(201);
      expect(oneStep.body.data.billingModule.invoices[0].paymentUrl).toEqual(expect.any(String));
      expect((await call('POST', '/api/ecommerce/orders/clear-old-orders', { system: true })).body.data).toMatchObject({ ok: true });
      // a product sold by several stores: the client must name one
      const second = (await call('POST', '/api/ecommerce/stores', { system: true, data: { adminTitle: 'Second store' } })).body.data;
      await call('POST', '/api/ecommerce/stores-to-products', { system: true, data: { storeId: second.id, productId: landing, sku: `wire-${d.name}` } });
      const ambiguous = await call('POST', `${shop}/orders`, { token, data: { productId: landing, quantity: 1 } });
      expect(ambiguous.status).toBe(400);
      expect(ambiguous.body.message).toBe("Multiple stores found. Pass 'data.storeId'");
      expect((await call('POST', `${shop}/orders`, { token, data: { productId: landing, quantity: 1, storeId: second.id } })).status).toBe(201);
    });

    it('10. the CRM request as the reference client sends it: steps of inputs, read by slug or id, checked like the flat form', async () => {
      const reg = await call('POST', '/api/rbac/subjects/authentication/email-and-password/registration', { data: { login: 'wire-crm@example.com', password: 'password123' } });
      const token = reg.body.data.jwt as string;
      const me = (await call('GET', '/api/rbac/subjects/authentication/me', { token })).body.data;
      const form = '9c000000-0000-4000-8000-000000000101';
      const path = `/api/rbac/subjects/${me.id}/crm-module/form/${form}/request`;
      const steps = (inputs: unknown[]) => ({ steps: [{ inputs }] });
      const ok = await call('POST', path, { token, data: steps([{ slug: 'contact-name', value: 'Dana' }, { id: '9c000000-0000-4000-8000-000000000202', value: 'dana@example.com' }, { slug: 'message', value: 'Hi' }]) });
      expect(ok.status, JSON.stringify(ok.body)).toBe(201);
      const missing = await call('POST', path, { token, data: steps([{ slug: 'contact-name', value: 'Dana' }]) });
      expect(missing.status).toBe(400);
      expect(missing.body.cause.map((c: { field: string }) => c.field)).toContain('email');
      // a CRM form accepts any fields: one the form does not have is kept under the name given
      const unknown = await call('POST', path, { token, data: steps([{ slug: 'contact-name', value: 'D' }, { slug: 'contact-email', value: 'd@example.com' }, { slug: 'colour', value: 'red' }]) });
      expect(unknown.status, JSON.stringify(unknown.body)).toBe(201);
      const kept = (await call('GET', `/api/crm/requests/${unknown.body.data.id}`, { system: true })).body.data;
      expect(kept.payload.fields.colour).toBe('red');
      const objectValue = await call('POST', path, { token, data: steps([{ slug: 'contact-name', value: 'D' }, { slug: 'contact-email', value: 'd@example.com' }, { slug: 'colour', value: { $gt: '' } }]) });
      expect(objectValue.status).toBe(400);
      expect((await call('POST', path, { token, data: { steps: 'no' } })).status).toBe(400);
      // only the subject itself
      expect((await call('POST', path, { data: steps([]) })).status).toBe(401);
    });

    it('errors are {message, status, cause} naming the field and rule', async () => {
      const r = await call('POST', '/api/blog/categories', { system: true, data: { adminTitle: 'x', colour: 'red' } });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ status: 400, cause: [{ field: 'colour', rule: 'unknown' }] });
    });

    it('a list query is read whole or refused: a misspelt parameter and too many parameters are 400s naming them', async () => {
      for (const [path, name] of [['/api/ecommerce/products?filter[and][0][column]=slug', 'filter'], ['/api/ecommerce/products?orderby[createdAt]=desc', 'orderby'], ['/api/ecommerce/products/count?page=2', 'page']]) {
        const r = await fetch(base + path);
        expect(r.status, path).toBe(400);
        const body = await r.json();
        expect(body.cause, path).toEqual([expect.objectContaining({ field: name, rule: 'unknown' })]);
        expect(body.message).toContain('filters, orderBy, limit, offset');
      }
      // the spec's parameters still work, the list's on its count too
      expect((await fetch(`${base}/api/ecommerce/products?limit=2&offset=0&orderBy[and][0][column]=createdAt&orderBy[and][0][method]=desc&filters[and][0][column]=slug&filters[and][0][method]=ne&filters[and][0][value]=x`)).status).toBe(200);
      expect((await fetch(`${base}/api/ecommerce/products/count?limit=2&offset=0`)).status).toBe(200);
      // past 2000 parameters nothing is read in part (the 2001st would have been dropped unseen)
      const tooMany = await fetch(`${base}/api/ecommerce/products?${'limit=1&'.repeat(2001)}`);
      expect(tooMany.status).toBe(400);
      expect((await tooMany.json()).cause).toEqual([expect.objectContaining({ field: 'query', rule: 'maxItems' })]);
    });

    // the server reads these from the headers Node parsed (runtime/http/headers.ts), not from a Fetch Headers
    it('request headers as sent over the wire: request id, credentials by header or cookie, the system key, foreign-origin writes', async () => {
      const path = '/api/ecommerce/products';
      const given = await call('GET', path, { headers: { 'x-request-id': 'trace-42' } });
      expect(given.headers.get('x-request-id')).toBe('trace-42');
      const made = await call('GET', path, { headers: { 'x-request-id': 'bad id!' } });
      expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);

      // anonymous: the same for everyone, so a validator and no no-store
      const open = await call('GET', path);
      expect(open.headers.get('etag')).toBeTruthy();
      expect(open.headers.get('cache-control') ?? '').not.toContain('no-store');
      // an If-None-Match that names the answer is a 304 (before any write changes the list)
      const again = await call('GET', path, { headers: { 'if-none-match': open.headers.get('etag')! } });
      expect(again.status).toBe(304);
      // any credentials, valid or not, make the answer private: a Bearer token, the session cookie among others, the system key
      const credentialed: Record<string, string>[] = [{ authorization: 'Bearer not-a-token' }, { cookie: `theme=dark; ${SESSION_COOKIE}=not-a-token; lang=en` }, { 'x-rbac-secret-key': KEY }];
      for (const headers of credentialed) {
        const r = await call('GET', path, { headers });
        expect(r.status, JSON.stringify(headers)).toBe(200);
        expect(r.headers.get('cache-control'), JSON.stringify(headers)).toBe('no-store');
        expect(r.headers.get('etag'), JSON.stringify(headers)).toBeNull();
      }
      // a cookie of another name is no credential
      expect((await call('GET', path, { headers: { cookie: 'theme=dark' } })).headers.get('cache-control') ?? '').not.toContain('no-store');

      // the system key by header lets a write through; a wrong one does not
      const data = { adminTitle: 'Header check', slug: `header-check-${Date.now()}`, title: { en: 'Header check' } };
      expect((await call('POST', path, { data, system: true })).status).toBe(201);
      expect((await call('POST', path, { data: { ...data, slug: `${data.slug}-2` }, headers: { 'x-rbac-secret-key': 'wrong-key' } })).status).toBe(401);
      // a write carried by the session cookie alone, from another origin, is refused before anything else
      const foreign = await call('POST', path, { data, headers: { cookie: `${SESSION_COOKIE}=not-a-token`, origin: 'https://evil.example' } });
      expect(foreign.status).toBe(403);
      expect(foreign.body.message).toBe('Not authorized: a request from another origin');
      // Accept-Encoding picks the encoding of a body large enough to compress
      const big = await fetch(`${base}${path}`, { headers: { 'accept-encoding': 'gzip' } });
      expect(big.headers.get('content-encoding')).toBe('gzip');
    });
  });
}
