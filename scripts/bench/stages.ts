/**
 * Where a rendered page's time goes (npm run bench runs it; it prints figures, it is not a test): the demo home page
 * drawn again and again in one process, with no page cache, timed by stage — the page found by its url, its data
 * assembled (and, of that, the time inside SQLite's reads), its document rendered — and as a whole answer through
 * @hono/node-server's listener (envelope, routing, encoding, the written answer; no socket: scripts/bench/inproc.ts). Autocannon's req/s moves by a third between runs on a shared machine; these
 * stage times, taken as medians of rounds in one process, move much less and say which stage a change touched.
 *
 * Needs web/dist (npm run build). Run with `node --import tsx scripts/bench/stages.ts`; prints one JSON line
 * `{ find, assemble, sql, reads, render, answer }`: milliseconds per page (reads: statements per page).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../engine/codegen.js';
import { loadConfig } from '../../runtime/config.js';
import { fastFirst, prepare } from '../../runtime/server.js';
import { mountWeb, type StorefrontRenderer } from '../../runtime/web.js';
import { plugins as all } from '../../plugins/index.js';
import { createHostPlugin, documents } from '../../plugins/host/server/index.js';
import { findBySegments } from '../../plugins/host/server/pages.js';
import { assemble } from '../../plugins/host/server/assemble.js';
import { LearnedReads } from '../../plugins/host/server/reads.js';
import { getRequestListener } from '@hono/node-server';
import { callListener, type Listener } from './inproc.js';

const PAGES = 200;
const ROUNDS = 5;

const plugins = all.map((p) => (p.name === 'host' ? createHostPlugin({ pageCache: false }) : p));
const dir = join(ROOT, '.tmp', `stages-${randomBytes(4).toString('hex')}`);
mkdirSync(dir, { recursive: true });
const secret = randomBytes(24).toString('base64url').slice(0, 32);
const config = loadConfig({ ...process.env, REDIS_URL: '', DATABASE_URL: `file:${join(dir, 'db.sqlite')}`, RBAC_SECRET_KEY: secret, RBAC_JWT_SECRET: `${secret}-jwt`, NODE_ENV: 'production', LOG_LEVEL: 'silent', PORT: '0' });
const app = await prepare({ config, root: ROOT, plugins, seed: true, web: 'built' });
try {
  await mountWeb(app.app, ROOT, 'built', app.ctx.services.storefront as StorefrontRenderer);
  const { renderDocument } = await documents();
  const ctx = app.ctx;
  const database = app.database;
  // SQLite's own time: every read of the assembly goes through readRaw
  const readRaw = database.readRaw!.bind(database);
  let sql = 0;
  let reads = 0;
  database.readRaw = (text, params) => {
    const at = performance.now();
    try {
      return readRaw(text, params);
    } finally {
      sql += performance.now() - at;
      reads++;
    }
  };
  const learned = new LearnedReads();
  const planOf = (entity: Parameters<typeof learned.plan>[1], root: string) => learned.plan(ctx.model, entity, root);
  const times = { find: 0, assemble: 0, render: 0 };
  const stage = async <T>(name: keyof typeof times, run: () => T | Promise<T>): Promise<T> => {
    const at = performance.now();
    const out = await run();
    times[name] += performance.now() - at;
    return out;
  };
  const drawn = async () => {
    const resolved = await stage('find', () => findBySegments(ctx, []));
    if (!resolved) throw new Error('the demo has no home page');
    const { data } = await stage('assemble', () => assemble(ctx, resolved, ctx.model.defaultLanguage, '/', planOf));
    await stage('render', () => renderDocument(data, '', config.publicUrl, (paths) => learned.add(paths)));
  };
  const listener = fastFirst(app.fastReads, getRequestListener(app.answer)) as Listener;
  const answered = async () => {
    const status = await callListener(listener, '/');
    if (status !== 200) throw new Error(`the home page answered ${status}`);
  };
  const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
  // warm: plans learned, code compiled
  for (let i = 0; i < 100; i++) await drawn();
  for (let i = 0; i < 100; i++) await answered();
  const rounds: Record<string, number[]> = { find: [], assemble: [], sql: [], reads: [], render: [], answer: [] };
  for (let r = 0; r < ROUNDS; r++) {
    times.find = times.assemble = times.render = sql = reads = 0;
    for (let i = 0; i < PAGES; i++) await drawn();
    for (const k of ['find', 'assemble', 'render'] as const) rounds[k].push(times[k] / PAGES);
    rounds.sql.push(sql / PAGES);
    rounds.reads.push(reads / PAGES);
    const at = performance.now();
    for (let i = 0; i < PAGES; i++) await answered();
    rounds.answer.push((performance.now() - at) / PAGES);
  }
  console.log(JSON.stringify(Object.fromEntries(Object.entries(rounds).map(([k, v]) => [k, Number(median(v).toFixed(3))]))));
} finally {
  app.shutdown();
  await app.database.close();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
