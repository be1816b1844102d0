import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { ROOT } from '../../engine/codegen.js';
import { loadConfig } from '../../runtime/config.js';
import { startServer, type Running } from '../../runtime/server.js';
import type { Plugin } from '../../runtime/plugin.js';
import { plugins } from '../../plugins/index.js';
import { DIALECTS } from '../helpers/databases.js';
import { raw, type RawAnswer as Raw } from '../helpers/wire.js';
import { bootApp } from '../helpers/app.js';
import { SESSION_COOKIE } from '../../plugins/rbac/server/tokens.js';

const KEY = 'fast-read-secret-key-0123';
const PRODUCT = '/api/ecommerce/products';
/** the demo's landing template (plugins/ecommerce seed) */
const LANDING = '6f1c2a40-0000-4000-8000-000000000301';

/** a plugin whose middleware passes every request on but is not known to leave reads as they are */
const unknownMiddleware: Plugin = { name: 'unknown-middleware', middleware: () => (_c, next) => next() };
/** a plugin that answers GET of one product by id itself */
const ownProductRoute: Plugin = {
  name: 'own-product-route',
  routes: (app) => app.get('/api/ecommerce/products/:id', (c) => c.json({ data: { mine: c.req.param('id') } })),
};


/** what two lanes must agree on: the status, the bytes, and every header but the date and a request id made anew */
function comparable(r: Raw) {
  const { date, 'x-request-id': id, ...headers } = r.headers;
  return { status: r.status, headers, body: r.body.toString('base64'), madeId: typeof id === 'string' && /^[0-9a-f-]{36}$/.test(id) ? 'uuid' : id };
}

/**
 * The fast lane (runtime/http/fast-read.ts) answers an anonymous GET of a public row by id without hono: its answers
 * must be the app's, byte for byte and header for header. Each request goes to a server with the lane and to one on
 * the same database whose app the lane may not skip (a plugin middleware it does not know), over HTTP.
 */
