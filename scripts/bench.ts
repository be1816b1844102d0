/**
 * HTTP benchmark of the generic API (npm run bench). Prints figures; it is not a test.
 *
 * For SQLite (a fresh file under .tmp/bench-<random>/) and PostgreSQL (a fresh database on the
 * server BENCH_DATABASE_URL or TEST_DATABASE_URL names, when one is set): starts the real server
 * (scripts/bench/server.ts, a child process, so that autocannon does not share its event loop) on
 * 127.0.0.1, inserts 10,000 products through POST /bulk, and runs autocannon against list
 * (filtered, limit 20), get by id (rotating over 500 known ids) and create. On SQLite, get by id
 * also runs against a bare Hono + better-sqlite3 app on the same file, alternating with ours for
 * RATIO_ROUNDS rounds; the ours / bare ratio is printed against the goal of 0.75. The filtered list
 * likewise runs against a bare handler with the same list SQL (goal 0.6); both ratios go to the JSON.
 *
 * The demo home page: from the page cache, against a static file of its bytes; rendered each time, by one process and
 * by two on one port (as `WORKERS=2 npm start`), each printed against the aim of 400 a second.
 *
 * On PostgreSQL, list and get by id run against one server process and against two on one port (BENCH_WORKERS=2,
 * node:cluster, as `WORKERS=2 npm start`), on the same rows in alternating rounds, and the ratio to one process is printed.
 *
 * The bytes each request allocates, ours and bare, come from scripts/bench/alloc.ts (in process, no network): a figure
 * that two runs on a busy machine agree on, where req/s do not. Where a rendered page's time goes (found, assembled,
 * SQLite, rendered, the whole answer) comes from scripts/bench/stages.ts, also in process.
 *
 * What an anonymous request costs the server, route by route (scripts/bench/anonymous.ts): server CPU per request in
 * µs of a cached page, a 404 page, /api/host/pages/rows, /api/openapi.json, an OpenGraph image and the sitemap.
 *
 * BENCH_SECONDS (default 5) sets each run's duration (each run follows a 1 s warm-up), BENCH_ROUNDS (default 4) the alternating rounds of a ratio; BENCH_ONLY=sqlite,pages,postgres,alloc,stages,anonymous
 * runs only the parts it names. Figures go
 * to stdout and to .tmp/bench-results.json. Everything made is removed at the end, on failure too.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { get as httpGet } from 'node:http';
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { ROOT } from '../engine/codegen.js';
import type { ServerMessage } from './bench/server.js';
import { cpuBetween, cpuNow, perRequest, type CpuShare } from './bench/cpu.js';
import { benchAnonymous, type AnonymousFigure } from './bench/anonymous.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const WARMUP_SECONDS = 1;
const CONNECTIONS = 10;
const ROWS = 10_000;
const CHUNK = 1_000;
const ID_SAMPLE = 500;
const GOAL = 0.75;
const PRODUCTS = '/api/ecommerce/products';
const LIST_PATH = `${PRODUCTS}?filters[and][0][column]=type&filters[and][0][method]=eq&filters[and][0][value]=subscription&limit=20`;
const SERVER_SCRIPT = join(ROOT, 'scripts', 'bench', 'server.ts');

if (!Number.isFinite(SECONDS) || SECONDS <= 0 || SECONDS > 60) {
  console.error(`BENCH_SECONDS must be a number of seconds above 0 and at most 60, got '${process.env.BENCH_SECONDS}'`);
  process.exit(1);
}

const runId = randomBytes(4).toString('hex');
const secret = randomBytes(24).toString('base64url').slice(0, 32);
const jwtSecret = randomBytes(24).toString('base64url').slice(0, 32);
/**
 * ours and bare (or one process and two) run alternately this many times each (BENCH_ROUNDS, default 4), and a ratio is
 * the median of the per-round ratios: this machine's speed moves by half within a minute (other guests of its host),
 * which a mean of two rounds carried straight into the figure
 */
const RATIO_ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
/** the median of some ratios (the mean of the middle two of an even count) */
const median = (xs: number[]) => {
  const v = [...xs].sort((a, b) => a - b);
  const m = Math.floor(v.length / 2);
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
};

