import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../engine/codegen.js';
import { DIALECTS } from '../helpers/databases.js';
import { bootApp, SECRET, type TestApp } from '../helpers/app.js';
import { GENEROUS } from '../helpers/accounts.js';
import { notification } from '../../plugins/notification/server/index.js';
import { createRbacPlugin } from '../../plugins/rbac/server/index.js';
import { createCrmPlugin } from '../../plugins/crm/server/index.js';
import { fileStorage } from '../../plugins/file-storage/server/index.js';
import { MAX_PART_NAME } from '../../runtime/crud/body.js';

const BOUNDARY = 'f08-boundary-7c1d';

/** a multipart body written out by hand: a client may put any bytes in a part's name, which FormData would escape */
function multipart(parts: { name: string; value: string; filename?: string; type?: string }[]): Uint8Array<ArrayBuffer> {
  const text = parts
    .map((p) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${p.name}"${p.filename === undefined ? '' : `; filename="${p.filename}"`}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ''}\r\n${p.value}\r\n`)
    .join('');
  return new TextEncoder().encode(`${text}--${BOUNDARY}--\r\n`);
}

/** names no field is called: NUL, other control characters, and absurd lengths */
const BAD_NAMES: [string, string][] = [
  ['na\u0000me', 'nul'],
  ['\u0000', 'nul'],
  ['na\u0001me', 'control'],
  ['tab\there', 'control'],
  ['esc\u001b[31m', 'control'],
  ['del\u007f', 'control'],
  ['c1\u0085', 'control'],
  ['x'.repeat(MAX_PART_NAME + 1), 'maxLength'],
  ['y'.repeat(20_000), 'maxLength'],
];

/**
 * F08 (red-team of the running server): a NUL byte in a multipart part's *name* on the public CRM form answered 500
 * on PostgreSQL (the name became a key of the stored JSON payload, which PostgreSQL refuses). Part names are now
 * checked as values are, wherever a form is read (`readForm`, runtime/crud/body.ts): NUL, another control character
 * or a name longer than MAX_PART_NAME is a 400 naming the rule, before anything is stored.
 */
for (const d of DIALECTS) {
  describe(`F08: form part names are checked like values (${d.name})`, () => {
    let t: TestApp;
    let formId: string;
    let dir: string;
    const form = () => `/api/crm/forms/${formId}/requests`;
    const post = async (path: string, body: BodyInit, headers: Record<string, string>) => {
      const res = await t.app.request(path, { method: 'POST', headers, body });
      return { status: res.status, body: await res.json().catch(() => undefined) };
    };
    const asMultipart = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };
    const count = async (path: string) => (await t.call('GET', `${path}/count`)).body.data as number;

    beforeAll(async () => {
      dir = mkdtempSync(join(ROOT, '.tmp', 'files-'));
      process.env.FILE_STORAGE_DIR = dir;
      t = await bootApp(await d.make(), { plugins: [notification, createRbacPlugin({ limits: GENEROUS }), createCrmPlugin({ formLimit: { points: 10_000, duration: 60 } }), fileStorage] });
      formId = (await t.call('POST', '/api/crm/forms', { data: { slug: 'f08-form' } })).body.data.id;
      const input = (await t.call('POST', '/api/crm/inputs', { data: { slug: 'f08-name', name: 'name' } })).body.data;
      await t.call('POST', '/api/crm/forms-to-inputs', { data: { formId, inputId: input.id } });
    });
    afterAll(async () => {
      await t?.close();
      delete process.env.FILE_STORAGE_DIR;
      rmSync(dir, { recursive: true, force: true });
    });

    it('F08: the public CRM form refuses a part name with NUL, a control character or an absurd length with a 400 naming the rule; nothing is stored', async () => {
      const before = await count('/api/crm/requests');
      for (const [name, rule] of BAD_NAMES) {
        const r = await post(form(), multipart([{ name: 'name', value: 'Visitor' }, { name, value: 'x' }]), asMultipart);
        expect(r.status, JSON.stringify(name.slice(0, 20))).toBe(400);
        expect(r.body.cause, JSON.stringify(name.slice(0, 20))).toEqual([expect.objectContaining({ field: 'form', rule })]);
        // the name is not echoed back, in any spelling
        expect(JSON.stringify(r.body)).not.toContain(JSON.stringify(name).slice(1, -1));
      }
      // the same names in a form-encoded body
      for (const [name, rule] of BAD_NAMES.filter(([, rule]) => rule !== 'nul')) {
        const r = await post(form(), `name=Visitor&${encodeURIComponent(name)}=x`, { 'content-type': 'application/x-www-form-urlencoded' });
        expect([r.status, r.body.cause?.[0]?.rule], JSON.stringify(name.slice(0, 20))).toEqual([400, rule]);
      }
      expect(await count('/api/crm/requests')).toBe(before);
      // a name any form may have is taken, unusual letters included
      const fine = await post(form(), multipart([{ name: 'name', value: 'Visitor' }, { name: 'utm_source: лето 2026 ✓', value: 'x' }]), asMultipart);
      expect(fine.status, JSON.stringify(fine.body)).toBe(201);
      expect(await count('/api/crm/requests')).toBe(before + 1);
    });

    it('F08: a generic multipart create refuses the same names and stores no row', async () => {
      const system = { ...asMultipart, 'x-rbac-secret-key': SECRET };
      const before = await count('/api/ecommerce/products');
      for (const [name, rule] of BAD_NAMES) {
        const r = await post('/api/ecommerce/products', multipart([{ name: 'data', value: JSON.stringify({ slug: `f08-${rule}` }) }, { name, value: 'x' }]), system);
        expect([r.status, r.body.cause?.[0]?.rule], JSON.stringify(name.slice(0, 20))).toEqual([400, rule]);
      }
      // a file part whose file name holds NUL or a control character, on the file-storage create
      const files = await count('/api/file-storage/files');
      for (const filename of ['a\u0000.png', 'a\u0007.png']) {
        const r = await post('/api/file-storage/files', multipart([{ name: 'data', value: '{}' }, { name: 'file', value: 'GIF89a', filename, type: 'image/gif' }]), system);
        expect(r.status, JSON.stringify(filename)).toBe(400);
        expect(r.body.cause[0]).toMatchObject({ field: 'file' });
      }
      expect(await count('/api/file-storage/files')).toBe(files);
      expect(await count('/api/ecommerce/products')).toBe(before);
      const fine = await post('/api/ecommerce/products', multipart([{ name: 'data', value: JSON.stringify({ slug: 'f08-fine' }) }]), system);
      expect(fine.status, JSON.stringify(fine.body)).toBe(201);
      expect(await count('/api/ecommerce/products')).toBe(before + 1);
    });
  });
}
