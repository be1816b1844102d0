import { describe, it, expect, afterEach, vi } from 'vitest';
import { request } from 'node:http';
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../../engine/codegen.js';
import qs from 'qs';
import { DIALECTS, sqliteDatabase, type TestDatabase } from '../helpers/databases.js';
import { execute } from '../helpers/raw.js';
import { fresh, refusesConnections, startServerProcess, type ServerProcess } from '../helpers/process.js';
import { readSse, about } from '../helpers/sse.js';

const KEY = 'processes-secret-key-0123456789';
const JWT = 'processes-jwt-secret-0123456789';
const PRODUCTS = '/api/ecommerce/products';
const system = { 'x-rbac-secret-key': KEY };

const started: ServerProcess[] = [];
const databases: TestDatabase[] = [];
afterEach(async () => {
  for (const s of started.splice(0)) {
    if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
    await s.exited;
  }
  for (const d of databases.splice(0)) await d.drop();
});

async function server(db: TestDatabase, env: Record<string, string> = {}) {
  const s = await startServerProcess({ DATABASE_URL: db.url, RBAC_SECRET_KEY: KEY, RBAC_JWT_SECRET: JWT, AGENT_SCHEDULER: 'off', REDIS_URL: '', ...env });
  started.push(s);
  return s;
}

const product = (slug: string) => ({ adminTitle: slug, slug, title: { en: slug }, type: 'one_off' });

/** the products whose slug contains `part` */
async function slugsContaining(base: string, part: string): Promise<string[]> {
  const q = qs.stringify({ filters: { and: [{ column: 'slug', method: 'like', value: part }] }, limit: 1000 }, { encodeValuesOnly: true });
  const res = await fresh(base, 'GET', `${PRODUCTS}?${q}`);
  expect(res.status).toBe(200);
  return (JSON.parse(res.body).data as { slug: string }[]).map((r) => r.slug);
}

