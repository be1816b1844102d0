import { describe, it, expect, beforeAll, afterAll, vi } from 'vitest';
import { Hono } from 'hono';
import { createAdaptorServer, type ServerType } from '@hono/node-server';
import { raw } from '../helpers/wire.js';
import { brotliDecompressSync } from 'node:zlib';
import { ROOT } from '../../engine/codegen.js';
import { DIALECTS } from '../helpers/databases.js';
import { bootApp, SECRET, type TestApp } from '../helpers/app.js';
import { plugins } from '../../plugins/index.js';
import { seed } from '../../runtime/seed.js';
import { mountWeb, type StorefrontRenderer } from '../../runtime/web.js';
import { storefrontOf } from '../../plugins/host/server/index.js';
import { OPENAPI_LIMIT } from '../../runtime/http/openapi.js';
import { healthRoute } from '../../runtime/health.js';

const MEMBER_ROLE = '8b3e4c60-0000-4000-8000-000000000002';
const ADMIN_ROLE = '8b3e4c60-0000-4000-8000-000000000001';
const PRODUCTS = 40;

/**
 * F03 (red-team of the running server): an anonymous `GET /api/openapi.json` built the whole document on every
 * request (a second of CPU, 628 KB), and four of them held /api/health up for 5 s. It is built once per access set
 * (the caller's kind, sign-in and roles; every visitor is one), shared by concurrent first requests, dropped when the
 * route permissions change, answered with a validator (304) and compressed once, and limited per client address.
 * The other anonymous answers that read or render a lot (the sitemap, the page urls, the API viewer's bundle, the
 * health check) are kept or shared the same way.
 *
 * F04: `GET /api/host/pages/rows` and every unknown url (the 404 page) drew a page per request, past the page cache.
 * The 404 page is kept per language like a page; the rows route answers from where the page shows relations a page
 * at a time, kept beside the page, and draws no page per request.
 */
