import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../engine/codegen.js';
import { sqliteDatabase } from '../helpers/databases.js';
import { bootApp, type TestApp } from '../helpers/app.js';
import { fileStorage } from '../../plugins/file-storage/server/index.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4c30000000049454e44ae426082', 'hex');
const upload = (t: TestApp, bytes: Buffer | string, name: string, type: string, auth = true) => {
  const form = new FormData();
  form.set('file', new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)], { type }), name);
  return t.call('POST', '/api/file-storage/files/upload', form, { auth });
};

/** uploads are judged by their bytes; stored names are generated; files are served with nosniff */
describe('file uploads', () => {
  let t: TestApp;
  let dir: string;
  const stored = () => readdirSync(dir);
  beforeAll(async () => {
    dir = mkdtempSync(join(ROOT, '.tmp', 'files-'));
    process.env.FILE_STORAGE_DIR = dir;
    t = await bootApp(sqliteDatabase(), { plugins: [fileStorage] });
  });
  afterAll(async () => {
    await t?.close();
    delete process.env.FILE_STORAGE_DIR;
    rmSync(dir, { recursive: true, force: true });
  });

  it('stores an image under a generated name and serves it with its type, nosniff and a strict CSP', async () => {
    const r = await upload(t, PNG, '../../../etc/evil.png', 'image/png');
    expect(r.status).toBe(201);
    expect(r.body.data).toMatchObject({ mimeType: 'image/png', extension: 'png', size: PNG.length, url: expect.stringMatching(/^\/files\/[0-9a-f-]{36}\.png$/) });
    expect(stored()).toEqual([r.body.data.url.slice('/files/'.length)]);
    const res = await t.app.request(r.body.data.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it('refuses HTML, SVG and scripts whatever their name or declared type, and writes nothing', async () => {
    const before = stored();
    for (const [bytes, name, type] of [
      ['<html><script>alert(1)</script></html>', 'photo.png', 'image/png'],
      ['<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>', 'logo.svg', 'image/svg+xml'],
      ['alert(1)', 'x.jpg', 'image/jpeg'],
    ] as const) {
      const r = await upload(t, bytes, name, type);
      expect(r.status, name).toBe(415);
      expect(r.body.cause[0]).toMatchObject({ field: 'file', rule: 'type' });
    }
    expect(stored()).toEqual(before);
  });

  it('without authorization: 401 and no file', async () => {
    const before = stored();
    expect((await upload(t, PNG, 'a.png', 'image/png', false)).status).toBe(401);
    expect(stored()).toEqual(before);
  });

  it('only generated names are served: traversal and other names are 404', async () => {
    for (const path of ['/files/..%2F..%2Fpackage.json', '/files/%2e%2e%2fpackage.json', '/files/package.json', '/files/00000000-0000-4000-8000-000000000000.png', '/files/00000000-0000-4000-8000-000000000000.html']) {
      const res = await t.app.request(path);
      expect(res.status, path).toBe(404);
    }
  });
});
