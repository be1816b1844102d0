import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../engine/codegen.js';
import { sqliteDatabase } from '../helpers/databases.js';
import { startTestServer } from '../helpers/browser.js';
import { DOCUMENT_ONLY, securityHeaders } from '../../runtime/http/envelope.js';

/** the directives of a Content-Security-Policy header, by name */
const directives = (csp: string | null) => Object.fromEntries((csp ?? '').split(';').map((d) => d.trim().split(/\s+/)).filter((d) => d[0]).map(([name, ...values]) => [name, values]));

/**
 * Finding 12 (security trial 2026-11-23): no Content-Security-Policy, no frame policy (storefront and admin
 * could be framed), no Referrer-Policy; API answers without nosniff; signed-in answers without
 * `Cache-Control: no-store`. (That the pages work under their policy is tests/browser/csp.test.ts.)
 */
describe('finding 12: security headers', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let jwt: string;
  let subjectId: string;
  const get = (path: string, headers: Record<string, string> = {}) => fetch(server.url + path, { headers, redirect: 'manual' });

  let files: string;
  beforeAll(async () => {
    files = mkdtempSync(join(ROOT, '.tmp', 'files-'));
    process.env.FILE_STORAGE_DIR = files;
    server = await startTestServer(sqliteDatabase(), { SEED: 'true' });
    const res = await fetch(server.url + '/api/rbac/subjects/authentication/email-and-password/registration', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data: { login: 'headers@example.com', password: 'password123' } }),
    });
    // an answer that sets the session cookie (and holds the tokens) is never stored
    expect(res.headers.get('cache-control')).toBe('no-store');
    jwt = (await res.json()).data.jwt;
    subjectId = (await (await get('/api/rbac/subjects/authentication/me', { authorization: `Bearer ${jwt}` })).json()).data.id;
  });
  afterAll(async () => {
    await server?.close();
    delete process.env.FILE_STORAGE_DIR;
    rmSync(files, { recursive: true, force: true });
  });

  const framing = (res: Response) => {
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(directives(res.headers.get('content-security-policy'))['frame-ancestors']).toEqual(["'none'"]);
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  };

  it('finding 12: API answers carry nosniff, a frame policy, a referrer policy and a CSP that allows nothing', async () => {
    const article = (await (await get('/api/blog/articles?limit=1')).json()).data[0].id;
    for (const path of ['/api/health', '/api/blog/articles?limit=1', '/api/no/such/route', `/api/blog/articles/${article}`, '/api/ecommerce/products/6f1c2a40-0000-4000-8000-000000000301']) {
      const res = await get(path);
      framing(res);
      expect(directives(res.headers.get('content-security-policy'))['default-src']).toEqual(["'none'"]);
      // JSON is no document: CORP keeps its bytes from other sites' pages; what governs a document is left off
      expect(res.headers.get('content-type'), path).toContain('application/json');
      expect(res.headers.get('cross-origin-resource-policy'), path).toBe('same-origin');
      for (const name of DOCUMENT_ONLY) expect(res.headers.get(name), `${path} ${name}`).toBeNull();
    }
  });

  it('finding 12: storefront pages and the admin carry a CSP without inline scripts, and cannot be framed', async () => {
    for (const path of ['/', '/ru', '/blog/articles/launch-week', '/no/such/page', '/admin/', '/admin/ecommerce/products']) {
      const res = await get(path);
      expect(res.headers.get('content-type'), path).toContain('text/html');
      framing(res);
      // a document carries the whole set
      for (const [name, value] of securityHeaders(false).filter(([n]) => n !== 'content-security-policy')) expect(res.headers.get(name), `${path} ${name}`).toBe(value);
      const csp = directives(res.headers.get('content-security-policy'));
      expect(csp['script-src'], path).toContain("'self'");
      expect(csp['script-src'], path).not.toContain("'unsafe-inline'");
      expect(csp['default-src'], path).toEqual(["'self'"]);
      expect(csp['object-src'], path).toEqual(["'none'"]);
      expect(csp['base-uri'], path).toEqual(["'self'"]);
      expect(csp['form-action'], path).toEqual(["'self'"]);
      // the storefront runs no eval at all; only the admin's form validation (ajv) needs it
      if (!path.startsWith('/admin')) expect(csp['script-src'], path).toEqual(["'self'"]);
    }
    // served files keep their own, stricter policy
    const upload = new FormData();
    upload.set('file', new Blob([new Uint8Array(Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4c30000000049454e44ae426082', 'hex'))], { type: 'image/png' }), 'a.png');
    const stored = await (await fetch(server.url + '/api/file-storage/files/upload', { method: 'POST', body: upload, headers: { 'x-rbac-secret-key': 'browser-secret-key-0123' } })).json();
    expect((await get(stored.data.url)).headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
  });

  it('finding 12: every answer to a request with a session is no-store: /me, identities, pages', async () => {
    const bearer = { authorization: `Bearer ${jwt}` };
    const cookie = { cookie: `rbac.subject.jwt=${jwt}` };
    for (const [path, headers] of [
      ['/api/rbac/subjects/authentication/me', bearer],
      ['/api/rbac/subjects/authentication/me', cookie],
      [`/api/rbac/subjects/${subjectId}/identities`, bearer],
      ['/', cookie],
      ['/api/blog/articles?limit=1', bearer],
      // even a made-up one: the answer may differ from the anonymous one, so nothing keeps it
      ['/api/rbac/subjects/authentication/me', { authorization: 'Bearer made-up' }],
    ] as const) {
      const res = await get(path, headers);
      expect(res.headers.get('cache-control'), `${path} ${Object.keys(headers)}`).toBe('no-store');
    }
    // visitors' pages stay cacheable by revalidation, and built assets stay immutable for everyone
    expect((await get('/')).headers.get('cache-control')).toBe('no-cache');
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(await (await get('/')).text())![1];
    expect((await get(script, cookie)).headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });
});