interface Figure {
  database: string;
  operation: string;
  requestsPerSecond: number;
  p99Ms: number;
  averageMs: number;
  requests: number;
  non2xx: number;
  errors: number;
  /** req/s of each round when the figure is a mean of several */
  rounds?: number[];
}
const figures: Figure[] = [];
const cleanups: { name: string; run: () => Promise<void> | void }[] = [];
const log = (msg: string) => console.log(`[bench] ${msg}`);

/* ---------------------------------------------------------------- servers */

interface Child {
  base: string;
  pid: number;
  close(): Promise<void>;
  /** the queries the server's database has run so far (an app server only) */
  queries(): Promise<number>;
}

/** forks scripts/bench/server.ts and waits for its port; it is closed by the cleanups if not before */
async function startChild(name: string, env: Record<string, string>): Promise<Child> {
  const child: ChildProcess = fork(SERVER_SCRIPT, [], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let exited = child.exitCode !== null;
  const exit = new Promise<void>((resolve) => child.once('exit', () => ((exited = true), resolve())));
  const close = async () => {
    if (exited) return;
    if (child.connected) child.send('close');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exit;
    clearTimeout(timer);
  };
  cleanups.push({ name: `server ${name}`, run: close });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name}: no port after 60 s`)), 60_000);
    child.once('message', (m: ServerMessage) => {
      clearTimeout(timer);
      if ('port' in m) resolve(m.port);
      else if ('error' in m) reject(new Error(`${name} did not start:\n${m.error}`));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with code ${code} before listening`));
    });
  });
  const queries = () =>
    new Promise<number>((resolve) => {
      const on = (m: ServerMessage) => {
        if (m && typeof m === 'object' && 'queries' in m) {
          child.off('message', on);
          resolve(m.queries);
        }
      };
      child.on('message', on);
      child.send('queries');
    });
  return { base: `http://127.0.0.1:${port}`, pid: child.pid!, close, queries };
}

/* ------------------------------------------------------------------- data */

const writeHeaders = { 'content-type': 'application/json', 'x-rbac-secret-key': secret };

