import { describe, it, expect, afterAll } from 'vitest';
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../engine/codegen.js';
import { startServerProcess, type ServerProcess } from '../helpers/process.js';

/**
 * `npm start` in development serves the admin through Vite's middleware, on HOST 0.0.0.0 by default. Vite answers
 * `/@fs/<absolute path>` for any file under its allow list, which by default is the whole project: the SQLite database
 * at ./data/app.db (password hashes, sessions, orders, invoices) and every upload under ./data/files went to any
 * anonymous visitor. Only the code the web apps import may be served.
 */
describe('the development server serves code, never the data beside it', () => {
  const tag = randomBytes(4).toString('hex');
  const db = join(ROOT, 'data', `dev-files-${tag}.db`);
  const upload = join(ROOT, 'data', `dev-files-${tag}`, 'secret.txt');
  let server: ServerProcess | undefined;

  afterAll(async () => {
    server?.child.kill('SIGTERM');
    if (server) await server.exited;
    for (const f of [db, `${db}-wal`, `${db}-shm`]) rmSync(f, { force: true });
    rmSync(join(ROOT, 'data', `dev-files-${tag}`), { recursive: true, force: true });
  });

  it('refuses the database and uploads under the project through /@fs/, and still serves the admin and its modules', async () => {
    mkdirSync(join(ROOT, 'data', `dev-files-${tag}`), { recursive: true });
    writeFileSync(upload, 'uploaded-secret-bytes');
    server = await startServerProcess({ WEB: 'vite', NODE_ENV: 'development', DATABASE_URL: `file:${db}`, FILE_STORAGE_DIR: join(ROOT, 'data', `dev-files-${tag}`), RBAC_SECRET_KEY: 'dev-secret-key-0123456789', RBAC_JWT_SECRET: 'dev-jwt-secret-0123456789', REDIS_URL: '' }, 180_000);
    const get = (path: string) => fetch(`${server!.base}${path}`);

    for (const path of [`/@fs${db}`, `/@fs${db}?raw`, `/@fs${db}?import&raw??`, `/@fs${upload}`, `/@fs${upload}?raw`, `/@fs${join(ROOT, 'package.json')}`]) {
      const res = await get(path);
      const body = await res.text();
      expect(body, path).not.toContain('SQLite format 3');
      expect(body, path).not.toContain('uploaded-secret-bytes');
      expect(body, path).not.toContain('"name": "manifest-platform"');
    }

    // Vite's launch-editor route spawns an editor on the server for any file a visitor names: not served
    const editor = await get(`/__open-in-editor?file=${encodeURIComponent(join(ROOT, 'package.json'))}`);
    expect(editor.status).toBe(404);

    // what the admin and the storefront load keeps working
    const admin = await get('/admin/');
    expect(admin.status).toBe(200);
    expect(await admin.text()).toContain('/@vite/client');
    expect((await get('/@vite/client')).status).toBe(200);
    for (const file of ['web/admin/main.tsx', 'plugins/rbac/web/index.ts', 'engine/links.ts', 'runtime/client/index.ts']) {
      const res = await get(`/@fs${join(ROOT, file)}`);
      expect(res.status, file).toBe(200);
      expect(res.headers.get('content-type'), file).toMatch(/javascript/);
    }
  }, 240_000);
});
