/**
 * Bytes allocated per request, ours against the bare handler (npm run bench runs it; it prints figures, it is not a
 * test). CPU figures on a shared machine move by a third between runs; the memory a request allocates does not, so
 * two runs of this compare a change to the request path within a few per cent.
 *
 * In one process, on a fresh SQLite file under .tmp/: the real app (`prepare`, every plugin) and the bare yardstick
 * (scripts/bench/bare.ts), each behind @hono/node-server's own request listener, fed Node
 * IncomingMessage / ServerResponse pairs without a socket (so the kernel and the network are left out, and
 * everything from the parsed request to the written head and body is counted). Each figure: the heap grown over
 * 500 requests between two forced collections, with a young generation large enough that nothing is collected in
 * between; the median of five.
 *
 * Run with `node --expose-gc --max-semi-space-size=256 --import tsx scripts/bench/alloc.ts`; prints one JSON line
 * `{ "get by id": { ours, bare }, "list 20 (filtered)": { ours, bare } }` in bytes.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { ROOT } from '../../engine/codegen.js';
import { loadConfig } from '../../runtime/config.js';
import { fastFirst, prepare } from '../../runtime/server.js';
import { plugins } from '../../plugins/index.js';
import { bareApp } from './bare.js';
import { callListener, type Listener } from './inproc.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const PRODUCTS = '/api/ecommerce/products';
const LIST = `${PRODUCTS}?filters[and][0][column]=type&filters[and][0][method]=eq&filters[and][0][value]=subscription&limit=20`;
const REQUESTS = 500;

const dir = join(ROOT, '.tmp', `alloc-${randomBytes(4).toString('hex')}`);
mkdirSync(dir, { recursive: true });
const file = join(dir, 'db.sqlite');
const secret = randomBytes(24).toString('base64url').slice(0, 32);
// no REDIS_URL: the figure is the request path's own, on the embedded database
const config = loadConfig({ ...process.env, REDIS_URL: '', DATABASE_URL: `file:${file}`, RBAC_SECRET_KEY: secret, RBAC_JWT_SECRET: `${secret}-jwt`, NODE_ENV: 'production', LOG_LEVEL: 'silent', PORT: '0' });
const app = await prepare({ config, root: ROOT, plugins, seed: false, web: 'off' });
let bare: Awaited<ReturnType<typeof bareApp>> | undefined;
try {
  const ids: string[] = [];
  for (let chunk = 0; chunk < 2; chunk++) {
    const data = Array.from({ length: 1000 }, (_, k) => {
      const i = chunk * 1000 + k;
      return { adminTitle: `Product ${i}`, slug: `product-${i}`, title: { en: `Product ${i}` }, shortDescription: { en: `Short ${i}` }, description: { en: `<p>Product ${i}.</p>` }, type: i % 2 ? 'one_off' : 'subscription' };
    });
    const res = await app.app.request(`${PRODUCTS}/bulk`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-rbac-secret-key': secret }, body: JSON.stringify({ data }) });
    if (res.status !== 201) throw new Error(`POST /bulk answered ${res.status}`);
    for (const row of ((await res.json()) as { data: { id: string }[] }).data) ids.push(row.id);
  }

  // the bare yardstick of scripts/bench/server.ts, on the same file
  bare = await bareApp(file);

  const call = callListener;

  async function allocated(listener: Listener, pathOf: (i: number) => string): Promise<number> {
    for (let i = 0; i < 2000; i++) await call(listener, pathOf(i));
    const each: number[] = [];
    for (let round = 0; round < 5; round++) {
      gc!();
      const before = process.memoryUsage().heapUsed;
      for (let i = 0; i < REQUESTS; i++) {
        const status = await call(listener, pathOf(i));
        if (status !== 200) throw new Error(`${pathOf(i)} answered ${status}`);
      }
      each.push((process.memoryUsage().heapUsed - before) / REQUESTS);
    }
    return Math.round(each.sort((a, b) => a - b)[2]);
  }

  // ours as the server listens: the fast lane in front of the app (runtime/server.ts)
  const listeners = { ours: fastFirst(app.fastReads, getRequestListener(app.answer)) as Listener, bare: getRequestListener(bare.app.fetch) };
  const byIdPath = (i: number) => `${PRODUCTS}/${ids[(i * 7) % ids.length]}`;
  const result: Record<string, { ours: number; bare: number }> = {};
  for (const [operation, pathOf] of [['get by id', byIdPath], ['list 20 (filtered)', () => LIST]] as const) {
    result[operation] = { ours: await allocated(listeners.ours, pathOf), bare: await allocated(listeners.bare, pathOf) };
  }
  console.log(JSON.stringify(result));
} finally {
  app.shutdown();
  await app.database.close();
  bare?.close();
  rmSync(dir, { recursive: true, force: true });
}
// the plugins' timers and buses (Redis when REDIS_URL is set) would keep the process up
process.exit(0);