async function call(base: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(base + path, { method, headers: body === undefined ? {} : writeHeaders, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let json: unknown = text;
  try {
    json = JSON.parse(text);
  } catch {
    // left as text
  }
  return { status: res.status, json };
}

function product(i: number) {
  return {
    adminTitle: `Bench product ${i}`,
    slug: `bench-${runId}-${i}`,
    title: { en: `Product ${i}` },
    shortDescription: { en: `Short description of product ${i}` },
    description: { en: `<p>A longer description of product ${i}, enough text to look like a real row.</p>` },
    type: i % 2 === 0 ? 'subscription' : 'one_off',
  };
}

/** 10,000 products through POST /bulk in chunks of 1,000; returns a spread sample of their ids */
async function insertProducts(base: string): Promise<string[]> {
  const started = performance.now();
  const ids: string[] = [];
  for (let from = 0; from < ROWS; from += CHUNK) {
    const data = Array.from({ length: Math.min(CHUNK, ROWS - from) }, (_, k) => product(from + k));
    const res = await call(base, 'POST', `${PRODUCTS}/bulk`, { data });
    if (res.status !== 201) throw new Error(`POST /bulk answered ${res.status}: ${JSON.stringify(res.json).slice(0, 500)}`);
    for (const row of res.json.data as { id: string }[]) ids.push(row.id);
  }
  log(`inserted ${ids.length} products in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const step = Math.max(1, Math.floor(ids.length / ID_SAMPLE));
  return ids.filter((_, i) => i % step === 0).slice(0, ID_SAMPLE);
}

/* -------------------------------------------------------------- autocannon */

/** the requests a run cycles through (each connection in turn) */
type Scenario = () => autocannon.Request | autocannon.Request[];

/**
 * Gets by id rotating over the sample, as requests written out once: autocannon builds the bytes of a request without
 * a `setupRequest` once, and one with it again for every request sent (its CPU a get went from 108 to 71 µs here), which
 * took from the server's share of the machine's two cores and counted against the processes' ratio.
 */
function getById(ids: string[]): Scenario {
  return () => ids.map((id) => ({ method: 'GET' as const, path: `${PRODUCTS}/${id}` }));
}

const listFiltered: Scenario = () => ({ method: 'GET', path: LIST_PATH });

let created = 0;
const create: Scenario = () => ({
  method: 'POST',
  path: PRODUCTS,
  headers: writeHeaders,
  setupRequest: (req) => {
    const n = ++created;
    return { ...req, body: JSON.stringify({ data: { adminTitle: `Created ${n}`, slug: `created-${runId}-${n}`, title: { en: `Created ${n}` }, type: 'one_off' } }) };
  },
});

async function cannon(base: string, scenario: Scenario, seconds: number): Promise<autocannon.Result> {
  const requests = scenario();
  return autocannon({ url: base, connections: CONNECTIONS, duration: seconds, requests: Array.isArray(requests) ? requests : [requests] });
}

async function measure(database: string, operation: string, base: string, scenario: Scenario, record = true): Promise<Figure> {
  await cannon(base, scenario, WARMUP_SECONDS);
  const r = await cannon(base, scenario, SECONDS);
  const figure: Figure = {
    database,
    operation,
    requestsPerSecond: Math.round(r.requests.average),
    p99Ms: r.latency.p99,
    averageMs: Number(r.latency.average.toFixed(2)),
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors,
  };
  if (record) figures.push(figure);
  log(`${database.padEnd(10)} ${operation.padEnd(22)} ${String(figure.requestsPerSecond).padStart(7)} req/s  p99 ${figure.p99Ms} ms  non-2xx ${figure.non2xx}  errors ${figure.errors}`);
  if (figure.non2xx || figure.errors) console.warn(`[bench] WARNING: ${database} ${operation}: ${figure.non2xx} non-2xx responses, ${figure.errors} errors`);
  return figure;
}

/** the rounds of one operation as one figure: mean req/s, worst p99, summed counts */
function combine(rounds: Figure[]): Figure {
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return {
    ...rounds[0],
    requestsPerSecond: Math.round(mean(rounds.map((r) => r.requestsPerSecond))),
    p99Ms: Math.max(...rounds.map((r) => r.p99Ms)),
    averageMs: Number(mean(rounds.map((r) => r.averageMs)).toFixed(2)),
    requests: rounds.reduce((a, r) => a + r.requests, 0),
    non2xx: rounds.reduce((a, r) => a + r.non2xx, 0),
    errors: rounds.reduce((a, r) => a + r.errors, 0),
    rounds: rounds.map((r) => r.requestsPerSecond),
  };
}

/** the list ratio: the same list SQL on a bare handler, alternating rounds with ours like get by id */
const LIST_GOAL = 0.6;
async function listRatio(database: string, ours: string, bare: string) {
  const theirs = (await call(bare, 'GET', LIST_PATH)).json?.data as { type: string }[] | undefined;
  if (theirs?.length !== 20 || theirs.some((r) => r.type !== 'subscription')) throw new Error(`the bare list answered ${JSON.stringify(theirs).slice(0, 300)}`);
  const rounds: Figure[][] = [[], []];
  for (let i = 0; i < RATIO_ROUNDS; i++) {
    rounds[0].push(await measure(database, 'list 20 (filtered)', ours, listFiltered, false));
    rounds[1].push(await measure('bare', 'list 20 (filtered)', bare, listFiltered, false));
  }
  figures.push(combine(rounds[0]), combine(rounds[1]));
}

/** ours / bare for an operation measured in alternating rounds: the median of the per-round ratios */
function ratioOf(operation: string, goal: number) {
  const ours = figures.find((f) => f.database === 'sqlite' && f.operation === operation);
  const bare = figures.find((f) => f.database === 'bare' && f.operation === operation);
  if (!ours?.rounds || !bare?.rounds) return undefined;
  const roundRatios = ours.rounds.map((o, i) => o / bare.rounds![i]).filter(Number.isFinite);
  if (!roundRatios.length) return undefined;
  const ratio = median(roundRatios);
  const each = ours.rounds.map((o, i) => `${o} / ${bare.rounds![i]} = ${roundRatios[i].toFixed(2)}`).join('; ');
  console.log(`\n${operation}, ours / bare (SQLite): ${ratio.toFixed(2)} (median of ${roundRatios.length} alternating rounds: ${each})`);
  console.log(`goal ≥ ${goal}: ${ratio >= goal ? 'met' : 'NOT met'}`);
  return { ours: ours.requestsPerSecond, bare: bare.requestsPerSecond, roundRatios: roundRatios.map((r) => Number(r.toFixed(3))), ratio: Number(ratio.toFixed(3)), goal, met: ratio >= goal };
}

/** one request of each kind, so that a broken setup fails loudly instead of benchmarking 4xx answers */
async function check(base: string, ids: string[]) {
  const got = await call(base, 'GET', `${PRODUCTS}/${ids[0]}`);
  if (got.status !== 200 || got.json?.data?.id !== ids[0]) throw new Error(`GET by id answered ${got.status}: ${JSON.stringify(got.json).slice(0, 300)}`);
  const list = await call(base, 'GET', LIST_PATH);
  const rows = list.json?.data as { type: string }[] | undefined;
  if (list.status !== 200 || rows?.length !== 20 || rows.some((r) => r.type !== 'subscription')) {
    throw new Error(`the filtered list answered ${list.status}: ${JSON.stringify(list.json).slice(0, 300)}`);
  }
  return got.json;
}

/* ------------------------------------------------------------------- runs */

async function benchDatabase(database: string, url: string, sqlitePath?: string) {
  log(`${database}: starting the server`);
  const app = await startChild(`${database} app`, { DATABASE_URL: url, RBAC_SECRET_KEY: secret, RBAC_JWT_SECRET: jwtSecret });
  const ids = await insertProducts(app.base);
  // PostgreSQL plans by its statistics, which autovacuum gathers within a minute of a bulk load; gathered here at once,
  // so that the lists run on the plan a live database would have (a seq scan and sort otherwise, on rows=36 guesses)
  if (database === 'postgres') await analyze(url);
  const ours = await check(app.base, ids);

  if (sqlitePath) {
    // the bare baseline reads the same file while the app holds it, as the app's own reader does
    const bare = await startChild('bare', { BENCH_SERVER: 'bare', BENCH_SQLITE_PATH: sqlitePath });
    const theirs = (await call(bare.base, 'GET', `${PRODUCTS}/${ids[0]}`)).json;
    if (theirs?.data?.id !== ids[0]) throw new Error(`the bare server answered ${JSON.stringify(theirs).slice(0, 300)}`);
    if (JSON.stringify(theirs) !== JSON.stringify(ours)) {
      log('note: the bare body is not byte-identical to ours (raw columns: JSON as text, dates as epoch ms)');
    }
    const rounds: Figure[][] = [[], []];
    for (let i = 0; i < RATIO_ROUNDS; i++) {
      rounds[0].push(await measure(database, 'get by id', app.base, getById(ids), false));
      rounds[1].push(await measure('bare', 'get by id', bare.base, getById(ids), false));
    }
    figures.push(combine(rounds[0]), combine(rounds[1]));
    await listRatio(database, app.base, bare.base);
    await bare.close();
  } else {
    // one and two processes on the same rows, before the creates add any: alternating rounds, like ours and bare
    await benchProcesses(database, url, ids, app);
  }
  await measure(database, 'create', app.base, create);
  await app.close();
}

const TWO = ' (2 processes)';
/** the aim of a rendered (uncached) home page, in requests a second */
const RENDERED_GOAL = 400;
/**
 * List and get by id with one server process (`one`, already running) and with two on one port (node:cluster), on
 * the same rows: RATIO_ROUNDS rounds each, one and two back to back, so that drift on a busy machine touches both.
 */
async function benchProcesses(database: string, url: string, ids: string[], one: Child) {
  log(`${database}: starting two server processes (BENCH_WORKERS=2)`);
  const two = await startChild(`${database} 2 workers`, { DATABASE_URL: url, RBAC_SECRET_KEY: secret, RBAC_JWT_SECRET: jwtSecret, BENCH_WORKERS: '2' });
  await check(two.base, ids);
  for (const [operation, scenario] of [['list 20 (filtered)', listFiltered], ['get by id', getById(ids)]] as const) {
    const rounds: Figure[][] = [[], []];
    for (let i = 0; i < RATIO_ROUNDS; i++) {
      for (const [k, child] of [[0, one], [1, two]] as const) {
        const before = cpuNow(child.pid);
        const figure = await measure(database, `${operation}${k ? TWO : ''}`, child.base, scenario, false);
        rounds[k].push(figure);
        const after = before && cpuNow(child.pid);
        if (after) cpuShares.push({ operation: `${database} ${operation}`, processes: k + 1, requestsPerSecond: figure.requestsPerSecond, ...cpuBetween(before, after) });
      }
    }
    figures.push(combine(rounds[0]), combine(rounds[1]));
  }
  await two.close();
}

const cpuShares: CpuShare[] = [];

/** req/s with two processes over req/s with one, per operation measured both ways: the median of the per-round ratios */
function processRatios(): { operation: string; one: number; two: number; roundRatios: number[]; ratio: number }[] {
  return figures
    // the aim of 1.5× is PostgreSQL's list and get; the rendered page's two processes are read against 400 a second
    .filter((f) => f.operation.endsWith(TWO) && f.database === 'postgres')
    .flatMap((two) => {
      const operation = two.operation.slice(0, -TWO.length);
      const one = figures.find((f) => f.database === two.database && f.operation === operation);
      if (!one) return [];
      const roundRatios = one.rounds && two.rounds ? two.rounds.map((t, i) => t / one.rounds![i]) : [two.requestsPerSecond / one.requestsPerSecond];
      const ratio = median(roundRatios);
      return [{ operation: `${two.database} ${operation}`, one: one.requestsPerSecond, two: two.requestsPerSecond, roundRatios: roundRatios.map((r) => Number(r.toFixed(2))), ratio: Number(ratio.toFixed(2)) }];
    });
}

/** ANALYZE: the planner's statistics of a freshly loaded database */
async function analyze(url: string) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query('ANALYZE');
  } finally {
    await c.end();
  }
}

async function createPgDatabase(adminUrl: string): Promise<string> {
  const name = `mp_bench_${runId}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  cleanups.push({
    name: `database ${name}`,
    run: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  });
  const url = new URL(adminUrl);
  url.pathname = '/' + name;
  return url.toString();
}

/* ----------------------------------------------------------------- report */

function table(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => (i >= 2 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join(' | ');
  return [line(rows[0]), widths.map((w) => '-'.repeat(w)).join('-|-'), ...rows.slice(1).map(line)].join('\n');
}

function report() {
  const ours = figures.find((f) => f.database === 'sqlite' && f.operation === 'get by id');
  const bare = figures.find((f) => f.database === 'bare' && f.operation === 'get by id');
  // each round runs ours then bare back to back: the median of the per-round ratios cancels most machine drift
  const roundRatios = ours?.rounds && bare?.rounds ? ours.rounds.map((o, i) => o / bare.rounds![i]).filter(Number.isFinite) : [];
  const ratio = roundRatios.length ? median(roundRatios) : undefined;
  console.log(`\nBenchmark: ${CONNECTIONS} connections, ${SECONDS} s per run (after ${WARMUP_SECONDS} s warm-up), ${ROWS} products, Node ${process.version}\n`);
  if (!figures.length) console.log('(no figures)');
  else {
    console.log(
      table([
        ['database', 'operation', 'req/s', 'p99 ms', 'avg ms', 'non-2xx', 'errors'],
        ...figures.map((f) => [f.database, f.operation, String(f.requestsPerSecond), String(f.p99Ms), f.averageMs.toFixed(2), String(f.non2xx), String(f.errors)]),
      ]),
    );
  }
  if (ratio !== undefined) {
    const each = ours!.rounds!.map((o, i) => `${o} / ${bare!.rounds![i]} = ${roundRatios[i].toFixed(2)}`).join('; ');
    console.log(`\nget by id, ours / bare (SQLite): ${ratio.toFixed(2)} (median of ${roundRatios.length} alternating rounds: ${each})`);
    console.log(`goal ≥ ${GOAL}: ${ratio >= GOAL ? 'met' : 'NOT met'}`);
  }
  for (const [k, v] of Object.entries(pageFacts)) console.log(`${k}: ${v}`);
  for (const f of figures.filter((x) => x.operation.startsWith('page / (rendered)'))) {
    console.log(`${f.operation}: ${f.requestsPerSecond} req/s; aim ≥ ${RENDERED_GOAL}: ${f.requestsPerSecond >= RENDERED_GOAL ? 'met' : 'NOT met'}`);
  }
  const scaling = processRatios();
  for (const r of scaling) console.log(`${r.operation}, 2 processes / 1: ${r.ratio.toFixed(2)} (median of ${r.roundRatios.length} alternating rounds: ${r.roundRatios.join(', ')}; mean req/s ${r.two} / ${r.one}); goal ≥ 1.5: ${r.ratio >= 1.5 ? 'met' : 'NOT met'}`);
  for (const c of cpuShares) {
    const us = (cores: number) => perRequest(cores, c.requestsPerSecond);
    console.log(
      `${c.operation}, ${c.processes === 1 ? 'one process' : `${c.processes} processes`}: ${c.busyCores} of ${availableParallelism()} cores busy ` +
        `(server ${c.serverCores}, PostgreSQL ${c.postgresCores}, autocannon ${c.benchCores}, kernel and other ${c.otherCores}); ` +
        `CPU per request µs: server ${us(c.serverCores)}, PostgreSQL ${us(c.postgresCores)}, autocannon ${us(c.benchCores)}, other ${us(c.otherCores)}` +
        (c.processes === 1 ? `: at most ${c.ceiling}× from more processes on this machine` : ''),
    );
  }
  for (const [operation, a] of Object.entries(allocated)) {
    console.log(`${operation}, bytes allocated per request: ours ${a.ours}, bare ${a.bare} (${(a.ours / a.bare).toFixed(2)}×; steady from run to run, unlike req/s)`);
  }
  if (renderStages.answer !== undefined) {
    const r = renderStages;
    console.log(
      `home page rendered in process, ms per page (medians of 5 rounds of 200): the whole answer ${r.answer}; ` +
        `found ${r.find}, assembled ${r.assemble} (SQLite ${r.sql} in ${r.reads} reads), rendered ${r.render}`,
    );
  }
  if (anonymous.figures.length) {
    console.log(`\nAnonymous requests, server CPU per request (SQLite, demo site; /api/openapi.json's first build: ${anonymous.openapiFirstBuildMs ?? '?'} ms of CPU):\n`);
    console.log(
      table([
        ['route (GET, anonymous)', '', 'req/s', 'server µs/request', 'answers'],
        ...anonymous.figures.map((f) => [f.route, '', String(f.requestsPerSecond), String(f.serverUsPerRequest ?? '?'), Object.entries(f.statuses).filter(([, n]) => n).map(([k, n]) => `${k} ${n}`).join(', ')]),
      ]),
    );
  }
  const listRatioFigure = ratioOf('list 20 (filtered)', LIST_GOAL);
  const bad = figures.filter((f) => f.non2xx || f.errors);
  if (bad.length) console.warn(`WARNING: non-2xx responses or errors in: ${bad.map((f) => `${f.database} ${f.operation}`).join(', ')}`);
  const out = join(ROOT, '.tmp', 'bench-results.json');
  mkdirSync(join(ROOT, '.tmp'), { recursive: true });
  writeFileSync(
    out,
    JSON.stringify(
      {
        at: new Date().toISOString(),
        node: process.version,
        settings: { connections: CONNECTIONS, seconds: SECONDS, warmupSeconds: WARMUP_SECONDS, rows: ROWS, idSample: ID_SAMPLE },
        results: figures,
        processRatios: scaling,
        cpuByProcesses: cpuShares,
        allocatedBytesPerRequest: allocated,
        renderStagesMs: renderStages,
        anonymous,
        pages: pageFacts,
        getByIdRatio: ratio === undefined ? null : { ours: ours!.requestsPerSecond, bare: bare!.requestsPerSecond, roundRatios: roundRatios.map((r) => Number(r.toFixed(3))), ratio: Number(ratio.toFixed(3)), goal: GOAL, met: ratio >= GOAL },
        listRatio: listRatioFigure ?? null,
      },
      null,
      2,
    ) + '\n',
  );
  console.log(`\nFigures written to ${out}`);
}

/* ------------------------------------------------------------------- main */

let cleaning: Promise<void> | undefined;
/**
 * the demo home page: from the page cache, and rendered each time (a second server on the same file with the page
 * cache off: every visitor, signed in or not, is served from the cache, so no request skips it)
 */
async function benchPages(dir: string) {
  log('pages: starting the demo site (npm run build must have built web/dist)');
  const path = join(dir, 'pages.db');
  const env = { DATABASE_URL: `file:${path}`, RBAC_SECRET_KEY: secret, RBAC_JWT_SECRET: jwtSecret, BENCH_PAGES: '1' };
  const app = await startChild('pages app', env);
  const home = await fetch(`${app.base}/`);
  if (home.status !== 200) throw new Error(`the home page answered ${home.status}`);
  // the page's bytes as sent: plain (autocannon asks for no encoding), br and gzip
  for (const encoding of ['identity', 'br', 'gzip']) pageFacts[`home page bytes (${encoding})`] = (await rawBody(`${app.base}/`, encoding)).length;
  // the same bytes as a static file served by a bare Hono app: the yardstick of a cached page, measured in alternating
  // rounds with it (a single run of each swung the ratio from 0.69 to 0.92 on a busy 2-core machine)
  const file = join(dir, 'home.html');
  writeFileSync(file, await rawBody(`${app.base}/`, 'identity'));
  const bare = await startChild('bare static file', { BENCH_SERVER: 'bare', BENCH_SQLITE_PATH: path, BENCH_STATIC_FILE: file });
  const rounds: Figure[][] = [[], []];
  for (let i = 0; i < RATIO_ROUNDS; i++) {
    rounds[0].push(await measure('sqlite', 'page / (cached)', app.base, () => ({ method: 'GET', path: '/' }), false));
    rounds[1].push(await measure('bare', 'static file (same bytes)', bare.base, () => ({ method: 'GET', path: '/static' }), false));
  }
  await bare.close();
  await app.close();
  figures.push(combine(rounds[0]), combine(rounds[1]));
  const ratios = rounds[0].map((c, i) => c.requestsPerSecond / rounds[1][i].requestsPerSecond);
  pageFacts['cached page / static file'] = Number(median(ratios).toFixed(2));
  const uncached = await startChild('pages app, no page cache', { ...env, BENCH_PAGE_CACHE: 'off' });
  // the first render of each widget variant walks every relation; the ones after walk what it drew (expansion plans):
  // the count is a steady page's
  await rawBody(`${uncached.base}/`, 'identity');
  const before = await uncached.queries();
  await rawBody(`${uncached.base}/`, 'identity');
  pageFacts['home page queries'] = (await uncached.queries()) - before;
  await measure('sqlite', 'page / (rendered)', uncached.base, () => ({ method: 'GET', path: '/' }));
  await uncached.close();
  // the same with WORKERS=2 (node:cluster, one port), as `WORKERS=2 npm start` serves on this machine's two cores: a
  // figure of its own beside the one process's, which the aim of 400 a second is read against
  const two = await startChild('pages app, no page cache, 2 processes', { ...env, BENCH_PAGE_CACHE: 'off', BENCH_WORKERS: '2' });
  for (let i = 0; i < 4; i++) await rawBody(`${two.base}/`, 'identity');
  await measure('sqlite', `page / (rendered)${TWO}`, two.base, () => ({ method: 'GET', path: '/' }));
  await two.close();
}

/** figures about pages that are not request rates: bytes, queries, ratios */
const pageFacts: Record<string, number> = {};

/** a response's body as it crossed the wire, in the encoding asked for (fetch would decode it) */
function rawBody(url: string, encoding: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    httpGet(url, { headers: { 'accept-encoding': encoding } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (b: Buffer) => parts.push(b));
      res.on('end', () => resolve(Buffer.concat(parts)));
      res.on('error', reject);
    }).on('error', reject);
  });
}

function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    for (const c of cleanups.reverse()) {
      try {
        await c.run();
      } catch (e) {
        console.error(`[bench] could not clean up ${c.name}: ${(e as Error).message}`);
      }
    }
  })();
  return cleaning;
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`[bench] ${signal}: cleaning up`);
    void cleanup().finally(() => process.exit(130));
  });
}