describe('shutdown: SIGTERM drains the requests in flight and exits 0', () => {
  it('a request whose body is still arriving when SIGTERM comes is answered; new connections are refused; event streams end; exit code 0', async () => {
    const db = sqliteDatabase();
    databases.push(db);
    const s = await server(db);
    const slug = `slow-${randomBytes(4).toString('hex')}`;
    const body = JSON.stringify({ data: product(slug) });
    // an event stream stays open as long as the client likes: a shutdown ends it
    const stream = readSse(await fetch(`${s.base}/api/broadcast/events`));
    await stream.waitFor((e) => e.event === 'ready');
    // a slow request: headers first (with Expect: 100-continue, so the server says when it has them), the body
    // only after SIGTERM has closed the listening socket
    const req = request(`${s.base}${PRODUCTS}`, {
      method: 'POST',
      agent: false,
      headers: { ...system, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), expect: '100-continue' },
    });
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      req.on('response', (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, body: text }));
      });
      req.on('error', reject);
    });
    const received = new Promise<void>((resolve) => req.once('continue', resolve));
    req.flushHeaders();
    await received;
    s.child.kill('SIGTERM');
    await refusesConnections(s.port);
    req.end(body);
    const res = await answer;
    expect(res.status).toBe(201);
    expect(JSON.parse(res.body).data.slug).toBe(slug);
    expect(await s.exited).toEqual({ code: 0, signal: null });
    expect(stream.ended).toBe(true);
    // the write is in the database the server closed
    expect(await execute(db, `SELECT slug FROM ecommerce_products WHERE slug = '${slug}'`)).toEqual([{ slug }]);
  }, 120_000);

  it('`npm start` as a container or a supervisor runs it: SIGTERM to npm reaches the server, which drains and exits 0, leaving nothing behind', async () => {
    const db = sqliteDatabase();
    databases.push(db);
    const s = await startServerProcess({ DATABASE_URL: db.url, RBAC_SECRET_KEY: KEY, RBAC_JWT_SECRET: JWT, AGENT_SCHEDULER: 'off', REDIS_URL: '' }, 120_000, { viaNpm: true });
    started.push(s);
    expect((await fresh(s.base, 'GET', '/api/health')).status).toBe(200);
    s.child.kill('SIGTERM');
    expect(await s.exited).toEqual({ code: 0, signal: null });
    // no server left running on its own (npm's shell used to die and leave node serving, orphaned)
    await refusesConnections(s.port);
    expect(s.output()).not.toMatch(/ELIFECYCLE|exit 143/);
  }, 120_000);

  it('under a stream of requests, each on a new connection, every request sent before SIGTERM is answered, none reset', async () => {
    const db = sqliteDatabase();
    databases.push(db);
    const s = await server(db);
    const run = randomBytes(4).toString('hex');
    type Sent = { slug: string; connectedAt?: number; status?: number; error?: string };
    const sent: Sent[] = [];
    const post = (one: Sent) =>
      new Promise<void>((resolve) => {
        const body = JSON.stringify({ data: product(one.slug) });
        const req = request(`${s.base}${PRODUCTS}`, { method: 'POST', agent: false, headers: { ...system, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } });
        req.on('socket', (socket) => socket.once('connect', () => (one.connectedAt = performance.now())));
        req.on('response', (res) => {
          one.status = res.statusCode;
          res.resume();
          res.on('end', () => resolve());
        });
        req.on('error', (e: NodeJS.ErrnoException) => {
          one.error = e.code ?? e.message;
          resolve();
        });
        req.end(body);
      });
    let termAt = Infinity;
    const clients = Array.from({ length: 30 }, async (_, k) => {
      for (let i = 0; performance.now() < termAt + 300; i++) {
        const one: Sent = { slug: `term-${run}-${k}-${i}` };
        sent.push(one);
        await post(one);
        if (one.error) await new Promise((r) => setTimeout(r, 5));
      }
    });
    await new Promise((r) => setTimeout(r, 800));
    termAt = performance.now();
    s.child.kill('SIGTERM');
    await Promise.all(clients);
    expect(await s.exited).toEqual({ code: 0, signal: null });
    // connected 10 ms or more before the signal: answered, whatever the moment (the few connected in the last
    // instants may still have been waiting in the kernel's queue of the closing socket)
    const before = sent.filter((x) => x.connectedAt !== undefined && x.connectedAt < termAt - 10);
    expect(before.length).toBeGreaterThan(20);
    expect(before.filter((x) => x.status !== 201).map((x) => `${x.slug}: ${x.status ?? x.error}`)).toEqual([]);
    // after it, connections are refused, never half served
    expect([...new Set(sent.filter((x) => x.error).map((x) => x.error))].filter((e) => e !== 'ECONNREFUSED' && e !== 'ECONNRESET')).toEqual([]);
    const created = new Set(await slugsOf(db, run));
    for (const x of sent.filter((y) => y.status === 201)) expect(created.has(x.slug), x.slug).toBe(true);
  }, 120_000);

  it('SIGTERM while the workers are still starting stops them all and exits 0, not killed by the signal', async () => {
    const db = sqliteDatabase();
    databases.push(db);
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'start.ts')], {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', WEB: 'off', LOG_LEVEL: 'warn', NODE_ENV: 'test', WORKERS: '2', DATABASE_URL: db.url, RBAC_SECRET_KEY: KEY, RBAC_JWT_SECRET: JWT, AGENT_SCHEDULER: 'off', REDIS_URL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    let out = '';
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    // the first worker listens; the second is starting
    await new Promise<void>((resolve) => child.stdout!.on('data', (d: Buffer) => ((out += d.toString()), /Worker \d+ serving on/.test(out) && resolve())));
    expect(out).not.toContain('worker processes');
    child.kill('SIGTERM');
    expect(await exited, out).toEqual({ code: 0, signal: null });
    expect(out).not.toContain('Could not start');
  }, 120_000);
});

/** the slugs of the products a run made, read from the database itself */
async function slugsOf(db: TestDatabase, run: string): Promise<string[]> {
  return ((await execute(db, `SELECT slug FROM ecommerce_products WHERE slug LIKE 'term-${run}-%'`)) as { slug: string }[]).map((r) => r.slug);
}

