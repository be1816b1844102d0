import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { ROOT } from '../../engine/codegen.js';
import { loadConfig } from '../../runtime/config.js';
import { startServer } from '../../runtime/server.js';
import { plugins } from '../../plugins/index.js';
import type { TestDatabase } from './databases.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);
export const SCREENSHOTS = join(ROOT, '.tmp', 'screenshots');

/** Debian's Chromium, driven by playwright-core; never a downloaded browser */
export async function launchBrowser(): Promise<Browser> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-quic'],
  });
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
    system: (method: string, path: string, body?: unknown) => api(method, path, body, { 'x-rbac-secret-key': 'browser-secret-key-0123' }),
    async close() {
      await running.close();
      await db.drop();
    },
  };
}
