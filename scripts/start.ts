import { loadConfig } from '../runtime/config.js';
import { startServer } from '../runtime/server.js';
import { ROOT } from '../engine/codegen.js';
import { plugins } from '../plugins/index.js';

try {
  const config = loadConfig();
  const web = config.production || process.env.WEB === 'built' ? 'built' : 'vite';
  const running = await startServer({ config, root: ROOT, plugins, web });
  const db = config.databaseUrl.startsWith('postgres') ? 'PostgreSQL' : `SQLite (${config.databaseUrl})`;
  console.log(running.migrated.length ? `Applied ${running.migrated.length} migration(s): ${running.migrated.join(', ')}` : 'Database schema up to date: no migration to apply');
  console.log(`Serving on ${running.url} with ${db}${running.seeded ? `; seeded ${running.seeded} demo rows` : ''}`);
  console.log(`Admin: ${running.url}/admin/ (${web === 'vite' ? 'Vite dev middleware' : 'built assets'})`);
  console.log(`API: ${running.url}/api/ecommerce/products`);
  if (config.generated.includes('RBAC_SECRET_KEY')) {
    console.log(`RBAC_SECRET_KEY was not set; this run uses a generated one (writes need it as X-RBAC-SECRET-KEY): ${config.rbacSecretKey}`);
  }
  if (config.generated.includes("RBAC_JWT_SECRET")) {
    console.log("RBAC_JWT_SECRET was not set; this run signs sessions with a generated key, so sign-ins end when the server restarts");
  }
  const stop = () => running.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} catch (e) {
  console.error(`Could not start: ${(e as Error).message}`);
  process.exit(1);
}
