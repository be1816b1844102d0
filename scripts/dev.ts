import { spawn, type ChildProcess } from 'node:child_process';
import { watch } from 'node:fs';
import { join, relative } from 'node:path';
import { codegen, ROOT } from '../engine/codegen.js';

/**
 * npm run dev: codegen, then the server, then a watch over schemas/ and plugins/.
 * - A changed manifest is validated and regenerated; the server restarts on the new code and applies the new
 *   migration to the development database on start. An invalid manifest prints its errors and keeps the last
 *   good server running.
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

function startChild() {
  child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'dev-server.ts')], {
    cwd: ROOT,
    env: { ...process.env, GENERATED_DIR: outDir, MIGRATIONS_DIR: migrationsDir },
    stdio: 'inherit',
  });
  child.on('exit', (code, signal) => {
    if (signal !== 'SIGTERM' && code !== 0) log(`the server stopped (exit ${code ?? signal}); fix the code and save to try again`);
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
    const result = await codegen({ schemasDir, outDir, migrationsDir });
    log(`regenerated ${result.model.entities.length} entities (${result.written.length} file(s) changed)`);
    return true;
  } catch (e) {
    log(`the manifests were not applied — the running server keeps the last good model:\n${(e as Error).message}`);
    return false;
  }
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
      await stopChild();
      startChild();
    });
  }, 150);
}
let pending = { schemas: false, plugins: false };
let timer: ReturnType<typeof setTimeout> | undefined;

if (!(await regenerate())) process.exit(1);
startChild();
watch(schemasDir, { recursive: true }, (_, name) => {
  if (name && name.endsWith('.json')) schedule('schemas', join(relative(ROOT, schemasDir), name));
});
watch(pluginsDir, { recursive: true }, (_, name) => {
  // server code and seeds; web components are Vite's to hot-reload, tests are not the server's
  if (name && /\.(ts|tsx|json)$/.test(name) && !/\.test\.tsx?$/.test(name)) schedule('plugins', join('plugins', name));
});
log(`watching ${relative(ROOT, schemasDir) || schemasDir} and plugins/`);
const shutdown = async () => {
  await stopChild();
  process.exit(0);
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