describe('WORKERS', () => {
  it('takes digits only: 1e1, 0x2, " 2" and 0 are refused with a clear message and exit code 1', async () => {
    for (const workers of ['1e1', '0x2', ' 2', '0', 'abc']) {
      const db = sqliteDatabase();
      databases.push(db);
      const refused = await server(db, { WORKERS: workers }).then(
        () => undefined,
        (e: Error) => e.message,
      );
      expect(refused, workers).toContain(`WORKERS must be a whole number from 1 to 256, got '${workers}'`);
    }
  }, 120_000);
});

for (const d of DIALECTS) {
  describe(`crashes, on ${d.name}: SIGKILL during a stream of writes loses no acknowledged write and leaves no half bulk`, () => {
    it('kills the server mid-stream, restarts it, and finds every acknowledged create and every acknowledged bulk whole', async () => {
      const db = await d.make();
      databases.push(db);
      const s = await server(db);
      const run = randomBytes(4).toString('hex');
      const BULK = 5;
      const acknowledged: string[] = [];
      const bulks: { prefix: string; acknowledged: boolean }[] = [];
      let n = 0;
      let killed = false;
      const writer = async (w: number) => {
        while (!killed) {
          const i = n++;
          try {
            if (i % 3 === 2) {
              const prefix = `crash-${run}-bulk-${i}-`;
              const entry = { prefix, acknowledged: false };
              bulks.push(entry);
              const res = await fresh(s.base, 'POST', `${PRODUCTS}/bulk`, { headers: system, body: { data: Array.from({ length: BULK }, (_, k) => product(`${prefix}${k}`)) } });
              if (res.status === 201) entry.acknowledged = true;
              else throw new Error(`bulk answered ${res.status}: ${res.body}`);
            } else {
              const slug = `crash-${run}-one-${i}`;
              const res = await fresh(s.base, 'POST', PRODUCTS, { headers: system, body: { data: product(slug) } });
              if (res.status === 201) acknowledged.push(slug);
              else throw new Error(`create answered ${res.status}: ${res.body}`);
            }
          } catch (e) {
            if (!killed) throw new Error(`writer ${w}: ${(e as Error).message}`);
          }
        }
      };
      const writers = Array.from({ length: 6 }, (_, w) => writer(w));
      // kill it once a good number of writes are acknowledged, while the writers keep going
      while (acknowledged.length + bulks.filter((b) => b.acknowledged).length < 40) await new Promise((r) => setTimeout(r, 10));
      killed = true;
      s.child.kill('SIGKILL');
      await s.exited;
      await Promise.all(writers);

      const again = await server(db);
      const present = new Set(await slugsContaining(again.base, `crash-${run}-`));
      const lost = acknowledged.filter((slug) => !present.has(slug));
      expect(lost).toEqual([]);
      for (const b of bulks) {
        const rows = [...present].filter((slug) => slug.startsWith(b.prefix)).length;
        // all or nothing; an acknowledged one is whole
        expect([0, BULK]).toContain(rows);
        if (b.acknowledged) expect(rows).toBe(BULK);
      }
      expect(bulks.some((b) => b.acknowledged)).toBe(true);
      again.child.kill('SIGTERM');
      expect(await again.exited).toEqual({ code: 0, signal: null });
    }, 180_000);
  });
}

const CLUSTERS: { name: string; make: () => Promise<TestDatabase>; redis: string }[] = [
  // no Redis: the workers share events and rate limits through the cluster's primary
  { name: 'one SQLite file (WAL), no Redis', make: async () => sqliteDatabase(), redis: '' },
  ...(process.env.TEST_DATABASE_URL && process.env.REDIS_URL ? [{ name: 'PostgreSQL with Redis', make: () => DIALECTS[1].make(), redis: process.env.REDIS_URL }] : []),
];

