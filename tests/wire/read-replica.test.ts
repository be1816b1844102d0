import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { ROOT } from '../../engine/codegen.js';
import { loadConfig } from '../../runtime/config.js';
import { startServer } from '../../runtime/server.js';
import { plugins } from '../../plugins/index.js';
import { pgDatabase, type TestDatabase } from '../helpers/databases.js';
import { execute } from '../helpers/raw.js';

const KEY = 'replica-secret-key-0123456789';
const env = (url: string, read?: string) => ({ NODE_ENV: 'test', PORT: '0', DATABASE_URL: url, ...(read ? { DATABASE_READ_URL: read } : {}), RBAC_SECRET_KEY: KEY, RBAC_JWT_SECRET: 'replica-jwt-secret-0123456789', LOG_LEVEL: 'silent', AGENT_SCHEDULER: 'off' });

/**
 * DATABASE_READ_URL: anonymous GETs read from the replica's pool; writes, and every request that writes or carries
 * credentials, use the primary (a session made a moment ago is live at once). The "replica" here is a second
 * database that replicates nothing, so each read shows where it went.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('a PostgreSQL read replica (DATABASE_READ_URL)', () => {
  let primary: TestDatabase;
  let replica: TestDatabase;
  let server: Awaited<ReturnType<typeof startServer>>;
  let base = '';
  beforeAll(async () => {
    [primary, replica] = await Promise.all([pgDatabase(), pgDatabase()]);
    // both have the schema and the demo rows (fixed ids), as a replica would have them from the primary
    for (const db of [primary, replica]) await (await startServer({ config: loadConfig(env(db.url)), root: ROOT, plugins, web: 'off', seed: true })).close();
    server = await startServer({ config: loadConfig(env(primary.url, replica.url)), root: ROOT, plugins, web: 'off' });
    base = `http://127.0.0.1:${server.port}`;
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await Promise.all([primary?.drop(), replica?.drop()]);
  });

  it('writes go to the primary, anonymous reads to the replica, callers with credentials read from the primary', async () => {
    const created = await fetch(`${base}/api/ecommerce/products`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-rbac-secret-key': KEY },
      body: JSON.stringify({ data: { adminTitle: 'On the primary', slug: 'on-the-primary', title: { en: 'P' }, type: 'one_off' } }),
    });
    const answer = await created.json();
    expect(created.status, JSON.stringify(answer)).toBe(201);
    const id = answer.data.id as string;
    expect(await execute(primary, `SELECT slug FROM ecommerce_products WHERE id = '${id}'`)).toEqual([{ slug: 'on-the-primary' }]);
    // the replica has not got it (nothing replicates here): an anonymous read went there
    expect((await fetch(`${base}/api/ecommerce/products/${id}`)).status).toBe(404);
    // a caller with credentials reads from the primary: it sees its own write at once
    expect((await fetch(`${base}/api/ecommerce/products/${id}`, { headers: { 'x-rbac-secret-key': KEY } })).status).toBe(200);
    // a new account signs in and is known at once, though the replica has no session
    const registered = await fetch(`${base}/api/rbac/subjects/authentication/email-and-password/registration`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ data: { login: 'replica@example.com', password: 'password123' } }),
    });
    expect(registered.status, await registered.clone().text()).toBe(201);
    const jwt = (await registered.json()).data.jwt as string;
    const me = await fetch(`${base}/api/rbac/subjects/authentication/me`, { headers: { authorization: `Bearer ${jwt}` } });
    expect(me.status).toBe(200);
    expect(await execute(replica, `SELECT count(*)::int AS n FROM rbac_sessions`)).toEqual([{ n: 0 }]);
  });
});
