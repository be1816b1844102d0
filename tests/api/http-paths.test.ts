import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { ROOT } from '../../engine/codegen.js';
import { loadConfig } from '../../runtime/config.js';
import { startServer } from '../../runtime/server.js';
import { plugins } from '../../plugins/index.js';
import { sqliteDatabase } from '../helpers/databases.js';

const KEY = 'paths-secret-key-0123456789';
const P = '/api/ecommerce/products';

/** HTTP's own questions about a path, asked of a real server over HTTP with no CORS origin configured */
describe('HTTP methods of API paths', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let base = '';
  const db = sqliteDatabase();
  beforeAll(async () => {
    const config = loadConfig({ NODE_ENV: 'test', PORT: '0', DATABASE_URL: db.url, RBAC_SECRET_KEY: KEY, RBAC_JWT_SECRET: 'paths-jwt-secret-0123456789', LOG_LEVEL: 'silent' });
    server = await startServer({ config, root: ROOT, plugins, web: 'off', seed: true });
    base = `http://127.0.0.1:${server.port}`;
  });
  afterAll(async () => {
    await server?.close();
    await db.drop();
  });
  const firstProduct = async () => ((await (await fetch(`${base}${P}?limit=1`)).json()) as { data: { id: string }[] }).data[0].id;

  it('OPTIONS answers 204 with the methods the path takes, to anyone; a path no route answers stays 404', async () => {
    const id = await firstProduct();
    const allow = async (path: string, headers: Record<string, string> = {}) => {
      const r = await fetch(base + path, { method: 'OPTIONS', headers });
      expect(r.status, `OPTIONS ${path}`).toBe(204);
      expect(await r.text()).toBe('');
      return r.headers.get('allow');
    };
    expect(await allow(P)).toBe('GET, HEAD, POST, OPTIONS');
    expect(await allow(`${P}/${id}`)).toBe('GET, HEAD, PATCH, DELETE, OPTIONS');
    expect(await allow(`${P}/${id}`, { 'x-rbac-secret-key': KEY })).toBe('GET, HEAD, PATCH, DELETE, OPTIONS');
    expect(await allow(`${P}/count`)).toBe('GET, HEAD, OPTIONS');
    expect(await allow(`${P}/bulk`)).toBe('POST, PATCH, OPTIONS');
    expect(await allow(`${P}/find-or-create`)).toBe('POST, OPTIONS');
    // a private entity and a plugin's own routes: the methods, not the rows, so no sign-in is asked
    expect(await allow('/api/rbac/identities')).toBe('GET, HEAD, POST, OPTIONS');
    expect(await allow('/api/rbac/subjects/authentication/me')).toBe('GET, HEAD, OPTIONS');
    expect(await allow('/api/rbac/subjects/authentication/email-and-password/authentication')).toBe('POST, OPTIONS');
    // every method the Allow header names is answered by a route, not a 404 or 405
    for (const method of ['GET', 'HEAD', 'POST', 'OPTIONS']) expect((await fetch(base + P, { method, headers: { 'x-rbac-secret-key': KEY } })).status, method).not.toBe(404);
    for (const path of ['/api/nothing-here', '/api/ecommerce/nothing', '/api/ecommerce/products/x/y', `${P}/not-a-uuid`]) {
      const r = await fetch(base + path, { method: 'OPTIONS' });
      expect(r.status, `OPTIONS ${path}`).toBe(404);
      expect(r.headers.get('allow'), path).toBeNull();
    }
  });

  it('a method a path does not take is a 405 naming the ones it takes, to anyone; a path no route answers stays 404', async () => {
    const id = await firstProduct();
    for (const headers of [{}, { 'x-rbac-secret-key': KEY }] as Record<string, string>[]) {
      for (const [method, path, allow] of [['PUT', `${P}/${id}`, 'GET, HEAD, PATCH, DELETE, OPTIONS'], ['POST', `${P}/${id}`, 'GET, HEAD, PATCH, DELETE, OPTIONS'], ['PUT', P, 'GET, HEAD, POST, OPTIONS'], ['PUT', '/api/rbac/subjects/authentication/me', 'GET, HEAD, OPTIONS']]) {
        const r = await fetch(base + path, { method, headers: { 'content-type': 'application/json', ...headers }, body: '{"data":{}}' });
        expect(r.status, `${method} ${path}`).toBe(405);
        expect(r.headers.get('allow'), `${method} ${path}`).toBe(allow);
        expect(await r.json()).toEqual({ message: `Method not allowed: ${method} ${path} takes ${allow}`, status: 405 });
      }
    }
    for (const path of ['/api/nothing-here', '/api/ecommerce/nothing/x']) {
      const r = await fetch(base + path, { method: 'PUT' });
      expect(r.status, path).toBe(404);
      expect(r.headers.get('allow')).toBeNull();
    }
  });

  it('a trailing slash is the same path: every method answers as it does without it', async () => {
    const send = async (method: string, path: string, data?: unknown) => {
      const r = await fetch(base + path, { method, headers: { 'x-rbac-secret-key': KEY, ...(data !== undefined && { 'content-type': 'application/json' }) }, body: data === undefined ? undefined : JSON.stringify({ data }) });
      const text = await r.text();
      return { status: r.status, body: text ? JSON.parse(text) : undefined, allow: r.headers.get('allow') };
    };
    const created = await send('POST', `${P}/`, { title: { en: 'Slash' }, type: 'one_off' });
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    const list = await send('GET', `${P}/?limit=1`);
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(1);
    expect(await send('GET', `${P}/count/`)).toEqual(await send('GET', `${P}/count`));
    expect((await send('GET', `${P}/${id}/`)).body.data.title).toEqual({ en: 'Slash' });
    const patched = await send('PATCH', `${P}/${id}/`, { title: { en: 'Slashed' } });
    expect(patched.status).toBe(200);
    expect((await send('GET', `${P}/${id}`)).body.data.title).toEqual({ en: 'Slashed' });
    expect((await send('POST', `${P}/find-or-create/`, { adminTitle: 'slash', type: 'one_off' })).status).toBe(201);
    expect((await send('OPTIONS', `${P}/${id}/`)).allow).toBe('GET, HEAD, PATCH, DELETE, OPTIONS');
    // a method the path does not take answers the same with or without the slash
    for (const path of [P, `${P}/${id}`]) expect((await send('PUT', `${path}/`, {})).status).toBe((await send('PUT', path, {})).status);
    expect((await send('GET', '/api/rbac/subjects/authentication/me/')).status).toBe(200);
    expect((await send('DELETE', `${P}/${id}/`)).status).toBe(200);
    expect((await send('GET', `${P}/${id}`)).status).toBe(404);
    expect((await send('GET', '/api/nothing-here/')).status).toBe(404);
  });
});
