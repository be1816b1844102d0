import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { ROOT } from '../../engine/codegen.js';
import { loadConfig } from '../../runtime/config.js';
import { startServer } from '../../runtime/server.js';
import { plugins } from '../../plugins/index.js';
import type { TestDatabase } from './databases.js';

export const SCREENSHOTS = join(ROOT, '.tmp', 'screenshots');

/** flags that keep a headless Chromium from reaching for the network or the GPU on a closed machine */
const QUIET = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-quic'];

/**
 * The browser playwright-core drives: `CHROMIUM_PATH` when set, otherwise the Chromium that ships inside the
 * `@sparticuz/chromium` npm package (it needs no system package and is unpacked into the temp folder on first
 * use). Never a downloaded browser, and never a skipped test because no browser is installed.
 */
export async function launchBrowser(): Promise<Browser> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  if (process.env.CHROMIUM_PATH) return chromium.launch({ executablePath: process.env.CHROMIUM_PATH, args: QUIET });
  const packaged = (await import('@sparticuz/chromium')).default;
  const args = packaged.args.filter((arg) => arg !== '--single-process');
  return chromium.launch({ executablePath: await packaged.executablePath(), args: [...new Set([...args, ...QUIET])] });
}

/** the real server with the built web apps, on a port of its own */
export async function startTestServer(db: TestDatabase, env: Record<string, string> = {}) {
  const config = loadConfig({ NODE_ENV: 'test', PORT: '0', DATABASE_URL: db.url, RBAC_SECRET_KEY: 'browser-secret-key-0123', RBAC_JWT_SECRET: 'browser-jwt-secret-0123', LOG_LEVEL: 'silent', ...env });
  const running = await startServer({ config, root: ROOT, plugins, web: 'built', seed: env.SEED === 'true' });
  const url = `http://127.0.0.1:${running.port}`;
  const api = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(url + path, { method, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: await res.json() };
  };
  return {
    url,
    api,
    database: running.database,
    /** the Node HTTP server: a test can watch every request it gets ('request' events) */
    http: running.server as import('node:http').Server,
    system: (method: string, path: string, body?: unknown) => api(method, path, body, { 'x-rbac-secret-key': 'browser-secret-key-0123' }),
    async close() {
      await running.close();
      await db.drop();
    },
  };
}

/**
 * Two instances of the demo site on one database (the second leaves dropping it to the first), as two processes
 * behind a load balancer; `page` reads one's home page with whether its page cache answered.
 */
export async function twoInstances(db: TestDatabase, env: Record<string, string>) {
  const a = await startTestServer(db, { SEED: 'true', ...env });
  const b = await startTestServer({ ...db, drop: async () => undefined }, { SEED: 'true', ...env }).catch(async (e) => {
    await a.close();
    throw e;
  });
  const page = async (s: typeof a) => {
    const res = await fetch(s.url + '/');
    return { cache: res.headers.get('x-page-cache'), html: await res.text() };
  };
  return { a, b, page, close: async () => (await b.close(), await a.close()) };
}
