import { ROOT } from '../../engine/codegen.js';
import { loadConfig } from '../../runtime/config.js';
import { prepare } from '../../runtime/server.js';
import type { Plugin } from '../../runtime/plugin.js';
import type { Logger } from 'pino';
import type { TestDatabase } from './databases.js';

export const SECRET = 'test-secret-key-0123456789';

export type TestApp = Awaited<ReturnType<typeof bootApp>>;

/**
 * The real app on a real database, called in-process through app.request():
 * `call('POST', '/api/ecommerce/products', { data })` with the secret key unless `auth: false`.
 */
export async function bootApp(db: TestDatabase, opts: { plugins?: Plugin[]; generatedDir?: string; migrationsDir?: string; env?: Record<string, string>; log?: Logger } = {}) {
  const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: db.url, RBAC_SECRET_KEY: SECRET, RBAC_JWT_SECRET: 'test-jwt-secret-0123456789', LOG_LEVEL: 'silent', ...opts.env });
  const p = await prepare({ config, root: ROOT, plugins: opts.plugins ?? [], seed: false, generatedDir: opts.generatedDir, migrationsDir: opts.migrationsDir, log: opts.log });
  /** with the system key unless `auth: false`, or as a subject with `token` */
  async function call(method: string, path: string, body?: unknown, init: { auth?: boolean; token?: string; headers?: Record<string, string> } = {}) {
    const headers: Record<string, string> = {
      ...(init.auth === false || init.token ? {} : { 'x-rbac-secret-key': SECRET }),
      ...(init.token && { authorization: `Bearer ${init.token}` }),
      ...init.headers,
    };
    let payload: BodyInit | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers['content-type'] ??= 'application/json';
      payload = typeof body === 'string' ? body : JSON.stringify(body);
    }
    const res = await p.app.request(path, { method, headers, body: payload });
    const text = await res.text();
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = text;
    }
    return { status: res.status, body: json, headers: res.headers };
  }
  return {
    ...p,
    config,
    call,
    async close() {
      await p.database.close();
      await db.drop();
    },
  };
}
