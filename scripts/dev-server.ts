import { join } from 'node:path';
import { loadConfig } from '../runtime/config.js';
import { startServer } from '../runtime/server.js';
import { ROOT } from '../engine/codegen.js';
import { plugins } from '../plugins/index.js';

/**
 * The server `npm run dev` runs and restarts (scripts/dev.ts): like `npm start` in development, reading the
 * generated code and migrations from GENERATED_DIR and MIGRATIONS_DIR when set (the watcher's tests point
 * them at a scratch project). It says "dev-server: listening on <url>" once it serves.
 */
try {
  const config = loadConfig();
  const web = (process.env.WEB as 'vite' | 'built' | 'off' | undefined) ?? 'vite';
  const running = await startServer({
    config, root: ROOT, plugins, web,
    generatedDir: process.env.GENERATED_DIR ?? join(ROOT, 'generated'),
    migrationsDir: process.env.MIGRATIONS_DIR ?? join(ROOT, 'migrations'),
  });
  console.log(`dev-server: listening on ${running.url}${running.seeded ? ` (seeded ${running.seeded} demo rows)` : ''}`);
  const stop = () => running.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} catch (e) {
  console.error(`dev-server: could not start: ${(e as Error).message}`);
  process.exit(1);
}