/** BENCH_ONLY=sqlite,pages,postgres,alloc,stages,anonymous: the parts to run (every part when unset), for a quicker look at one */
const only = process.env.BENCH_ONLY?.split(',').map((p) => p.trim());
const part = (name: 'sqlite' | 'pages' | 'postgres' | 'alloc' | 'stages' | 'anonymous') => !only || only.includes(name);

/** what an anonymous request costs the server, per route (scripts/bench/anonymous.ts) */
const anonymous: { figures: AnonymousFigure[]; openapiFirstBuildMs: number | null } = { figures: [], openapiFirstBuildMs: null };

/** a bench script run in a process of its own (with the flags it needs): the JSON of the last line it prints */
async function runScript(name: string, execArgv: string[] = []): Promise<Record<string, unknown>> {
  const child = fork(join(ROOT, 'scripts', 'bench', name), [], {
    cwd: ROOT,
    execArgv: [...execArgv, '--import', 'tsx'],
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearTimeout(timer);
  if (code !== 0) throw new Error(`scripts/bench/${name} exited with code ${code}`);
  return JSON.parse(out.trim().split('\n').pop()!);
}

/** bytes allocated per request, ours and bare (scripts/bench/alloc.ts) */
const allocated: Record<string, { ours: number; bare: number }> = {};
async function benchAllocation() {
  log('allocation per request (scripts/bench/alloc.ts)');
  Object.assign(allocated, await runScript('alloc.ts', ['--expose-gc', '--max-semi-space-size=256']));
}

/** where a rendered home page's time goes, in process (scripts/bench/stages.ts): ms per page, and reads per page */
const renderStages: Record<string, number> = {};
async function benchStages() {
  log('a rendered page by stage (scripts/bench/stages.ts)');
  Object.assign(renderStages, await runScript('stages.ts'));
}

let failed = false;
try {
  const dir = join(ROOT, '.tmp', `bench-${runId}`);
  mkdirSync(dir, { recursive: true });
  cleanups.push({ name: dir, run: () => rmSync(dir, { recursive: true, force: true }) });
  const sqlitePath = join(dir, 'bench.db');
  if (part('sqlite')) await benchDatabase('sqlite', `file:${sqlitePath}`, sqlitePath);
  if (part('pages')) await benchPages(dir);
  if (part('alloc')) await benchAllocation();
  if (part('stages')) await benchStages();
  if (part('anonymous')) {
    Object.assign(anonymous, await benchAnonymous({ startChild, dir, env: { RBAC_SECRET_KEY: secret, RBAC_JWT_SECRET: jwtSecret }, seconds: SECONDS, warmupSeconds: WARMUP_SECONDS, connections: CONNECTIONS, log }));
  }

  const adminUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
  if (!part('postgres')) log('PostgreSQL skipped: not in BENCH_ONLY');
  else if (adminUrl) await benchDatabase('postgres', await createPgDatabase(adminUrl));
  else log('PostgreSQL skipped: set BENCH_DATABASE_URL or TEST_DATABASE_URL to include it');
} catch (e) {
  failed = true;
  console.error(`[bench] failed: ${(e as Error).stack ?? e}`);
} finally {
  await cleanup();
}
report();
process.exit(failed ? 1 : 0);
