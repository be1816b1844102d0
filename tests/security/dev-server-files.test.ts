import { describe, it, expect, afterAll, beforeAll } from 'vitest';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { ROOT } from '../../engine/codegen.js';
import { loadConfig } from '../../runtime/config.js';
import { startServerProcess, type ServerProcess } from '../helpers/process.js';
import { launchBrowser, SCREENSHOTS } from '../helpers/browser.js';

/** whether anything accepts a TCP connection at host:port */
const accepts = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const s = connect(port, host);
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });

/**
 * `npm start` in development serves the admin through Vite's middleware. Vite answers `/@fs/<absolute path>` for any
 * file under its allow list, which by default is the whole project: the SQLite database at ./data/app.db (password
 * hashes, sessions, orders, invoices) and every upload under ./data/files went to any anonymous visitor. Only the code
 * the web apps import may be served (F16: not the server's source either), Vite's error pages name no path of this
 * machine, and a development server listens on this machine only.
 */
describe('the development server serves code, never the data beside it', () => {
  const tag = randomBytes(4).toString('hex');
  const db = join(ROOT, 'data', `dev-files-${tag}.db`);
  const upload = join(ROOT, 'data', `dev-files-${tag}`, 'secret.txt');
  let server: ServerProcess;
  const get = (path: string) => fetch(`${server.base}${path}`);

  beforeAll(async () => {
    mkdirSync(join(ROOT, 'data', `dev-files-${tag}`), { recursive: true });
    writeFileSync(upload, 'uploaded-secret-bytes');
    // HOST empty: the default of a development server
    server = await startServerProcess({ WEB: 'vite', NODE_ENV: 'development', HOST: '', DATABASE_URL: `file:${db}`, FILE_STORAGE_DIR: join(ROOT, 'data', `dev-files-${tag}`), RBAC_SECRET_KEY: 'dev-secret-key-0123456789', RBAC_JWT_SECRET: 'dev-jwt-secret-0123456789', REDIS_URL: '' }, 180_000);
  }, 240_000);

  afterAll(async () => {
    server?.child.kill('SIGTERM');
    if (server) await server.exited;
    for (const f of [db, `${db}-wal`, `${db}-shm`]) rmSync(f, { force: true });
    rmSync(join(ROOT, 'data', `dev-files-${tag}`), { recursive: true, force: true });
  });

  it('refuses the database and uploads under the project through /@fs/, and still serves the admin and its modules', async () => {
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

    // what the admin and the storefront load keeps working; a shared file outside the web folders is served once a
    // web module that imports it has been (as the browser asks for them: the importer first)
    const admin = await get('/admin/');
    expect(admin.status).toBe(200);
    expect(await admin.text()).toContain('/@vite/client');
    expect((await get('/@vite/client')).status).toBe(200);
    for (const file of ['web/admin/main.tsx', 'plugins/rbac/web/index.ts', 'plugins/rbac/web/session.ts', 'engine/links.ts', 'runtime/client/index.ts']) {
      const res = await get(`/@fs${join(ROOT, file)}`);
      expect(res.status, file).toBe(200);
      expect(res.headers.get('content-type'), file).toMatch(/javascript/);
    }
  });

  it("F16: /@fs/ serves no server source: the plugins' server folders, runtime, scripts, tests, migrations, the engine's server side, git", async () => {
    const files = [
      'plugins/rbac/server/index.ts',
      'plugins/rbac/server/passwords.ts',
      'plugins/ecommerce/server/index.ts',
      'plugins/index.ts',
      'runtime/server.ts',
      'runtime/config.ts',
      'runtime/app.ts',
      'engine/codegen.ts',
      'scripts/start.ts',
      'tests/helpers/process.ts',
      'migrations/model.json',
      'generated/model.json',
      'schemas/rbac/identity.json',
      'package.json',
      'tsconfig.json',
      '.git/HEAD',
      '.gitignore',
      // a component test sits in a web folder, and no browser needs it
      'plugins/rbac/web/password-screens.test.tsx',
    ];
    for (const file of files) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      // the file's longest line: its own, not a line of a Vite message
      const line = text.split('\n').map((l) => l.trim()).reduce((a, b) => (b.length > a.length ? b : a));
      for (const suffix of ['', '?raw', '?import', '?url', '?import&raw']) {
        const path = `/@fs${join(ROOT, file)}${suffix}`;
        const res = await get(path);
        const body = await res.text();
        expect(res.status, path).not.toBe(200);
        expect(body, path).not.toContain(line);
      }
    }
  });

  it("F16: Vite's 403 and 404 answers print no absolute path of this machine", async () => {
    const paths = [
      `/@fs${join(ROOT, 'runtime/server.ts')}`,
      `/@fs${join(ROOT, 'package.json')}?raw`,
      `/@fs${join(ROOT, 'plugins/rbac/server/index.ts')}?import`,
      `/@fs${db}`,
      '/@fs/etc/passwd',
      `/@fs${join(ROOT, 'web/no-such-file.tsx')}`,
      `/@fs${join(ROOT, 'plugins/rbac/web/no-such-file.ts')}?import`,
      '/no-such-module.tsx',
      '/@id/no-such-package',
    ];
    for (const path of paths) {
      const res = await get(path);
      const body = await res.text();
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(body, path).not.toContain(ROOT);
      expect(body, path).not.toContain('allow list');
      expect(body, path).not.toMatch(/\/(home|root|work|usr|tmp)\//);
    }
  });

  it('F16: in Chromium the admin and a storefront page load from the development server with no module refused', async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      const refused: string[] = [];
      page.on('response', (r) => r.status() >= 400 && refused.push(`${r.status()} ${r.url()}`));
      page.on('console', (m) => m.type() === 'error' && refused.push(`console: ${m.text()}`));
      await page.goto(`${server.base}/admin/`, { waitUntil: 'networkidle' });
      await page.getByRole('button', { name: 'Login' }).waitFor();
      // a storefront page hydrates: its sign-in form's button (web/ui/form.tsx) waits for that
      await page.goto(`${server.base}/rbac/subject/authentication/select-method`, { waitUntil: 'networkidle' });
      await page.locator('form[data-hydrated]').first().waitFor();
      await page.screenshot({ path: join(SCREENSHOTS, 'f16-dev-storefront.png') });
      expect(refused).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 240_000);

  it('F16: a development server listens on this machine only (127.0.0.1) unless HOST says otherwise; production keeps every interface', async () => {
    // bound to 127.0.0.1: another loopback address (as any other interface) finds nothing listening
    expect(await accepts('127.0.0.1', server.port)).toBe(true);
    expect(await accepts('127.0.0.2', server.port)).toBe(false);
    expect(loadConfig({ NODE_ENV: 'development' }).host).toBe('127.0.0.1');
    expect(loadConfig({}).host).toBe('127.0.0.1');
    expect(loadConfig({ NODE_ENV: 'development', HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(loadConfig({ NODE_ENV: 'production', RBAC_SECRET_KEY: 'k'.repeat(16), RBAC_JWT_SECRET: 'j'.repeat(16) }).host).toBe('0.0.0.0');
    expect(loadConfig({ NODE_ENV: 'production', RBAC_SECRET_KEY: 'k'.repeat(16), RBAC_JWT_SECRET: 'j'.repeat(16), HOST: '10.0.0.5' }).host).toBe('10.0.0.5');
  });
});
