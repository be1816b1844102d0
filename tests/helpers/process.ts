import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { ROOT } from '../../engine/codegen.js';

/** the real server (`scripts/start.ts`, what `npm start` runs) as a child process */
export interface ServerProcess {
  child: ChildProcess;
  port: number;
  base: string;
  /** everything it printed */
  output(): string;
  /** resolves with the exit code (or the signal) */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** starts scripts/start.ts with `env` and resolves once it prints its address; WORKERS=N waits for every worker */
export async function startServerProcess(env: Record<string, string>, timeoutMs = 120_000, { viaNpm = false } = {}): Promise<ServerProcess> {
  // `npm start` itself (npm, its shell, then node), as the README and a container's CMD run it
  const [command, args] = viaNpm ? ['npm', ['start', '--silent']] : [process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'start.ts')]];
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', WEB: 'off', LOG_LEVEL: 'warn', NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const workers = Number(env.WORKERS ?? 1);
  const ready = workers > 1 ? /Serving on http:\/\/localhost:(\d+) with .*: \d+ worker processes/ : /Serving on http:\/\/localhost:(\d+)/;
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start:\n${out}`)), timeoutMs);
    const check = () => {
      const m = ready.exec(out);
      if (m) {
        clearTimeout(timer);
        child.stdout!.off('data', check);
        resolve(Number(m[1]));
      }
    };
    child.stdout!.on('data', check);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${signal ?? code}) before listening:\n${out}`));
    });
  });
  return { child, port, base: `http://127.0.0.1:${port}`, output: () => out, exited };
}

/** resolves once nothing accepts connections on the port any more */
export async function refusesConnections(port: number): Promise<void> {
  for (;;) {
    const refused = await new Promise<boolean>((resolve) => {
      const s = connect(port, '127.0.0.1');
      s.once('connect', () => (s.destroy(), resolve(false)));
      s.once('error', () => resolve(true));
    });
    if (refused) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** one request on a connection of its own (no keep-alive pool), so that a cluster hands each to any worker */
export function fresh(base: string, method: string, path: string, opts: { headers?: Record<string, string>; body?: unknown } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    const req = request(base + path, { method, agent: false, headers: { ...(payload ? { 'content-type': 'application/json' } : {}), ...opts.headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}
