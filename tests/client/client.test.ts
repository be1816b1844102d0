import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createServer, type Server } from 'node:http';
import { serve } from '@hono/node-server';
import { createApi } from '../../generated/client.js';
import { createHttp, entityClient, ApiError } from '../../runtime/client/index.js';
import { sqliteDatabase } from '../helpers/databases.js';
import { bootApp, SECRET, type TestApp } from '../helpers/app.js';

const listen = (s: Server) => new Promise<number>((r) => s.listen(0, '127.0.0.1', () => r((s.address() as { port: number }).port)));

describe('typed client against the real server', () => {
  let t: TestApp;
  let server: Server;
  let api: ReturnType<typeof createApi>;
  let anonymous: ReturnType<typeof createApi>;
  beforeAll(async () => {
    t = await bootApp(sqliteDatabase());
    server = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
    await new Promise((r) => server.once('listening', r));
    const baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    api = createApi({ baseUrl, headers: { 'X-RBAC-SECRET-KEY': SECRET } });
    anonymous = createApi({ baseUrl });
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    await t.close();
  });

  it('every operation of spec §7', async () => {
    const a = await api.ecommerce.products.create({ slug: 'client-a', title: { en: 'A', ru: 'А' } });
    expect(a.title.ru).toBe('А');
    const [b, c] = await api.ecommerce.products.bulkCreate([{ slug: 'client-b', type: 'subscription' }, { slug: 'client-c' }]);
    expect(await api.ecommerce.products.findById(b.id)).toEqual(b);
    const found = await anonymous.ecommerce.products.find({
      filters: { and: [{ column: 'slug', method: 'inArray', value: ['client-a', 'client-c'] }] },
      orderBy: { and: [{ column: 'slug', method: 'desc' }] },
      limit: 10,
    });
    expect(found.map((p) => p.slug)).toEqual(['client-c', 'client-a']);
    // an empty list of values is the empty list, not a missing value: inArray matches nothing, notInArray everything
    expect(await anonymous.ecommerce.products.find({ filters: { and: [{ column: 'slug', method: 'inArray', value: [] }] } })).toEqual([]);
    expect(await anonymous.ecommerce.products.find({ filters: { and: [{ column: 'slug', method: 'notInArray', value: [] }] } })).toHaveLength(3);
    expect(await anonymous.ecommerce.products.find({ filters: { and: [{ column: 'title.ru', method: 'eq', value: 'А' }] } })).toHaveLength(1);
    expect(await api.ecommerce.products.count({ filters: { and: [{ column: 'type', method: 'eq', value: 'subscription' }] } })).toBe(1);
    expect((await api.ecommerce.products.update(c.id, { adminTitle: 'C' })).adminTitle).toBe('C');
    expect((await api.ecommerce.products.bulkUpdate([{ id: a.id, adminTitle: 'A1' }, { id: b.id, adminTitle: 'B1' }])).map((p) => p.adminTitle)).toEqual(['A1', 'B1']);
    expect((await api.ecommerce.products.findOrCreate({ slug: 'client-a' })).id).toBe(a.id);
    expect((await api.ecommerce.products.delete(a.id)).id).toBe(a.id);
    expect(await api.ecommerce.products.find({ limit: 2, offset: 1 })).toHaveLength(1);
  });

  it('a non-OK answer throws: message, each cause, then status | statusText, joined with " | "', async () => {
    const err = await api.ecommerce.products.create({ slug: 'Bad Slug' }).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.message).toBe('Validation failed: slug must be lowercase letters, digits and dashes | slug must be lowercase letters, digits and dashes | 400 | Bad Request');
    expect(err.status).toBe(400);
    expect(JSON.parse(JSON.stringify(err))).toMatchObject({ status: 400, cause: [{ field: 'slug', rule: 'pattern' }] });
    await expect(anonymous.ecommerce.products.create({})).rejects.toThrow('Not authorized | 401 | Unauthorized');
    await expect(api.ecommerce.products.update('', {})).rejects.toThrow('id is required');
    await expect(api.ecommerce.products.delete('')).rejects.toThrow('id is required');
  });
});

describe('findById retries', () => {
  it('tries again 1 s apart after a failure, and gives up after 3 retries', async () => {
    let calls = 0;
    const server = createServer((_req, res) => {
      calls++;
      if (calls < 3) {
        res.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'warming up', status: 503 }));
      } else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: { id: 'x' } }));
    });
    const port = await listen(server);
    const client = entityClient<{ id: string }, object>(createHttp({ baseUrl: `http://127.0.0.1:${port}` }), '/api/m/things');
    const started = Date.now();
    expect(await client.findById('x')).toEqual({ id: 'x' });
    expect(calls).toBe(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);

    calls = -100; // always failing now
    const failing = await client.findById('x', { retryDelay: 10 }).catch((e) => e);
    expect(failing.message).toBe('warming up | 503 | Service Unavailable');
    expect(calls).toBe(-96); // the first try and 3 retries
    server.close();
  }, 20_000);

  it('a 404 is an answer, not a fault: no retry', async () => {
    let calls = 0;
    const server = createServer((_req, res) => {
      calls++;
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'No m/thing with id x', status: 404 }));
    });
    const port = await listen(server);
    const client = entityClient(createHttp({ baseUrl: `http://127.0.0.1:${port}` }), '/api/m/things');
    await expect(client.findById('x')).rejects.toThrow('No m/thing with id x | 404 | Not Found');
    expect(calls).toBe(1);
    server.close();
  });

  it('each try is bounded by the timeout', async () => {
    const server = createServer(() => undefined); // never answers
    const port = await listen(server);
    const client = entityClient(createHttp({ baseUrl: `http://127.0.0.1:${port}` }), '/api/m/things');
    const started = Date.now();
    const err = await client.findById('x', { timeout: 200, retries: 1, retryDelay: 10 }).catch((e: ApiError) => e) as ApiError;
    expect(Date.now() - started).toBeLessThan(5000);
    // spec §8: 'An error occurred:' plus message, for a request that got no answer
    expect(err).toBeInstanceOf(ApiError);
    expect([err.message, err.status]).toEqual(['An error occurred: the server did not answer in time', 0]);
    server.closeAllConnections();
    server.close();
  });

  it("a request the network fails says 'An error occurred:' and the cause, after its retries", async () => {
    const server = createServer();
    const port = await listen(server);
    await new Promise((r) => server.close(r)); // nothing listens on the port now
    const client = entityClient(createHttp({ baseUrl: `http://127.0.0.1:${port}` }), '/api/m/things');
    const err = await client.findById('x', { retries: 1, retryDelay: 10 }).catch((e: ApiError) => e) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(0);
    expect(err.message).toMatch(/^An error occurred: \S/);
    // an answer that is not JSON (a proxy's page) is no usable answer either
    const html = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Gateway</h1>'));
    const htmlPort = await listen(html);
    const broken = await entityClient(createHttp({ baseUrl: `http://127.0.0.1:${htmlPort}` }), '/api/m/things').findById('x', { retries: 0 }).catch((e: ApiError) => e) as ApiError;
    expect(broken.message).toMatch(/^An error occurred: .*JSON/);
    html.close();
  });
});
