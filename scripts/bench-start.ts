/**
 * How long `npm start` takes from launch to listening, on a migrated database (npm run bench:start). Prints
 * figures; it is not a test.
 *
 * A fresh SQLite file under .tmp/ is migrated and seeded by a first start that is not counted; then `npm start`
 * is launched RUNS times (default 5) and timed from spawn to its "Serving on" line. The aim (issue 16) is under
 * 2 s on this project's 2-core machine when it is otherwise idle: the load average is printed beside the figures,
 * since another program sharing the cores stretches them.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { ROOT } from '../engine/codegen.js';

const RUNS = Number(process.env.RUNS ?? 5);
const dir = join(ROOT, '.tmp', `bench-start-${randomBytes(4).toString('hex')}`);
mkdirSync(dir, { recursive: true });

/** ms from spawn to the "Serving on" line; the server is stopped right after */
function once(): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn('npm', ['start'], {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', DATABASE_URL: `file:${join(dir, 'app.db')}`, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let out = '';
    const done = (e?: Error) => {
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        // already gone
      }
      if (e) reject(e);
    };
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString();
      if (out.includes('Serving on')) {
        resolve(performance.now() - started);
        done();
      }
    });
    child.stderr.on('data', (b: Buffer) => (out += b.toString()));
    child.on('exit', (code) => {
      if (!out.includes('Serving on')) reject(new Error(`npm start exited (${code}) before listening:\n${out}`));
    });
    setTimeout(() => done(new Error(`npm start did not listen within 60 s:\n${out}`)), 60_000).unref();
  });
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
try {
  const first = await once(); // migrates and seeds the new file
  await wait(1000);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    times.push(await once());
    await wait(2500); // the last server has exited and the machine is quiet again
  }
  times.sort((a, b) => a - b);
  const ms = (n: number) => `${Math.round(n)} ms`;
  console.log(`npm start, launch to listening on a migrated SQLite database (${RUNS} runs; load average ${loadavg()[0].toFixed(2)}):`);
  console.log(`  median ${ms(times[Math.floor(times.length / 2)])}, fastest ${ms(times[0])}, slowest ${ms(times[times.length - 1])}; first start (migrate and seed) ${ms(first)}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
