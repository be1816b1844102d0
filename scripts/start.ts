import cluster, { type Worker } from 'node:cluster';
import { loadConfig } from '../runtime/config.js';
import { startServer } from '../runtime/server.js';
import { relayBetweenWorkers } from '../runtime/cluster.js';
import { ROOT } from '../engine/codegen.js';
import { plugins } from '../plugins/index.js';

/**
 * `npm start`: one server process, or with WORKERS=N (node:cluster) a primary that starts N server processes on one
 * port. The first worker migrates and seeds before the others start, so they never race at it; secrets the
 * environment lacks (development) are made up once here and shared, so a session signed by one worker is valid in
 * every other. SIGTERM (or SIGINT) stops each process gracefully: no new connections, requests in flight finish,
 * the database closes, exit 0.
 */
type WorkerMessage = { listening: { url: string; migrated: string[]; seeded: number; pid: number } };

function describe(config: ReturnType<typeof loadConfig>) {
  const db = config.databaseUrl.startsWith('postgres') ? 'PostgreSQL' : `SQLite (${config.databaseUrl})`;
  if (config.generated.includes('RBAC_SECRET_KEY')) {
    console.log(`RBAC_SECRET_KEY was not set; this run uses a generated one (writes need it as X-RBAC-SECRET-KEY): ${config.rbacSecretKey}`);
  }
  if (config.generated.includes('RBAC_JWT_SECRET')) {
    console.log('RBAC_JWT_SECRET was not set; this run signs sessions with a generated key, so sign-ins end when the server restarts');
  }
  return db;
}

/** a server in this process: answers the primary (when there is one) once it listens */
async function serve(printSecrets: boolean) {
  const config = loadConfig();
  // WEB=off: the API alone; WEB=built: web/dist (always in production); else Vite's dev middleware
  const web = process.env.WEB === 'off' ? 'off' : config.production || process.env.WEB === 'built' ? 'built' : 'vite';
  // a signal while starting (migrating, seeding) is kept, and honoured once the start is done: a migration is never
  // cut in the middle, and the exit is still a clean 0
  let asked = false;
  const early = () => void (asked = true);
  process.on('SIGINT', early);
  process.on('SIGTERM', early);
  const running = await startServer({ config, root: ROOT, plugins, web });
  process.off('SIGINT', early);
  process.off('SIGTERM', early);
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= running.close().then(
      () => process.exit(0),
      (e) => {
        console.error(`Could not stop cleanly: ${(e as Error).message}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  if (asked) return stop();
  if (cluster.isWorker) {
    // a worker also stops when the primary goes away
    process.on('disconnect', stop);
    process.send?.({ listening: { url: running.url, migrated: running.migrated, seeded: running.seeded, pid: process.pid } } satisfies WorkerMessage);
    return;
  }
  const db = printSecrets ? describe(config) : '';
  console.log(running.migrated.length ? `Applied ${running.migrated.length} migration(s): ${running.migrated.join(', ')}` : 'Database schema up to date: no migration to apply');
  console.log(`Serving on ${running.url} with ${db}${running.seeded ? `; seeded ${running.seeded} demo rows` : ''}`);
  if (web !== 'off') console.log(`Admin: ${running.url}/admin/ (${web === 'vite' ? 'Vite dev middleware' : 'built assets'})`);
  console.log(`API: ${running.url}/api/ecommerce/products`);
}

/** the primary of WORKERS=N: starts the workers one after the other, restarts one that dies, stops them all on SIGTERM */
async function primary(count: number) {
  const config = loadConfig();
  const db = describe(config);
  // every worker gets the same secrets, generated or not
  const env = { RBAC_SECRET_KEY: config.rbacSecretKey, RBAC_JWT_SECRET: config.rbacJwtSecret };
  relayBetweenWorkers();
  let stopping = false;
  let url = config.publicUrl;
  const start = () =>
    new Promise<Worker>((resolve, reject) => {
      if (stopping) return reject(new Error('stopping'));
      const worker = cluster.fork(env);
      let listening = false;
      worker.on('message', (m: WorkerMessage) => {
        if (!m?.listening) return;
        listening = true;
        const l = m.listening;
        url = l.url;
        console.log(`Worker ${l.pid} serving on ${l.url}${l.migrated.length ? `; applied ${l.migrated.join(', ')}` : ''}${l.seeded ? `; seeded ${l.seeded} demo rows` : ''}`);
        resolve(worker);
      });
      worker.once('exit', (code, signal) => {
        reject(new Error(`a worker exited before listening (${signal ?? `code ${code}`})`));
        // one that never served is not started again (its error is the caller's); one that crashed while serving is
        if (stopping || !listening) return;
        console.error(`Worker ${worker.process.pid} exited (${signal ?? `code ${code}`}): starting another`);
        start().catch((e) => console.error(`Could not restart a worker: ${(e as Error).message}`));
      });
    });
  // SIGTERM (or SIGINT), while the workers start too: each worker stops gracefully, exit 0 once all have
  const stop = () => {
    if (stopping) return;
    stopping = true;
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w);
    let failed = false;
    let left = workers.length;
    if (!left) process.exit(0);
    for (const w of workers) {
      // a worker still loading its code has no handler yet and ends by the signal itself: nothing was in flight
      w.once('exit', (code, signal) => {
        if (code !== 0 && signal !== 'SIGTERM') failed = true;
        if (--left === 0) process.exit(failed ? 1 : 0);
      });
      w.process.kill('SIGTERM');
    }
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    // the first one migrates and seeds; the others find the database ready
    await start();
    await Promise.all(Array.from({ length: count - 1 }, start));
  } catch (e) {
    if (stopping) return; // asked to stop while starting: stop() exits once the workers have
    stopping = true;
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
    throw e;
  }
  console.log(`Serving on ${url} with ${db}: ${count} worker processes`);
}

try {
  // development: the manifests are turned into generated/ and migrations here, once, in the first process (the
  // cached answer takes a few milliseconds; no separate npm and tsx launch); production generates nothing and
  // startServer checks instead
  if (cluster.isPrimary && !loadConfig().production) {
    const { runCodegen } = await import('./codegen.js');
    if (!(await runCodegen())) process.exit(1);
  }
  // digits only: Number() would also take '1e1', '0x2' and ' 2'
  const workers = /^\d+$/.test(process.env.WORKERS ?? '1') ? Number(process.env.WORKERS ?? 1) : NaN;
  if (!Number.isInteger(workers) || workers < 1 || workers > 256) throw new Error(`WORKERS must be a whole number from 1 to 256, got '${process.env.WORKERS}'`);
  if (workers > 1 && cluster.isPrimary) await primary(workers);
  else await serve(cluster.isPrimary);
} catch (e) {
  console.error(`Could not start: ${(e as Error).message}`);
  process.exit(1);
}
