/**
 * A server under benchmark, run in a child process of scripts/bench.ts so that autocannon and the
 * server do not share one event loop. Started with fork(); BENCH_SERVER picks the kind:
 *
 * - `app`: the real server (startServer) on DATABASE_URL, plugins from plugins/index.ts, no seed;
 * - `bare`: the bare yardstick (scripts/bench/bare.ts) on the SQLite file at BENCH_SQLITE_PATH.
 *
 * With BENCH_WORKERS=N (app only), this process is a node:cluster primary (as `WORKERS=N npm start`) and N workers
 * serve one port; it answers `{ port }` once every worker listens.
 *
 * Sends `{ port }` to the parent when listening; closes and exits on the message 'close' or
 * when the parent goes away.
 */
import cluster from 'node:cluster';
import { relayBetweenWorkers } from '../../runtime/cluster.js';
import { serve, type ServerType } from '@hono/node-server';
import { ROOT } from '../../engine/codegen.js';
import { loadConfig } from '../../runtime/config.js';
import { startServer } from '../../runtime/server.js';
import { plugins as all } from '../../plugins/index.js';
import { createHostPlugin } from '../../plugins/host/server/index.js';
import { bareApp } from './bare.js';

// BENCH_PAGE_CACHE=off: every page is rendered (the page cache serves every visitor, so nothing else skips it)
const plugins = process.env.BENCH_PAGE_CACHE === 'off' ? all.map((p) => (p.name === 'host' ? createHostPlugin({ pageCache: false }) : p)) : all;

export type ServerMessage = { port: number } | { error: string } | { queries: number };

let closing = false;
let close: () => Promise<void> = async () => undefined;

function shutdown(code = 0) {
  if (closing) return;
  closing = true;
  close()
    .catch(() => undefined)
    .finally(() => process.exit(code));
}

async function startApp(): Promise<number> {
  // the parent sets DATABASE_URL and random secrets (RBAC_SECRET_KEY, RBAC_JWT_SECRET) in our environment
  const config = loadConfig({ ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'silent', PORT: '0' });
  // BENCH_PAGES: the demo site with the built web apps, for the page benchmarks
  const pages = process.env.BENCH_PAGES === '1';
  const running = await startServer({ config, root: ROOT, plugins, seed: pages, web: pages ? 'built' : 'off' });
  close = () => running.close();
  // the parent asks how many queries the database has run (before and after a page: the page's query count)
  process.on('message', (m) => {
    if (m === 'queries') process.send?.({ queries: running.database.queries });
  });
  return running.port;
}

async function startBare(): Promise<number> {
  const path = process.env.BENCH_SQLITE_PATH;
  if (!path) throw new Error('BENCH_SQLITE_PATH is required');
  // BENCH_STATIC_FILE: those bytes as a static HTML file, the yardstick of a cached page
  const bare = await bareApp(path, process.env.BENCH_STATIC_FILE);
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: bare.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  close = async () => {
    await new Promise<void>((r) => server.close(() => r()));
    bare.close();
  };
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('the bare server has no port');
  return address.port;
}

/** the primary of BENCH_WORKERS=N: the workers one after the other (the first migrates), one port */
async function startWorkers(count: number): Promise<number> {
  relayBetweenWorkers();
  close = async () => {
    const workers = Object.values(cluster.workers ?? {}).filter((w) => !!w);
    await Promise.all(workers.map((w) => new Promise((r) => (w!.once('exit', r), w!.process.kill('SIGTERM')))));
  };
  let port = 0;
  for (let i = 0; i < count; i++) {
    const worker = cluster.fork();
    port = await new Promise<number>((resolve, reject) => {
      // other messages (the shared rate limits' own) go by
      worker.on('message', (m: ServerMessage) => {
        if (m && typeof m === 'object' && 'port' in m) resolve(m.port);
        else if (m && typeof m === 'object' && 'error' in m) reject(new Error(m.error));
      });
      worker.once('exit', (code) => reject(new Error(`a worker exited with code ${code} before listening`)));
    });
  }
  return port;
}

if (cluster.isWorker) {
  // a worker of BENCH_WORKERS=N: stops on SIGTERM from the primary
  process.on('SIGTERM', () => shutdown(0));
} else {
  process.on('message', (m) => {
    if (m === 'close') shutdown(0);
  });
  process.on('disconnect', () => shutdown(0));
  process.on('SIGTERM', () => shutdown(0));
  process.on('SIGINT', () => shutdown(0));
}

try {
  const workers = Number(process.env.BENCH_WORKERS ?? 1);
  const port = process.env.BENCH_SERVER === 'bare' ? await startBare() : workers > 1 && cluster.isPrimary ? await startWorkers(workers) : await startApp();
  process.send?.({ port } satisfies ServerMessage);
} catch (e) {
  process.send?.({ error: (e as Error).stack ?? String(e) } satisfies ServerMessage);
  shutdown(1);
}
