/**
 * A server under benchmark, run in a child process of scripts/bench.ts so that autocannon and the
 * server do not share one event loop. Started with fork(); BENCH_SERVER picks the kind:
 *
 * - `app`: the real server (startServer) on DATABASE_URL, plugins from plugins/index.ts, no seed;
 * - `bare`: a minimal Hono app answering GET /api/ecommerce/products/:id from the SQLite file at
 *   BENCH_SQLITE_PATH with one better-sqlite3 prepared statement, opened read-only.
 *
 * Sends `{ port }` to the parent when listening; closes and exits on the message 'close' or
 * when the parent goes away.
 */
import { join } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import BetterSqlite3 from 'better-sqlite3';
import { ROOT } from '../../engine/codegen.js';
import { loadConfig } from '../../runtime/config.js';
import { loadGenerated } from '../../runtime/generated.js';
import { startServer } from '../../runtime/server.js';
import { plugins } from '../../plugins/index.js';

const PRODUCT = 'ecommerce/product';

export type ServerMessage = { port: number } | { error: string };

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
  return running.port;
}

/** the columns Repository.get selects (every non-secret field), under the same names */
async function productColumns(): Promise<string> {
  const generated = await loadGenerated(join(ROOT, 'generated'));
  const entity = generated.model.byId[PRODUCT];
  const table = generated.tables.sqlite[PRODUCT];
  return entity.fields
    .filter((f) => !f.secret)
    .map((f) => `"${table[f.name].name as string}" AS "${f.name}"`)
    .join(', ');
}

async function startBare(): Promise<number> {
  const path = process.env.BENCH_SQLITE_PATH;
  if (!path) throw new Error('BENCH_SQLITE_PATH is required');
  const db = new BetterSqlite3(path, { readonly: true, fileMustExist: true });
  const byId = db.prepare(`SELECT ${await productColumns()} FROM ecommerce_products WHERE id = ?`);
  const app = new Hono();
  app.get('/api/ecommerce/products/:id', (c) => {
    const row = byId.get(c.req.param('id'));
    return row ? c.json({ data: row }) : c.json({ message: 'Not found', status: 404 }, 404);
  });
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  close = async () => {
    await new Promise<void>((r) => server.close(() => r()));
    db.close();
  };
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('the bare server has no port');
  return address.port;
}

process.on('message', (m) => {
  if (m === 'close') shutdown(0);
});
process.on('disconnect', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));
process.on('SIGINT', () => shutdown(0));

try {
  const port = process.env.BENCH_SERVER === 'bare' ? await startBare() : await startApp();
  process.send?.({ port } satisfies ServerMessage);
} catch (e) {
  process.send?.({ error: (e as Error).stack ?? String(e) } satisfies ServerMessage);
  shutdown(1);
}
