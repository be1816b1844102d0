/**
 * A second server process for tests/agent/two-processes.test.ts: the same app with the agent module on the same
 * PostgreSQL database, whose scheduler ticks when the test says (over IPC), at the wall-clock moment it names.
 */
import { appendFileSync } from 'node:fs';
import { ROOT } from '../../engine/codegen.js';
import { loadConfig } from '../../runtime/config.js';
import { prepare } from '../../runtime/server.js';
import { createAgentPlugin, type AgentService } from '../../plugins/agent/server/index.js';

export const recordingJob = (file: string, instance: string) => ({
  title: 'Writes the slot it ran for to a file both processes share',
  run: async ({ slot }: { slot: Date }) => {
    appendFileSync(file, `${slot.toISOString()} ${instance}\n`);
    return { slot: slot.toISOString() };
  },
});

async function main() {
  const [databaseUrl, file] = process.argv.slice(2);
  const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: databaseUrl, RBAC_SECRET_KEY: 'test-secret-key-0123456789', RBAC_JWT_SECRET: 'test-jwt-secret-0123456789', LOG_LEVEL: 'silent' });
  const p = await prepare({ config, root: ROOT, plugins: [createAgentPlugin({ scheduler: false, jobs: { 'test-tick': recordingJob(file, `child:${process.pid}`) } })], seed: false });
  const scheduler = (p.ctx.services.agents as AgentService).scheduler()!;
  process.on('message', async (m: { tick?: string; at?: number; exit?: boolean }) => {
    if (m.exit) {
      await p.database.close();
      process.exit(0);
    }
    if (!m.tick) return;
    await new Promise((r) => setTimeout(r, Math.max(0, (m.at ?? 0) - Date.now())));
    const result = await scheduler.tick(new Date(m.tick));
    process.send!({ tick: m.tick, ...result });
  });
  process.send!({ ready: true });
}

if (process.argv[1]?.endsWith('scheduler-process.ts')) void main();
