/**
 * A second server process for tests/broadcast/two-processes.test.ts: the same plugins on the same database and
 * Redis, listening on a port of its own, which it sends to the test over IPC.
 */
import { ROOT } from '../../engine/codegen.js';
import { loadConfig } from '../../runtime/config.js';
import { startServer } from '../../runtime/server.js';
import { createRbacPlugin } from '../../plugins/rbac/server/index.js';
import { createBroadcastPlugin } from '../../plugins/broadcast/server/index.js';

export const SERVER_ENV = { NODE_ENV: 'test', PORT: '0', RBAC_SECRET_KEY: 'two-process-secret-0123', RBAC_JWT_SECRET: 'two-process-jwt-secret-0123', LOG_LEVEL: 'silent' };
export const servicePlugins = (channel: string) => [createRbacPlugin({ limits: { perAddress: { points: 10_000, duration: 60 }, perAccount: { points: 10_000, duration: 60 } } }), createBroadcastPlugin({ channel })];

async function main() {
  const [databaseUrl, redisUrl, channel] = process.argv.slice(2);
  const config = loadConfig({ ...SERVER_ENV, DATABASE_URL: databaseUrl, REDIS_URL: redisUrl });
  const running = await startServer({ config, root: ROOT, plugins: servicePlugins(channel), seed: false });
  process.on('message', async (m: { exit?: boolean }) => {
    if (!m.exit) return;
    await running.close();
    process.exit(0);
  });
  process.send!({ url: `http://127.0.0.1:${running.port}` });
}

if (process.argv[1]?.endsWith('server-process.ts')) void main();