for (const d of DIALECTS) {
  describe(`the fast lane of reads by id answers as the app does, on ${d.name}`, () => {
    let fast: Running;
    let slow: Running;
    let own: Running;
    const db = d.make();
    const config = (url: string) =>
      loadConfig({ NODE_ENV: 'test', PORT: '0', DATABASE_URL: url, RBAC_SECRET_KEY: KEY, RBAC_JWT_SECRET: 'fast-read-jwt-secret-0123', LOG_LEVEL: 'silent', CORS_ORIGINS: 'https://shop.example' });
    const base = (r: Running) => `http://127.0.0.1:${r.port}`;
    let etag = '';
    let token = '';
    let article = '';

    beforeAll(async () => {
      const made = await db;
      fast = await startServer({ config: config(made.url), root: ROOT, plugins, web: 'off', seed: true });
      slow = await startServer({ config: config(made.url), root: ROOT, plugins: [...plugins, unknownMiddleware], web: 'off', seed: false });
      own = await startServer({ config: config(made.url), root: ROOT, plugins: [...plugins, ownProductRoute], web: 'off', seed: false });
      etag = String((await raw(base(fast), `${PRODUCT}/${LANDING}`)).headers.etag);
      token = (await (await fetch(`${base(fast)}/api/rbac/subjects/authentication/init`)).json()).data.jwt;
      article = (await (await fetch(`${base(fast)}/api/blog/articles?limit=1`)).json()).data[0].id;
    });
    afterAll(async () => {
      await Promise.all([fast?.close(), slow?.close(), own?.close()]);
      await (await db).drop();
    });

    /** the same request to both servers: equal answers; whether the lane took it */
    async function both(path: string, headers: Record<string, string> = {}, method = 'GET') {
      const before = fast.fastReads.served;
      const a = await raw(base(fast), path, headers, method);
      const taken = fast.fastReads.served - before;
      const b = await raw(base(slow), path, headers, method);
      expect(slow.fastReads.served, 'the lane skipped a middleware it does not know').toBe(0);
      expect(comparable(a), `${method} ${path} ${JSON.stringify(headers)}`).toEqual(comparable(b));
      return { answer: a, taken: taken === 1 };
    }

    it('takes a plain read, with and without compression, and its 304; the answers are the app’s to the byte', async () => {
      const plain = await both(`${PRODUCT}/${LANDING}`);
      expect(plain.taken).toBe(true);
      expect(plain.answer.status).toBe(200);
      expect(JSON.parse(plain.answer.body.toString()).data).toMatchObject({ id: LANDING, slug: 'landing-template', title: { en: 'Landing template' } });
      expect(plain.answer.headers).toMatchObject({ 'content-type': 'application/json', 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY', vary: 'Origin, Accept-Encoding' });
      for (const encoding of ['br', 'gzip', 'gzip;q=0.5, br;q=0.1', 'identity']) {
        const r = await both(`${PRODUCT}/${LANDING}`, { 'accept-encoding': encoding });
        expect(r.taken, encoding).toBe(true);
        expect(r.answer.headers['content-encoding'], encoding).toBe(encoding === 'identity' ? undefined : encoding.startsWith('gzip') ? 'gzip' : 'br');
      }
      const notModified = await both(`${PRODUCT}/${LANDING}`, { 'if-none-match': etag });
      expect(notModified).toMatchObject({ taken: true, answer: { status: 304 } });
      expect(notModified.answer.body.length).toBe(0);
      expect((await both(`${PRODUCT}/${LANDING}`, { 'if-none-match': 'W/"other"' })).answer.status).toBe(200);
    });

    it('keeps a caller’s request id, answers an allowed origin, and routes a trailing slash and capitals as the app does', async () => {
      const id = await both(`${PRODUCT}/${LANDING}`, { 'x-request-id': 'abc-123' });
      expect(id).toMatchObject({ taken: true });
      expect(id.answer.headers['x-request-id']).toBe('abc-123');
      expect((await both(`${PRODUCT}/${LANDING}`, { 'x-request-id': 'no spaces <allowed>' })).answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      const shop = await both(`${PRODUCT}/${LANDING}`, { origin: 'https://shop.example' });
      expect(shop).toMatchObject({ taken: true, answer: { headers: { 'access-control-allow-origin': 'https://shop.example', 'access-control-allow-credentials': 'true' } } });
      expect((await both(`${PRODUCT}/${LANDING}`, { origin: 'https://elsewhere.example' })).answer.headers['access-control-allow-origin']).toBeUndefined();
      expect(await both(`${PRODUCT}/${LANDING}/`)).toMatchObject({ taken: true, answer: { status: 200 } });
      expect(await both(`${PRODUCT}/${LANDING.toUpperCase()}`)).toMatchObject({ taken: true, answer: { status: 200 } });
      // a cookie that is not the session is no credential
      expect(await both(`${PRODUCT}/${LANDING}`, { cookie: 'theme=dark' })).toMatchObject({ taken: true, answer: { status: 200 } });
    });

    it('leaves to the app a missing row, credentials, a query, HEAD, a private entity and one read by role', async () => {
      const missing = await both(`${PRODUCT}/6f1c2a40-0000-4000-8000-999999999999`);
      expect(missing).toMatchObject({ taken: false, answer: { status: 404 } });
      expect(JSON.parse(missing.answer.body.toString())).toEqual({ message: 'No ecommerce/product with id 6f1c2a40-0000-4000-8000-999999999999', status: 404 });
      for (const headers of [{ authorization: `Bearer ${token}` }, { cookie: `theme=dark; ${SESSION_COOKIE}=${token}` }, { 'x-rbac-secret-key': KEY }, { 'x-rbac-secret-key': 'wrong' }] as Record<string, string>[]) {
        const r = await both(`${PRODUCT}/${LANDING}`, headers);
        expect(r, JSON.stringify(headers)).toMatchObject({ taken: false, answer: { status: 200, headers: { 'cache-control': 'no-store' } } });
        expect(r.answer.headers.etag).toBeUndefined();
      }
      expect(await both(`${PRODUCT}/${LANDING}?anything=1`)).toMatchObject({ taken: false, answer: { status: 200 } });
      expect(await both(`${PRODUCT}/${LANDING}`, {}, 'HEAD')).toMatchObject({ taken: false, answer: { status: 200 } });
      expect(await both(`${PRODUCT}/not-a-uuid`)).toMatchObject({ taken: false, answer: { status: 400 } });
      expect(await both(`/api/ecommerce/orders/${LANDING}`)).toMatchObject({ taken: false, answer: { status: 401 } });
      // an article's members-only part is read by role: the app decides what each caller sees
      const byRole = await both(`/api/blog/articles/${article}`);
      expect(byRole).toMatchObject({ taken: false, answer: { status: 200 } });
      expect(JSON.parse(byRole.answer.body.toString()).data.privateContent).toBeUndefined();
    });

    it('leaves a path to the app where a plugin declares its own route', async () => {
      const before = own.fastReads.served;
      const mine = await (await fetch(`${base(own)}${PRODUCT}/${LANDING}`)).json();
      expect(mine).toEqual({ data: { mine: LANDING } });
      expect(own.fastReads.served).toBe(before);
      // the other entities still take the lane on that server
      const category = (await (await fetch(`${base(own)}/api/ecommerce/categories?limit=1`)).json()).data[0];
      const read = await fetch(`${base(own)}/api/ecommerce/categories/${category.id}`);
      expect(await read.json()).toEqual({ data: category });
      expect(own.fastReads.served).toBe(before + 1);
    });
  });
}

describe('the app’s own fetch (app.request) takes the same lane', () => {
  it('answers a read by id from the lane, and everything else through the app', async () => {
    const app = await bootApp((await DIALECTS[0].make()), { plugins, env: { SEED: 'false' } });
    try {
      const created = await app.call('POST', PRODUCT, { data: { adminTitle: 'Lane', slug: 'lane', title: { en: 'Lane' } } });
      expect(created.status).toBe(201);
      const before = app.fastReads.served;
      const read = await app.call('GET', `${PRODUCT}/${created.body.data.id}`, undefined, { auth: false });
      expect(read).toMatchObject({ status: 200, body: { data: { id: created.body.data.id, slug: 'lane' } } });
      expect(read.headers.get('etag')).toMatch(/^W\/"/);
      expect(app.fastReads.served).toBe(before + 1);
      // with the key: the app (no-store, no validator)
      const withKey = await app.call('GET', `${PRODUCT}/${created.body.data.id}`);
      expect(withKey.headers.get('cache-control')).toBe('no-store');
      expect(app.fastReads.served).toBe(before + 1);
    } finally {
      await app.close();
    }
  });
});
