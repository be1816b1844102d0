import { describe, it, expect, afterAll } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
import { join } from 'node:path';
import { vi } from 'vitest';
import { ROOT } from '../../engine/codegen.js';
import { scratchProject } from '../helpers/schemas.js';

const freePort = () => new Promise<number>((resolve) => {
  const s = createServer().listen(0, '127.0.0.1', () => {
    const port = (s.address() as { port: number }).port;
    s.close(() => resolve(port));
  });
});

/**
 * `npm run dev` on a scratch project with its schemas, on `port`, its output collected in `out`: the process group is
 * stopped and the project removed after the describe block
 */
function devServer(key: string) {
  const p = scratchProject({ copySchemas: true });
  const dev = { p, out: '', child: undefined as ChildProcess | undefined };
  afterAll(async () => {
    if (dev.child?.pid) {
      try {
        process.kill(-dev.child.pid, 'SIGTERM');
      } catch {
        /* gone */
      }
    }
    await new Promise((r) => setTimeout(r, 500));
    p.remove();
  });
  const start = (port: number, env: Record<string, string> = {}) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'dev.ts')], {
      cwd: ROOT,
      detached: true,
      env: {
        ...process.env, NODE_ENV: 'development', PORT: String(port), HOST: '127.0.0.1', WEB: 'off', LOG_LEVEL: 'silent',
        DATABASE_URL: `file:${join(p.dir, 'dev.db')}`, RBAC_SECRET_KEY: key, RBAC_JWT_SECRET: 'dev-jwt-secret-0123456789',
        SCHEMAS_DIR: p.schemasDir, GENERATED_DIR: p.outDir, MIGRATIONS_DIR: p.migrationsDir, REDIS_URL: '', ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    dev.child = child;
    child.stdout!.on('data', (b: Buffer) => (dev.out += b.toString()));
    child.stderr!.on('data', (b: Buffer) => (dev.out += b.toString()));
  };
  return Object.assign(dev, { start });
}

/** npm run dev on a scratch project: a valid manifest change is served without a restart by hand; an invalid one keeps the last good server */
describe('npm run dev', () => {
  const KEY = 'dev-secret-key-0123456789';
  const dev = devServer(KEY);
  const p = dev.p;

  it('regenerates, migrates and restarts on a valid change; prints the error and keeps serving on an invalid one', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    dev.start(port);
    const status = async (path: string) => (await fetch(url + path, { headers: { 'x-rbac-secret-key': KEY } }).catch(() => undefined))?.status;
    await vi.waitFor(() => expect(dev.out).toContain('dev-server: listening'), { timeout: 90_000, interval: 200 });
    expect(await status('/api/gizmo/gadgets')).toBe(404);

    // a valid new manifest: regenerated, migrated on the development database, served
    p.write('gizmo/gadget.json', { $schema: '../meta/manifest.schema.json', name: 'gadget', route: 'gadgets', title: 'Gadget', fields: { label: { kind: 'text', required: true } } });
    await vi.waitFor(async () => expect(await status('/api/gizmo/gadgets')).toBe(200), { timeout: 90_000, interval: 300 });
    const made = await fetch(`${url}/api/gizmo/gadgets`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-rbac-secret-key': KEY }, body: JSON.stringify({ data: { label: 'lamp' } }) });
    expect(made.status).toBe(201);

    // an invalid manifest: its error is printed, and the last good server keeps serving
    const before = dev.out.length;
    p.write('gizmo/broken.json', { $schema: '../meta/manifest.schema.json', name: 'broken', route: 'brokens', title: 'Broken', fields: { x: { kind: 'nope' } } });
    await vi.waitFor(() => expect(dev.out.slice(before)).toContain('the manifests were not applied'), { timeout: 60_000, interval: 200 });
    expect(dev.out.slice(before)).toContain('gizmo/broken.json');
    expect(await status('/api/gizmo/gadgets')).toBe(200);
    expect(await status('/api/health')).toBe(200);
    expect((await (await fetch(`${url}/api/gizmo/gadgets`)).json()).data).toEqual([expect.objectContaining({ label: 'lamp' })]);
  }, 240_000);
});

