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
});
