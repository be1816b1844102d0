import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { ROOT } from '../../engine/codegen.js';
import { loadConfig } from '../../runtime/config.js';
import { startServer, type Running } from '../../runtime/server.js';
import { pgDatabase, type TestDatabase } from '../helpers/databases.js';
import { readSse, about } from '../helpers/sse.js';
import { SERVER_ENV, servicePlugins } from './server-process.js';

const REDIS = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * Two server processes on one PostgreSQL database and the Redis of this machine: a write through one process
 * reaches the event streams of the other, with the same rule for private entities.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL || (!process.env.REDIS_URL && !process.env.CI))('revalidation events across two server processes (Redis)', () => {
  let db: TestDatabase;
  let here: Running;
  let child: ChildProcess;
  let there = '';
  const channel = `revalidation-test-${randomBytes(4).toString('hex')}`;
  const streams: ReturnType<typeof readSse>[] = [];
  const system = { 'x-rbac-secret-key': SERVER_ENV.RBAC_SECRET_KEY, 'content-type': 'application/json' };
  const post = async (base: string, path: string, data: unknown) => {
    const res = await fetch(base + path, { method: 'POST', headers: system, body: JSON.stringify({ data }) });
    expect(res.status, path).toBe(201);
    return ((await res.json()) as { data: { id: string } }).data;
  };
  const listen = async (base: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${base}/api/broadcast/events`, { headers });
    expect(res.status).toBe(200);
    const s = readSse(res);
    streams.push(s);
    await s.waitFor((e) => e.event === 'ready');
    return s;
  };

  beforeAll(async () => {
    db = await pgDatabase();
    const config = loadConfig({ ...SERVER_ENV, DATABASE_URL: db.url, REDIS_URL: REDIS });
    // both listen on loopback only
    const host = process.env.HOST;
    process.env.HOST = '127.0.0.1';
    try {
      here = await startServer({ config, root: ROOT, plugins: servicePlugins(channel), seed: false });
    } finally {
      if (host === undefined) delete process.env.HOST;
      else process.env.HOST = host;
    }
    child = fork(join(ROOT, 'tests', 'broadcast', 'server-process.ts'), [db.url, REDIS, channel], { execArgv: ['--import', 'tsx'], env: { ...process.env, HOST: '127.0.0.1' }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    there = await new Promise<string>((resolve, reject) => {
      child.once('error', reject);
      child.once('message', (m: { url: string }) => resolve(m.url));
    });
  }, 120_000);
  afterAll(async () => {
    for (const s of streams) await s.close();
    if (child?.connected) {
      child.send({ exit: true });
      await new Promise((r) => child.once('exit', r));
    }
    await here?.close();
    await db?.drop();
  });

  it('a write through one process reaches the listeners of the other; private entities only its admins', async () => {
    const hereUrl = `http://127.0.0.1:${here.port}`;
    const anonymous = await listen(hereUrl);
    const admin = await listen(hereUrl, { 'x-rbac-secret-key': SERVER_ENV.RBAC_SECRET_KEY });
    const otherSide = await listen(there);
    // private first, then public: events keep their order, so once the public one is in, a leak would be too
    const request = await post(there, '/api/crm/requests', { payload: { note: 'private' } });
    const category = await post(there, '/api/blog/categories', { slug: `across-${channel}` });
    const e = await anonymous.waitFor(about('blog', 'categories', category.id));
    expect(e.data).toEqual({ module: 'blog', route: 'categories', operation: 'create', ids: [category.id] });
    await admin.waitFor(about('crm', 'requests', request.id));
    await admin.waitFor(about('blog', 'categories', category.id));
    expect(JSON.stringify(anonymous.events)).not.toContain(request.id);
    // and the other way round
    const article = await post(hereUrl, '/api/blog/articles', { slug: `back-${channel}` });
    await otherSide.waitFor(about('blog', 'articles', article.id));
  });
});