/** npm run dev with a change the development database refuses: the last good server keeps serving until the rows or the manifest are fixed */
describe('npm run dev with a refused migration', () => {
  const KEY = 'dev-secret-key-0123456789';
  const dev = devServer(KEY);
  const p = dev.p;

  it('prints the refusal, keeps serving the last good schema, and picks the change up once the rows or the manifest are fixed', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const gadget = (code: Record<string, unknown>) => ({ $schema: '../meta/manifest.schema.json', name: 'gadget', route: 'gadgets', title: 'Gadget', fields: { code: { kind: 'text', ...code } } });
    p.write('gizmo/gadget.json', gadget({}));
    dev.start(port, { DEV_MIGRATION_RETRY_MS: '500' });
    const call = async (method: string, path: string, data?: unknown) => {
      const r = await fetch(url + path, { method, headers: { 'content-type': 'application/json', 'x-rbac-secret-key': KEY }, body: data === undefined ? undefined : JSON.stringify({ data }) }).catch(() => undefined);
      return { status: r?.status, body: r ? await r.json().catch(() => undefined) : undefined };
    };
    await vi.waitFor(() => expect(dev.out).toContain('dev-server: listening'), { timeout: 90_000, interval: 200 });
    expect((await call('POST', '/api/gizmo/gadgets/bulk', [{ code: 'x' }, { code: 'x' }])).status).toBe(201);

    // made unique over duplicates: refused, printed, and the last good server keeps serving
    let before = dev.out.length;
    p.write('gizmo/gadget.json', gadget({ unique: true }));
    await vi.waitFor(() => expect(dev.out.slice(before)).toContain('the new schema was not applied'), { timeout: 60_000, interval: 200 });
    expect(dev.out.slice(before)).toContain("refused: gizmo/gadget.code is to be unique, but 1 value(s) occur more than once: 'x' (2 rows)");
    expect(dev.out.slice(before)).not.toContain('the server stopped');
    const rows = (await call('GET', '/api/gizmo/gadgets')).body.data as { id: string; code: string }[];
    expect(rows.map((r) => r.code)).toEqual(['x', 'x']);
    expect((await call('GET', '/api/health')).status).toBe(200);

    // the rows fixed through the running server: the change is picked up without touching the manifest
    before = dev.out.length;
    expect((await call('PATCH', `/api/gizmo/gadgets/${rows[1].id}`, { code: 'y' })).status).toBe(200);
    await vi.waitFor(() => expect(dev.out.slice(before)).toMatch(/restarting on the new schema\n(.*\n)*dev-server: listening/), { timeout: 90_000, interval: 200 });
    expect((await call('POST', '/api/gizmo/gadgets', { code: 'y' })).status).toBe(409);

    // refused again, then the manifest fixed: the unapplied migration is replaced and served
    before = dev.out.length;
    p.write('gizmo/gadget.json', gadget({ unique: true, minLength: 2 }));
    await vi.waitFor(() => expect(dev.out.slice(before)).toContain("gets a new rule (minLength 2), but 2 stored row(s) break it"), { timeout: 60_000, interval: 200 });
    expect((await call('GET', '/api/gizmo/gadgets')).status).toBe(200);
    before = dev.out.length;
    p.write('gizmo/gadget.json', gadget({ unique: true, minLength: 1 }));
    await vi.waitFor(() => expect(dev.out.slice(before)).toMatch(/restarting on the new schema\n(.*\n)*dev-server: listening/), { timeout: 90_000, interval: 200 });
    expect((await call('POST', '/api/gizmo/gadgets', { code: '' })).status).toBe(400);
    expect(((await call('GET', '/api/gizmo/gadgets')).body.data as unknown[]).length).toBe(2);
    expect(dev.out).not.toContain('the server stopped');
  }, 300_000);
});

/** two dev servers side by side: each its own Vite cache folder, and HMR on its own HTTP port */
describe('two dev servers side by side', () => {
  const servers: ChildProcess[] = [];
  const dbs = scratchProject();
  afterAll(async () => {
    for (const s of servers) if (s.pid) try { process.kill(s.pid, 'SIGTERM'); } catch { /* gone */ }
    await new Promise((r) => setTimeout(r, 500));
    dbs.remove();
  });

  /** the HTTP upgrade Vite's client asks for, answered on the server's own port */
  const hmrUpgrade = (port: number) => new Promise<number>((resolve, reject) => {
    const req = (require('node:http') as typeof import('node:http')).request({ host: '127.0.0.1', port, path: '/', headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', 'sec-websocket-protocol': 'vite-hmr' } });
    req.on('upgrade', (res, socket) => { socket.destroy(); resolve(res.statusCode ?? 0); });
    req.on('response', (res) => resolve(res.statusCode ?? 0));
    req.on('error', reject);
    req.end();
  });

  it('both serve the admin through Vite, each with HMR on its own port and its own cache', async () => {
    const ports = [await freePort(), await freePort()];
    const logs = ['', ''];
    ports.forEach((port, i) => {
      const s = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'dev-server.ts')], {
        cwd: ROOT,
        env: { ...process.env, NODE_ENV: 'development', PORT: String(port), HOST: '127.0.0.1', WEB: 'vite', LOG_LEVEL: 'silent', DATABASE_URL: `file:${join(dbs.dir, `side-${i}.db`)}`, RBAC_SECRET_KEY: 'dev-secret-key-0123456789', RBAC_JWT_SECRET: 'dev-jwt-secret-0123456789', REDIS_URL: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      s.stdout!.on('data', (b: Buffer) => (logs[i] += b.toString()));
      s.stderr!.on('data', (b: Buffer) => (logs[i] += b.toString()));
      servers.push(s);
    });
    for (const i of [0, 1]) await vi.waitFor(() => expect(logs[i]).toContain('dev-server: listening'), { timeout: 120_000, interval: 200 });
    for (const port of ports) {
      const admin = await fetch(`http://127.0.0.1:${port}/admin/`);
      expect(admin.status).toBe(200);
      expect(await admin.text()).toContain('/@vite/client');
      const client = await fetch(`http://127.0.0.1:${port}/@vite/client`);
      expect(client.status).toBe(200);
      expect(await hmrUpgrade(port)).toBe(101);
    }
    const { existsSync } = await import('node:fs');
    for (const port of ports) expect(existsSync(join(ROOT, '.tmp', 'vite', String(port)))).toBe(true);
  }, 240_000);
});
