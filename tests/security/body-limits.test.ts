import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../engine/codegen.js';
import { sqliteDatabase } from '../helpers/databases.js';
import { bootApp, SECRET, type TestApp } from '../helpers/app.js';
import { GENEROUS, ROUTES } from '../helpers/accounts.js';
import { notification } from '../../plugins/notification/server/index.js';
import { createRbacPlugin } from '../../plugins/rbac/server/index.js';
import { createCrmPlugin } from '../../plugins/crm/server/index.js';
import { fileStorage } from '../../plugins/file-storage/server/index.js';
import { SignJWT } from 'jose';
import { MAX_JSON_DEPTH, PUBLIC_BODY_BYTES, SIGNED_BODY_BYTES, scanJson } from '../../runtime/http/limits.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4c30000000049454e44ae426082', 'hex');
const nested = (levels: number, inner = '1') => '['.repeat(levels) + inner + ']'.repeat(levels);
const json = { 'content-type': 'application/json' };

/**
 * Finding 2 (security trial 2026-11-23): one anonymous request with a 9-million-level nested JSON body
 * (18 MB) stalled every other request for seconds, because bodies were parsed before any limit. Now every
 * body is held to a size by caller (64 KiB anonymous, 4 MiB signed, 20 MiB for an authorized upload) and
 * JSON nesting to 32 levels, both checked before anything parses it.
 */
