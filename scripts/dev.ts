import { spawn, type ChildProcess } from 'node:child_process';
import { watch } from 'node:fs';
import { join, relative } from 'node:path';
import { codegen, ROOT } from '../engine/codegen.js';
import { loadConfig } from '../runtime/config.js';
import { openDatabase } from '../runtime/db/index.js';
import { unapplied } from './codegen.js';

/**
 * npm run dev: codegen, then the server, then a watch over schemas/ and plugins/.
 * - A changed manifest is validated and regenerated; the server restarts on the new code and applies the new
 *   migration to the development database on start. An invalid manifest prints its errors and keeps the last
 *   good server running. So does a migration the development database would refuse (its guards, run first in a
 *   transaction rolled back, find rows it cannot keep): the refusal is printed, the last good server keeps serving,
 *   and the guards are tried again every RETRY_MS, so that fixing those rows (through the running server) or the
 *   manifest (which replaces the unapplied migration, as npm run codegen does) brings the new schema in.
 * - A changed server file under plugins/ restarts the server. The admin and the storefront reconnect to the
 *   restarted server's HMR websocket (it shares the server's port) and reload with the new model.
 * SCHEMAS_DIR, GENERATED_DIR and MIGRATIONS_DIR point it at another project (the watcher's tests use a scratch one).
 */
const schemasDir = process.env.SCHEMAS_DIR ?? join(ROOT, 'schemas');
const outDir = process.env.GENERATED_DIR ?? join(ROOT, 'generated');
const migrationsDir = process.env.MIGRATIONS_DIR ?? join(ROOT, 'migrations');
const pluginsDir = join(ROOT, 'plugins');
const log = (line: string) => console.log(`dev: ${line}`);

let child: ChildProcess | undefined;
let busy = Promise.resolve();
/** while the pending migration would be refused: the retry's timer, and the refusal last printed */
const RETRY_MS = Number(process.env.DEV_MIGRATION_RETRY_MS || 2000);
let retry: ReturnType<typeof setTimeout> | undefined;
let refused: string | undefined;

function startChild() {
  const c = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'dev-server.ts')], {
    cwd: ROOT,
    env: { ...process.env, GENERATED_DIR: outDir, MIGRATIONS_DIR: migrationsDir },
    stdio: 'inherit',
  });
  child = c;
  c.on('exit', (code, signal) => {
    if (child === c) child = undefined;
    if (signal === 'SIGTERM' || code === 0) return;
    log(`the server stopped (exit ${code ?? signal}); fix the code and save to try again`);
    // refused at its start (rows written since the guards passed): wait for the rows or the manifest as above
    busy = busy.then(async () => {
      if (!child && (await refusal())) await restart();
    });
  });
}

async function stopChild() {
  const c = child;
  child = undefined;
  if (!c || c.exitCode !== null || c.signalCode) return;
  await new Promise<void>((resolve) => {
    c.once('exit', () => resolve());
    c.kill('SIGTERM');
    setTimeout(() => c.kill('SIGKILL'), 5000).unref();
  });
}

/** regenerates; false (with the errors printed) when a manifest is invalid or a change is refused */
async function regenerate(): Promise<boolean> {
  try {
    // an unapplied last migration (one the development database refused) is replaced, not followed by another
    const result = await codegen({ schemasDir, outDir, migrationsDir, canReplace: unapplied });
    log(`regenerated ${result.model.entities.length} entities (${result.written.length} file(s) changed)`);
    return true;
  } catch (e) {
    log(`the manifests were not applied — the running server keeps the last good model:\n${(e as Error).message}`);
    return false;
  }
}

/** the refusal the pending migrations would meet on the development database (their guards, rolled back), if any */
async function refusal(): Promise<string | undefined> {
  const database = openDatabase(loadConfig().databaseUrl, { sqlite: {}, pg: {} });
  try {
    return (await database.migrate(migrationsDir, { dryRun: true })).refusal?.message;
  } catch (e) {
    return (e as Error).message;
  } finally {
    await database.close();
  }
}

/**
 * (Re)starts the server on the generated code, unless its migration would be refused: then the running server (the
 * last good schema) keeps serving, the refusal is printed once, and this is tried again in RETRY_MS.
 */
async function restart() {
  clearTimeout(retry);
  const why = await refusal();
  if (why) {
    if (why !== refused) {
      log(`the new schema was not applied: the development database would refuse its migration, so ${child ? 'the running server keeps the last good schema' : 'the server waits'}.\n${why}\n` +
        `Fix those rows (the running server still serves them) or the manifest; dev tries again every ${RETRY_MS / 1000} s.`);
    }
    refused = why;
    // a retry only while still refused: a manifest change meanwhile may have restarted the server already
    retry = setTimeout(() => void (busy = busy.then(() => (refused ? restart() : undefined))), RETRY_MS);
    return;
  }
  if (refused) log('the migration passes its guards now: restarting on the new schema');
  refused = undefined;
  await stopChild();
  startChild();
}

function schedule(kind: 'schemas' | 'plugins', file: string) {
  pending[kind] = true;
  clearTimeout(timer);
  timer = setTimeout(() => {
    const { schemas, plugins } = pending;
    pending = { schemas: false, plugins: false };
    busy = busy.then(async () => {
      log(`${file} changed`);
      if (schemas && !(await regenerate())) return;
      if (!schemas && !plugins) return;
      await restart();
    });
  }, 150);
}
let pending = { schemas: false, plugins: false };
let timer: ReturnType<typeof setTimeout> | undefined;

if (!(await regenerate())) process.exit(1);
await restart();
watch(schemasDir, { recursive: true }, (_, name) => {
  if (name && name.endsWith('.json')) schedule('schemas', join(relative(ROOT, schemasDir), name));
});
watch(pluginsDir, { recursive: true }, (_, name) => {
  // server code and seeds; web components are Vite's to hot-reload, tests are not the server's
  if (name && /\.(ts|tsx|json)$/.test(name) && !/\.test\.tsx?$/.test(name)) schedule('plugins', join('plugins', name));
});
log(`watching ${relative(ROOT, schemasDir) || schemasDir} and plugins/`);
const shutdown = async () => {
  clearTimeout(retry);
  await stopChild();
  process.exit(0);
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