for (const d of DIALECTS) {
  describe(`F03, F04: anonymous answers that cost a build or a render are kept (${d.name})`, () => {
    let t: TestApp;
    let categoryId: string;
    const docs = () => t.documents;
    const storefront = () => storefrontOf(t.ctx);
    let server: ServerType;
    let base: string;
    /** an anonymous request over HTTP, from its own client address (TRUST_PROXY: the last X-Forwarded-For hop) */
    const anon = async (path: string, headers: Record<string, string> = {}, from = '10.3.0.1') => {
      const res = await raw(base, path, { 'x-forwarded-for': from, ...headers });
      const header = (name: string) => {
        const v = res.headers[name];
        return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
      };
      return { status: res.status, headers: { get: header }, bytes: res.body, text: () => res.body.toString('utf8') };
    };
    const openapi = async (headers: Record<string, string> = {}) => {
      const r = await anon('/api/openapi.json', headers);
      return { ...r, doc: r.status === 200 ? JSON.parse(r.text()) : undefined };
    };

    beforeAll(async () => {
      t = await bootApp(await d.make(), { plugins, env: { TRUST_PROXY: 'true' } });
      await seed(t.repo, plugins.flatMap((p) => (p.seed ? [p.seed] : [])));
      // the storefront's pages as `npm start` serves them (the built web apps)
      await mountWeb(t.app, ROOT, 'built', t.ctx.services.storefront as StorefrontRenderer);
      // over HTTP as the server answers (@hono/node-server: the answers the wire compresses and validates)
      server = createAdaptorServer({ fetch: t.app.fetch });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
      base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      const post = async (path: string, data: unknown) => {
        const r = await t.call('POST', path, { data });
        expect(r.status, JSON.stringify(r.body)).toBe(201);
        return r.body.data;
      };
      categoryId = (await post('/api/ecommerce/categories', { adminTitle: 'Long', slug: 'long-list', title: { en: 'Long list' } })).id;
      const products = (await post('/api/ecommerce/products/bulk', Array.from({ length: PRODUCTS }, (_, i) => ({ adminTitle: `Item ${i}`, slug: `cost-item-${i}`, title: { en: `Item number ${i}` } })))) as { id: string }[];
      await post('/api/ecommerce/categories-to-products/bulk', products.map((p, i) => ({ categoryId, productId: p.id, orderIndex: i })));
    });
    afterAll(async () => {
      await new Promise((r) => (server ? server.close(r) : r(undefined)));
      await t?.close();
    });

    it('F03: concurrent first requests of visitors share one build of the document; later requests build nothing', async () => {
      docs().clear();
      const before = docs().builds;
      const answers = await Promise.all(Array.from({ length: 6 }, () => openapi()));
      expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
      expect(docs().builds - before).toBe(1);
      // the same bytes and validator for every visitor
      expect(new Set(answers.map((a) => a.text())).size).toBe(1);
      expect(new Set(answers.map((a) => a.headers.get('etag'))).size).toBe(1);
      expect((await openapi()).status).toBe(200);
      expect(docs().builds - before).toBe(1);
      expect(answers[0].doc.paths['/api/ecommerce/products'].get).toBeDefined();
      expect(answers[0].doc.paths['/api/ecommerce/products'].post).toBeUndefined();
    });

    it('F03: one document per access set: members with the same roles share one, admins and the system another', async () => {
      docs().clear();
      const register = async (login: string) => {
        const r = await t.call('POST', '/api/rbac/subjects/authentication/email-and-password/registration', { data: { login, password: 'password123' } }, { auth: false });
        expect(r.status, JSON.stringify(r.body)).toBe(201);
        const me = await t.call('GET', '/api/rbac/subjects/authentication/me', undefined, { token: r.body.data.jwt });
        return { jwt: r.body.data.jwt as string, id: me.body.data.id as string };
      };
      const [a, b, boss] = [await register(`f03-a-${d.name}@example.com`), await register(`f03-b-${d.name}@example.com`), await register(`f03-boss-${d.name}@example.com`)];
      for (const s of [a, b]) expect((await t.call('POST', '/api/rbac/subjects-to-roles', { data: { subjectId: s.id, roleId: MEMBER_ROLE } })).status).toBe(201);
      expect((await t.call('POST', '/api/rbac/subjects-to-roles', { data: { subjectId: boss.id, roleId: ADMIN_ROLE } })).status).toBe(201);
      const before = docs().builds;
      const member = await openapi({ authorization: `Bearer ${a.jwt}` });
      expect(member.status).toBe(200);
      expect((await openapi({ authorization: `Bearer ${b.jwt}` })).text()).toBe(member.text());
      expect(docs().builds - before).toBe(1);
      const admin = await openapi({ authorization: `Bearer ${boss.jwt}` });
      expect((await openapi({ 'x-rbac-secret-key': SECRET })).text()).toBe(admin.text());
      expect(docs().builds - before).toBe(2);
      // admins see what members do not
      expect(admin.doc.paths['/api/rbac/identities']).toBeDefined();
      expect(member.doc.paths['/api/rbac/identities']).toBeUndefined();
      // an answer to a caller with credentials depends on who asks: no validator, never stored
      expect(member.headers.get('etag')).toBeNull();
      expect(member.headers.get('cache-control')).toBe('no-store');
    });

    it('F03: a visitor revalidates with If-None-Match (304, no body) and gets the document compressed', async () => {
      const first = await anon('/api/openapi.json', { 'accept-encoding': 'br' });
      expect(first.status).toBe(200);
      const etag = first.headers.get('etag')!;
      expect(etag).toMatch(/^W\/"/);
      expect(first.headers.get('cache-control')).toBe('no-cache');
      expect(first.headers.get('content-encoding')).toBe('br');
      expect(first.headers.get('vary')).toMatch(/Authorization/);
      const plain = await openapi();
      expect(brotliDecompressSync(first.bytes).toString('utf8')).toBe(plain.text());
      expect(plain.bytes.length).toBeGreaterThan(first.bytes.length * 3);
      const again = await anon('/api/openapi.json', { 'if-none-match': etag });
      expect(again.status).toBe(304);
      expect(again.bytes.length).toBe(0);
    });

    it('F03: a change to the route permissions is in the next document: the documents built before are dropped', async () => {
      const orders = '/api/ecommerce/orders';
      expect((await openapi()).doc.paths[orders]).toBeUndefined();
      const before = docs().builds;
      const permission = await t.call('POST', '/api/rbac/permissions', { data: { method: 'GET', route: orders } });
      expect(permission.status).toBe(201);
      // a permission with no role opens the route to everyone, and the visitor's document says so
      expect((await openapi()).doc.paths[orders]?.get).toBeDefined();
      expect(docs().builds - before).toBe(1);
      // given a role, it is that role's alone
      expect((await t.call('POST', '/api/rbac/roles-to-permissions', { data: { roleId: MEMBER_ROLE, permissionId: permission.body.data.id } })).status).toBe(201);
      expect((await openapi()).doc.paths[orders]).toBeUndefined();
      expect((await t.call('DELETE', `/api/rbac/permissions/${permission.body.data.id}`)).status).toBe(200);
      expect((await openapi()).doc.paths[orders]).toBeUndefined();
      expect(docs().builds - before).toBe(3);
      // other writes change nothing of it
      expect((await t.call('POST', '/api/blog/categories', { data: { adminTitle: 'f03' } })).status).toBe(201);
      expect((await openapi()).status).toBe(200);
      expect(docs().builds - before).toBe(3);
    });

    it('F03: the API viewer serves its bundle from memory with a validator; an unknown or inherited name is a 404', async () => {
      const bundle = await anon('/api/docs/assets/swagger-ui-bundle.js');
      expect(bundle.status).toBe(200);
      expect(bundle.bytes.length).toBeGreaterThan(500_000);
      const etag = bundle.headers.get('etag')!;
      expect(etag).toMatch(/^W\/"/);
      expect((await anon('/api/docs/assets/swagger-ui-bundle.js', { 'if-none-match': etag })).status).toBe(304);
      for (const name of ['__proto__', 'constructor', 'package.json', '..%2Fpackage.json']) expect((await anon(`/api/docs/assets/${name}`)).status, name).toBe(404);
    });

    it('F03: the sitemap and the page urls are made once and kept until a write to what they read', async () => {
      for (const path of ['/sitemap.xml', '/api/host/pages/urls']) {
        storefront().cache.clear();
        const before = t.database.queries;
        const first = await anon(path);
        expect(first.status, path).toBe(200);
        const made = t.database.queries - before;
        expect(made, path).toBeGreaterThan(0);
        const kept = t.database.queries;
        const again = await anon(path);
        expect(again.text()).toBe(first.text());
        // a kept answer reads no page and no row (the route permissions of an /api path are asked, no more)
        expect(t.database.queries - kept, path).toBeLessThan(made);
        expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
        // a new product with its page: listed at once
        expect((await t.call('POST', '/api/ecommerce/products', { data: { adminTitle: 'New', slug: `f03-new-${path.length}` } })).status).toBe(201);
        expect((await anon(path)).text()).toContain(`f03-new-${path.length}`);
      }
    });

    it('F03: health checks asked at once share one database check', async () => {
      const db = t.database.db as unknown as Record<string, (...args: unknown[]) => unknown>;
      const method = d.name === 'pg' ? 'execute' : 'get';
      const original = db[method];
      let calls = 0;
      let open!: () => void;
      const gate = new Promise<void>((resolve) => (open = resolve));
      // the database answers once the test lets it, so that every request arrives while the first check runs
      db[method] = function (this: unknown, ...args: unknown[]) {
        calls++;
        return gate.then(() => original.apply(this, args));
      };
      // the health route on this database, behind a step that counts the requests reaching it (the route asks for
      // its check in the same turn as it is reached)
      const app = new Hono();
      let arrived = 0;
      app.use('/api/health', (_, next) => (arrived++, next()));
      healthRoute(app, t.database, undefined, t.log);
      try {
        const asked = Array.from({ length: 5 }, () => Promise.resolve(app.request('/api/health')));
        await vi.waitFor(() => expect(arrived).toBe(5));
        expect(calls).toBe(1);
        open();
        const answers = await Promise.all(asked);
        expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
        expect((await answers[4].json()).data.status).toBe('ok');
        expect(calls).toBe(1);
        // nothing is kept once answered: the next request checks again
        expect((await app.request('/api/health')).status).toBe(200);
        expect(calls).toBe(2);
      } finally {
        db[method] = original;
      }
    });

    it('F04: every unknown url answers the one kept 404 page of its language, drawn once', async () => {
      storefront().cache.clear();
      const first = await anon('/no-such-page');
      expect(first.status).toBe(404);
      expect(first.headers.get('x-page-cache')).toBe('miss');
      expect(first.text()).toContain('Page not found');
      const drawn = storefront().renders;
      for (const path of ['/another/unknown', '/ecommerce/products/no-such-product', '/%E0%A4%A', '/x?y=1']) {
        const r = await anon(path);
        expect(r.status, path).toBe(404);
        expect(r.headers.get('x-page-cache'), path).toBe('hit');
        expect(r.text(), path).toBe(first.text());
        // a 404 carries no validator (only a 200 that is the same for everyone does)
        expect(r.headers.get('etag'), path).toBeNull();
      }
      expect(storefront().renders).toBe(drawn);
      // another language: its own page, kept too
      const ru = await anon('/ru/no-such-page');
      expect([ru.status, ru.headers.get('x-page-cache')]).toEqual([404, 'miss']);
      expect(ru.text()).toContain('lang="ru"');
      expect((await anon('/ru/still-unknown')).headers.get('x-page-cache')).toBe('hit');
      expect(storefront().renders).toBeGreaterThan(drawn);
    });

    it('F04: the kept 404 page goes when its content changes', async () => {
      expect((await anon('/missing-one')).status).toBe(404);
      const pages = await t.call('GET', '/api/host/pages?filters[and][0][column]=url&filters[and][0][method]=eq&filters[and][0][value]=/404');
      expect((await t.call('PATCH', `/api/host/pages/${pages.body.data[0].id}`, { data: { title: 'Nothing here' } })).status).toBe(200);
      const after = await anon('/missing-two');
      expect([after.status, after.headers.get('x-page-cache')]).toEqual([404, 'miss']);
      expect(after.text()).toContain('Nothing here');
      expect((await anon('/missing-three')).headers.get('x-page-cache')).toBe('hit');
    });

    it('F04: rows of a long relation come from what the page keeps: one render for the page, none per request', async () => {
      const url = '/ecommerce/categories/long-list';
      const query = (q: Record<string, string>) => `/api/host/pages/rows?${new URLSearchParams({ url, at: 'param:ecommerce/category', row: categoryId, relation: 'categoriesToProducts', ...q })}`;
      storefront().cache.clear();
      const before = storefront().renders;
      const first = await anon(query({ offset: '24' }));
      expect(first.status, first.text()).toBe(200);
      expect(JSON.parse(first.text()).data.rows).toHaveLength(PRODUCTS - 24);
      const drawn = storefront().renders;
      expect(drawn).toBeGreaterThan(before);
      // other offsets and limits, and places the page does not have: no render
      for (const q of [{ offset: '30' }, { offset: '25', limit: '3' }, { offset: '999999' }] as Record<string, string>[]) expect((await anon(query(q))).status, JSON.stringify(q)).toBe(200);
      for (const q of [{ row: '00000000-0000-4000-8000-000000000000' }, { relation: 'categoriesToCategories' }, { at: 'param:ecommerce/product' }] as Record<string, string>[]) {
        expect((await anon(query(q))).status, JSON.stringify(q)).toBe(404);
      }
      expect(storefront().renders).toBe(drawn);
      expect(JSON.parse((await anon(query({ offset: '25', limit: '3' }))).text()).data.rows.map((r: { product: { title: { en: string } } }) => r.product.title.en)).toEqual(['Item number 25', 'Item number 26', 'Item number 27']);
      // a change to what the page read drops what it keeps: the next request draws it once more
      const product = JSON.parse(first.text()).data.rows[0].product;
      expect((await t.call('PATCH', `/api/ecommerce/products/${product.id}`, { data: { title: { en: 'Renamed' } } })).status).toBe(200);
      expect(JSON.parse((await anon(query({ offset: '24', limit: '1' }))).text()).data.rows[0].product.title.en).toBe('Renamed');
      const redrawn = storefront().renders;
      expect(redrawn).toBeGreaterThan(drawn);
      expect((await anon(query({ offset: '26' }))).status).toBe(200);
      expect(storefront().renders).toBe(redrawn);
    });

    it(`F03: GET /api/openapi.json is limited to ${OPENAPI_LIMIT.points} a minute per client address, before anything is built`, async () => {
      docs().clear();
      const statuses: number[] = [];
      for (let i = 0; i <= OPENAPI_LIMIT.points; i++) statuses.push((await anon('/api/openapi.json', {}, '10.3.9.9')).status);
      expect(statuses.slice(0, OPENAPI_LIMIT.points).every((s) => s === 200)).toBe(true);
      const spent = await anon('/api/openapi.json', {}, '10.3.9.9');
      expect(statuses.at(-1)).toBe(429);
      expect(spent.status).toBe(429);
      expect(Number(spent.headers.get('retry-after'))).toBeGreaterThan(0);
      // another address is served, from the document already built
      const builds = docs().builds;
      expect((await anon('/api/openapi.json', {}, '10.3.9.10')).status).toBe(200);
      expect(docs().builds).toBe(builds);
    });
  });
}
