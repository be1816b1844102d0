import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../engine/codegen.js';
import { pgDatabase, type TestDatabase } from '../helpers/databases.js';
import { bootApp, type TestApp } from '../helpers/app.js';
import { createAgentPlugin, type AgentService } from '../../plugins/agent/server/index.js';
import { recordingJob } from './scheduler-process.js';

const SLOTS = 20;

/**
 * Two server processes on one PostgreSQL database, their schedulers ticking at the same moment for every slot
 * of an every-second agent: each slot runs exactly once, whichever process wins it.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('agents with two server processes on one PostgreSQL', () => {
  let db: TestDatabase;
  let t: TestApp;
  let child: ChildProcess;
  let dir: string;
  let file: string;
  const replies = new Map<string, (r: { ran: string[]; lost: string[] }) => void>();

  beforeAll(async () => {
    dir = mkdtempSync(join(ROOT, '.tmp', 'agents-'));
    file = join(dir, 'runs.log');
    writeFileSync(file, '');
    db = await pgDatabase();
    t = await bootApp({ ...db, drop: async () => undefined }, { plugins: [createAgentPlugin({ scheduler: false, jobs: { 'test-tick': recordingJob(file, `parent:${process.pid}`) } })] });
    child = fork(join(ROOT, 'tests', 'agent', 'scheduler-process.ts'), [db.url, file], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    await new Promise<void>((resolve, reject) => {
      child.once('error', reject);
      child.on('message', (m: { ready?: boolean; tick?: string; ran: string[]; lost: string[] }) => {
        if (m.ready) resolve();
        else if (m.tick) replies.get(m.tick)?.(m);
      });
    });
  }, 120_000);
  afterAll(async () => {
    if (child?.connected) {
      child.send({ exit: true });
      await new Promise((r) => child.once('exit', r));
    }
    await t?.close();
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('every slot is run once, by one of the two processes, however they race', async () => {
    const agent = (await t.call('POST', '/api/agent/agents', { data: { slug: 'test-tick', interval: '* * * * * *' } })).body.data;
    const base = Math.ceil(new Date(agent.createdAt).getTime() / 1000) * 1000;
    const scheduler = (t.ctx.services.agents as AgentService).scheduler()!;
    const outcomes: { slot: string; parent: string; child: string }[] = [];
    for (let i = 1; i <= SLOTS; i++) {
      const tick = new Date(base + i * 1000).toISOString();
      // both processes tick at the same wall-clock moment, for the same slot
      const at = Date.now() + 30;
      const fromChild = new Promise<{ ran: string[]; lost: string[] }>((r) => replies.set(tick, r));
      child.send({ tick, at });
      const fromParent = new Promise((r) => setTimeout(r, at - Date.now())).then(() => scheduler.tick(new Date(tick)));
      const [p, c] = await Promise.all([fromParent, fromChild]);
      const outcome = (r: { ran: string[]; lost: string[] }) => (r.ran.includes('test-tick') ? 'ran' : r.lost.includes('test-tick') ? 'lost' : 'not due');
      outcomes.push({ slot: tick, parent: outcome(p), child: outcome(c) });
    }
    // one 'ran' per slot, never two
    for (const o of outcomes) expect([o.parent, o.child].filter((x) => x === 'ran'), JSON.stringify(o)).toHaveLength(1);
    // the job's side effect: each slot once in the shared file, whichever process wrote it
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    const slots = lines.map((l) => l.split(' ')[0]);
    expect(new Set(slots).size).toBe(slots.length);
    expect(slots.sort()).toEqual(outcomes.map((o) => o.slot).sort());
    // and the run rows agree
    const runs = (await t.call('GET', `/api/agent/runs?limit=1000&filters[and][0][column]=agentId&filters[and][0][method]=eq&filters[and][0][value]=${agent.id}`)).body.data as { scheduledAt: string; status: string; instance: string }[];
    expect(runs).toHaveLength(SLOTS);
    expect(runs.every((r) => r.status === 'succeeded')).toBe(true);
    // the two really raced: in some slots one process's claim found the slot taken by the other
    const contested = outcomes.filter((o) => o.parent === 'lost' || o.child === 'lost').length;
    expect(contested).toBeGreaterThan(0);
    const byInstance = new Set(runs.map((r) => r.instance));
    console.info(`two processes, ${SLOTS} slots: runs by instance ${JSON.stringify([...byInstance].map((i) => [i, runs.filter((r) => r.instance === i).length]))}; contested slots (one process lost the claim): ${contested}`);
  });
});
