import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { DIALECTS } from '../helpers/databases.js';
import { SECRET } from '../helpers/app.js';
import { bootShop, makeCatalog, shopPath, type Catalog, type Shop } from '../ecommerce/support.js';

/**
 * A JSON Content-Type with an empty body (Content-Length: 0, or a chunked body of no bytes) is a request without
 * a body, on every route: over real HTTP (where @hono/node-server always gives a write a body stream, which the
 * body limits read) and in process (app.request, where there is no stream at all). A non-empty body that is not
 * JSON is still a 400.
 */
for (const d of DIALECTS) {
  describe(`an empty JSON body on ${d.name}`, () => {
    let t: Shop;
    let c: Catalog;
    let server: ReturnType<typeof createAdaptorServer>;
    let port = 0;
    beforeAll(async () => {
      t = await bootShop(await d.make());
      c = await makeCatalog(t);
      server = createAdaptorServer({ fetch: t.app.fetch });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
      port = (server.address() as AddressInfo).port;
    });
    afterAll(async () => {
      await new Promise((r) => server?.close(r));
      await t?.close();
    });

    /** a raw HTTP request: `body` undefined sends none (with `chunked`, a chunked body of no bytes) */
    function send(method: string, path: string, headers: Record<string, string>, body?: string, chunked = false) {
      return new Promise<{ status: number; body: any }>((resolve, reject) => {
        const framed = body === undefined ? headers : { 'content-length': String(Buffer.byteLength(body)), ...headers };
        const req = request({ host: '127.0.0.1', port, path, method, agent: false, headers: framed }, (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
        });
        req.on('error', reject);
        if (chunked) req.setHeader('transfer-encoding', 'chunked');
        req.end(body);
      });
    }
    const json = { 'content-type': 'application/json' };
    const system = { ...json, 'x-rbac-secret-key': SECRET };
    /** the three ways of sending no bytes with a JSON type */
    const empties: [string, Record<string, string>, boolean][] = [
      ['Content-Length: 0', { 'content-length': '0' }, false],
      ['no length header, no body', {}, false],
      ['a chunked body of no bytes', {}, true],
    ];

    it('DELETE …/orders/{cartId} with a JSON type and no body removes the whole cart, as without the header', async () => {
      for (const [how, extra, chunked] of empties) {
        const m = await t.register(`empty-${how.length}@example.com`);
        const cart = (await m.call('POST', shopPath(m.id, '/orders'), { data: { productId: c.book.id, quantity: 2 } })).body.data;
        const r = await send('DELETE', shopPath(m.id, `/orders/${cart.id}`), { ...json, authorization: `Bearer ${m.jwt}`, ...extra }, undefined, chunked);
        expect(r, how).toMatchObject({ status: 200, body: { data: { id: cart.id, deleted: true } } });
        expect((await t.call('GET', `/api/ecommerce/orders/${cart.id}`)).status, how).toBe(404);
      }
      // in process, with no body stream at all
      const m = await t.register('empty-in-process@example.com');
      const cart = (await m.call('POST', shopPath(m.id, '/orders'), { data: { productId: c.book.id } })).body.data;
      expect((await m.call('DELETE', shopPath(m.id, `/orders/${cart.id}`), undefined, json)).body.data).toEqual({ id: cart.id, deleted: true });
    });

    it('a non-empty body that is not JSON is still a 400, and changes nothing', async () => {
      const m = await t.register('empty-invalid@example.com');
      const cart = (await m.call('POST', shopPath(m.id, '/orders'), { data: { productId: c.book.id } })).body.data;
      for (const body of ['{oops', ' ', 'null x']) {
        const r = await send('DELETE', shopPath(m.id, `/orders/${cart.id}`), { ...json, authorization: `Bearer ${m.jwt}` }, body);
        expect(r, JSON.stringify(body)).toMatchObject({ status: 400, body: { message: 'The body is not valid JSON' } });
      }
      expect((await t.call('GET', `/api/ecommerce/orders/${cart.id}`)).status).toBe(200);
    });

    it('every route: a route needing a body says it has none; one that does not need it answers as without the header', async () => {
      const product = (await t.call('POST', '/api/ecommerce/products', { data: {} })).body.data;
      const subject = await t.register('empty-add@example.com');
      const routes = [['POST', '/api/ecommerce/products'], ['PATCH', `/api/ecommerce/products/${product.id}`], ['POST', shopPath(subject.id, '/orders')], ['PATCH', shopPath(subject.id, `/orders/${product.id}`)]];
      for (const [how, extra, chunked] of empties) {
        for (const [method, path] of routes) {
          const r = await send(method, path, { ...system, ...extra }, undefined, chunked);
          expect(r, `${method} ${path} (${how})`).toMatchObject({ status: 400, body: { message: 'Data is undefined' } });
        }
      }
      // clear-old-orders takes an optional body: none is its defaults
      expect(await send('POST', '/api/ecommerce/orders/clear-old-orders', { ...system, 'content-length': '0' })).toMatchObject({ status: 200, body: { data: { ok: true } } });
      expect((await send('POST', '/api/ecommerce/products', system, '{oops')).body.message).toBe('The body is not valid JSON');
      expect(await send('DELETE', `/api/ecommerce/products/${product.id}`, { ...system, 'content-length': '0' })).toMatchObject({ status: 200 });
    });
  });
}