for (const cl of CLUSTERS) {
  describe(`several processes: WORKERS=2 on ${cl.name}`, () => {
    it('serves one port with two workers: concurrent creates all acknowledged and there; events, page cache, rate limits and sessions shared; a dead worker replaced', async () => {
      const db = await cl.make();
      databases.push(db);
      // a client address of this run alone (TRUST_PROXY), so that counters in a shared Redis are its own
      const address = `10.${[1, 2, 3].map(() => randomBytes(1)[0]).join('.')}`;
      const s = await server(db, { WORKERS: '2', REDIS_URL: cl.redis, TRUST_PROXY: 'true', WEB: 'built' });
      const pids = [...s.output().matchAll(/Worker (\d+) serving on/g)].map((m) => m[1]);
      expect(new Set(pids).size).toBe(2);
      const from = { 'x-forwarded-for': address };

      // a stream opened on one worker hears of writes made through either
      const controller = new AbortController();
      const events = readSse(await fetch(`${s.base}/api/broadcast/events`, { headers: system, signal: controller.signal }));
      await events.waitFor((e) => e.event === 'ready');

      const run = randomBytes(4).toString('hex');
      const TOTAL = 120;
      const acknowledged: string[] = [];
      const failures: string[] = [];
      let next = 0;
      await Promise.all(
        Array.from({ length: 12 }, async () => {
          while (next < TOTAL) {
            const slug = `workers-${run}-${next++}`;
            const res = await fresh(s.base, 'POST', PRODUCTS, { headers: system, body: { data: product(slug) } });
            if (res.status === 201) acknowledged.push(JSON.parse(res.body).data.id);
            else failures.push(`${res.status} ${res.body}`);
          }
        }),
      );
      expect(failures).toEqual([]);
      expect(acknowledged).toHaveLength(TOTAL);
      const rows = await execute(db, `SELECT id FROM ecommerce_products WHERE slug LIKE 'workers-${run}-%'`);
      expect(new Set(rows.map((r) => String(r.id)))).toEqual(new Set(acknowledged));
      for (const id of acknowledged) await events.waitFor(about('ecommerce', 'products', id));
      controller.abort();
      await events.close();

      // each worker caches the home page; a change made through one drops it in both
      const home = async () => (await fresh(s.base, 'GET', '/')).body;
      for (let i = 0; i < 4; i++) expect(await home()).toContain('<!doctype html>');
      const articles = JSON.parse((await fresh(s.base, 'GET', '/api/blog/articles?limit=100')).body).data as { id: string; title: Record<string, string> }[];
      const first = await home();
      const shown = articles.find((a) => a.title?.en && first.includes(a.title.en))!;
      expect(shown).toBeDefined();
      const renamed = `Renamed across workers ${run}`;
      const patched = await fresh(s.base, 'PATCH', `/api/blog/articles/${shown.id}`, { headers: system, body: { data: { title: { ...shown.title, en: renamed } } } });
      expect(patched.status).toBe(200);
      for (let i = 0; i < 4; i++) await vi.waitFor(async () => expect(await home()).toContain(renamed), { timeout: 10_000, interval: 50 });

      // a session made through one worker is good on every one (each request on a connection of its own)
      const registered = await fresh(s.base, 'POST', '/api/rbac/subjects/authentication/email-and-password/registration', { headers: from, body: { data: { login: `w-${run}@example.com`, password: 'password123' } } });
      expect(registered.status).toBe(201);
      const jwt = JSON.parse(registered.body).data.jwt as string;
      for (let i = 0; i < 6; i++) expect((await fresh(s.base, 'GET', '/api/rbac/subjects/authentication/me', { headers: { authorization: `Bearer ${jwt}` } })).status).toBe(200);

      // one per-address limit across both workers: revalidation allows 10 a minute
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) statuses.push((await fresh(s.base, 'GET', '/api/revalidation/revalidate?path=/', { headers: from })).status);
      expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
      expect(statuses[10]).toBe(429);

      // a worker that dies is replaced; the port keeps serving meanwhile
      process.kill(Number(pids[0]), 'SIGKILL');
      await vi.waitFor(() => expect([...s.output().matchAll(/Worker (\d+) serving on/g)]).toHaveLength(3), { timeout: 60_000, interval: 50 });
      for (let i = 0; i < 4; i++) expect((await fresh(s.base, 'GET', '/api/health')).status).toBe(200);

      s.child.kill('SIGTERM');
      expect(await s.exited).toEqual({ code: 0, signal: null });
    }, 180_000);
  });
}