describe('finding 2: body size and depth limits before parsing', () => {
  let t: TestApp;
  let formId: string;
  let dir: string;
  const form = () => `/api/crm/forms/${formId}/requests`;
  const raw = (path: string, body: BodyInit, headers: Record<string, string> = json, init: RequestInit = {}) =>
    Promise.resolve(t.app.request(path, { method: 'POST', headers, body, ...init })).then(async (r) => ({ status: r.status, body: await r.json() }));

  beforeAll(async () => {
    dir = mkdtempSync(join(ROOT, '.tmp', 'files-'));
    process.env.FILE_STORAGE_DIR = dir;
    t = await bootApp(sqliteDatabase(), { plugins: [notification, createRbacPlugin({ limits: GENEROUS }), createCrmPlugin({ formLimit: { points: 10_000, duration: 60 } }), fileStorage] });
    formId = (await t.call('POST', '/api/crm/forms', { data: { slug: 'limits-form' } })).body.data.id;
    const input = (await t.call('POST', '/api/crm/inputs', { data: { slug: 'limits-name', name: 'name' } })).body.data;
    await t.call('POST', '/api/crm/forms-to-inputs', { data: { formId, inputId: input.id } });
  });
  afterAll(async () => {
    await t?.close();
    delete process.env.FILE_STORAGE_DIR;
    rmSync(dir, { recursive: true, force: true });
  });

  it('finding 2: an 18 MB, 9-million-level body to the public form is a 413 from its length, and the form keeps working', async () => {
    const body = `{"data":{"name":${nested(9_000_000)}}}`;
    const r = await raw(form(), body);
    expect(r.status).toBe(413);
    expect(r.body).toEqual({ message: 'The body is larger than 64 KiB', status: 413 });
    expect((await t.call('POST', form(), { data: { name: 'after' } }, { auth: false })).status).toBe(201);
  });

  it('finding 2: a streamed body without Content-Length is read no further than the limit', async () => {
    let sent = 0;
    const chunk = new TextEncoder().encode('['.repeat(16 * 1024));
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 18_000_000) return controller.close();
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const r = await raw(form(), stream, json, { duplex: 'half' } as RequestInit);
    expect(r.status).toBe(413);
    // the server stopped pulling soon after 64 KiB: it never took in the 18 MB
    expect(sent).toBeLessThan(1024 * 1024);
  });

  it('finding 2: a flat 18 MB body is refused as well, to the form and to registration', async () => {
    const flat = JSON.stringify({ data: { name: 'x'.repeat(18_000_000) } });
    expect((await raw(form(), flat)).status).toBe(413);
    expect((await raw(ROUTES.register, flat)).status).toBe(413);
  });

  it('finding 2: 5 million levels to registration is a 413; 33 levels under the size limit is a 400 before parsing', async () => {
    expect((await raw(ROUTES.register, `{"data":${nested(5_000_000)}}`)).status).toBe(413);
    const deep = await raw(ROUTES.register, `{"data":{"login":${nested(MAX_JSON_DEPTH)},"password":"password123"}}`);
    expect(deep.status).toBe(400);
    expect(deep.body.message).toBe(`The body nests deeper than ${MAX_JSON_DEPTH} levels`);
    const toForm = await raw(form(), `{"data":{"name":${nested(MAX_JSON_DEPTH)}}}`);
    expect(toForm).toMatchObject({ status: 400, body: { message: `The body nests deeper than ${MAX_JSON_DEPTH} levels` } });
    // brackets inside strings are text, not nesting
    expect((await raw(form(), JSON.stringify({ data: { name: '['.repeat(1000) } }))).status).toBe(201);
  });

  it('finding 2: the system key (or a signed session) may send up to 4 MiB of JSON, no deeper than 32 levels', async () => {
    const big = JSON.stringify({ data: { slug: 'big-one', adminTitle: 'x'.repeat(SIGNED_BODY_BYTES) } });
    const r = await raw('/api/ecommerce/products', big, { ...json, 'x-rbac-secret-key': SECRET });
    expect(r).toMatchObject({ status: 413, body: { message: 'The body is larger than 4 MiB' } });
    const fine = await raw('/api/ecommerce/products', JSON.stringify({ data: { slug: 'long-one', adminTitle: 'x'.repeat(PUBLIC_BODY_BYTES * 2) } }), { ...json, 'x-rbac-secret-key': SECRET });
    expect(fine.status).toBe(201);
    const deep = await raw('/api/ecommerce/products', `{"data":{"slug":"deep","adminTitle":"d","title":${nested(40, '"x"')}}}`, { ...json, 'x-rbac-secret-key': SECRET });
    expect(deep.status).toBe(400);
    // the same depth limit holds for the data part of a multipart body
    const multipart = new FormData();
    multipart.set('data', `{"slug":"deep-part","title":${nested(40, '"x"')}}`);
    const part = await t.call('POST', '/api/ecommerce/products', multipart);
    expect(part).toMatchObject({ status: 400, body: { message: `The body nests deeper than ${MAX_JSON_DEPTH} levels` } });
  });

  it('finding 2: a session token signed here that just expired is told to refresh (401, F12); a forged one gets the anonymous limit', async () => {
    const sign = (secret: string, expired: boolean) =>
      new SignJWT({ sid: '00000000-0000-4000-8000-000000000000' }).setProtectedHeader({ alg: 'HS256' }).setSubject('00000000-0000-4000-8000-000000000001')
        .setIssuedAt(Math.floor(Date.now() / 1000) - 3600).setExpirationTime(Math.floor(Date.now() / 1000) - (expired ? 60 : -600)).sign(new TextEncoder().encode(secret));
    const body = JSON.stringify({ data: { slug: 'medium', adminTitle: 'x'.repeat(PUBLIC_BODY_BYTES) } });
    // its session no longer answers: a 401 (the client refreshes on it), not a 413 (tests/security/session-body-limits.test.ts)
    expect((await raw('/api/ecommerce/products', body, { ...json, authorization: `Bearer ${await sign('test-jwt-secret-0123456789', true)}` })).status).toBe(401);
    expect((await raw('/api/ecommerce/products', body, { ...json, authorization: `Bearer ${await sign('another-secret-0123456789', false)}` })).status).toBe(413);
    expect((await raw('/api/ecommerce/products', body, { ...json, cookie: 'rbac.subject.jwt=made-up' })).status).toBe(413);
  });

  it('finding 2: only an authorized upload takes a large multipart body; anyone else is held to the small limit', async () => {
    const file = (bytes: number) => {
      const f = new FormData();
      f.set('file', new Blob([new Uint8Array(Buffer.concat([PNG, Buffer.alloc(bytes)]))], { type: 'image/png' }), 'big.png');
      return f;
    };
    // with its length declared (as browsers send it): refused before a byte is read
    const encoded = new Response(file(1024 * 1024));
    const bytes = new Uint8Array(await encoded.arrayBuffer());
    const declared = await raw('/api/file-storage/files/upload', bytes, { 'content-type': encoded.headers.get('content-type')!, 'content-length': String(bytes.byteLength) });
    expect(declared.status).toBe(413);
    // streamed without a length: the upload's authorization refuses it before reading
    expect((await t.call('POST', '/api/file-storage/files/upload', file(1024 * 1024), { auth: false })).status).toBe(401);
    const system = await t.call('POST', '/api/file-storage/files/upload', file(6 * 1024 * 1024));
    expect(system.status).toBe(201);
    expect(system.body.data.size).toBeGreaterThan(6 * 1024 * 1024);
    // a multipart body to any other route stays within the signed limit
    const other = file(6 * 1024 * 1024);
    other.set('data', '{"slug":"with-file"}');
    expect((await t.call('POST', '/api/ecommerce/products', other)).status).toBe(413);
    // and the public form never takes a large one
    const toForm = file(1024 * 1024);
    toForm.set('name', 'Ann');
    expect((await t.call('POST', form(), toForm, { auth: false })).status).toBe(413);
  });

  it('finding 2: the depth scan is one pass over the text: strings, escapes and depth', () => {
    expect(scanJson(nested(32))).toBeUndefined();
    expect(scanJson(nested(33))).toBe('depth');
    expect(scanJson('{"a":"[[[[\\"[[[[","b":[1]}', 2)).toBeUndefined();
    expect(scanJson('{"a":"x\\u0000y"}')).toBe('nul');
    expect(scanJson('{"a":"x\\\\u0000y"}')).toBeUndefined();
  });
});
