import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { Resvg } from '@resvg/resvg-js';
import { sqliteDatabase } from '../helpers/databases.js';
import { bootApp, type TestApp } from '../helpers/app.js';
import { createFileStoragePlugin, type FileStorageService } from '../../plugins/file-storage/server/index.js';
import type { StorageDriver } from '../../plugins/file-storage/server/drivers/index.js';

/** a real PNG of the given size (drawn by resvg) */
export const png = (width: number, height: number) =>
  Buffer.from(new Resvg(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="${width}" height="${height}" fill="#3b82f6"/></svg>`).render().asPng());
/** a GIF header of 7 × 5 pixels, followed by an empty image */
/** the smallest bytes file-type takes for a PDF */
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
export const gif = Buffer.from('474946383961070005000000003b', 'hex');

export interface DriverHarness {
  driver: StorageDriver;
  /** the keys the store holds, sorted */
  keys(): Promise<string[]>;
  /** the bytes stored under a key, read from the store itself (not through the driver) */
  bytes(key: string): Promise<Buffer | undefined>;
  /** whether a row's file value is an https url (the provider serves it) rather than a key this server serves */
  servesOwnUrls: boolean;
  close(): Promise<void>;
}

const upload = (t: TestApp, method: 'POST' | 'PATCH', path: string, data: Record<string, unknown> | undefined, file?: { bytes: Buffer | string; name: string; type: string }, auth = true) => {
  const form = new FormData();
  if (data) form.set('data', JSON.stringify(data));
  if (file) form.set('file', new Blob([typeof file.bytes === 'string' ? file.bytes : new Uint8Array(file.bytes)], { type: file.type }), file.name);
  return t.call(method, path, form, { auth });
};

/**
 * The one suite every storage driver runs (local, S3 on s3rver, Vercel Blob on its fake): the driver's own
 * contract, then the module through the real app — uploads through the generic create and update routes, the
 * service other modules use, deletes that take the object with them.
 */
export function runStorageCases(name: string, make: () => Promise<DriverHarness>) {
  describe(`file storage: ${name}`, () => {
    let h: DriverHarness;
    let t: TestApp;
    const keyOf = (file: string) => h.driver.keyOf(file)!;
    beforeAll(async () => {
      h = await make();
      t = await bootApp(sqliteDatabase(), { plugins: [createFileStoragePlugin({ driver: h.driver })] });
    });
    afterAll(async () => {
      await t?.close();
      await h?.close();
    });

    it('the driver stores bytes under a key, reads them back, knows its own values and removes them', async () => {
      const bytes = png(4, 3);
      const key = '00000000-0000-4000-8000-000000000001.png';
      const file = await h.driver.put(key, bytes, 'image/png');
      expect(h.driver.keyOf(file)).toBe(key);
      expect((await h.bytes(key))?.equals(bytes)).toBe(true);
      if (h.servesOwnUrls) expect(file).toMatch(/^https:\/\//);
      else expect(Buffer.from((await h.driver.get(key))!).equals(bytes)).toBe(true);
      expect(h.driver.keyOf('https://example.com/00000000-0000-4000-8000-000000000001.png')).toBeUndefined();
      await h.driver.remove('https://example.com/elsewhere.png'); // not ours: left alone, no error
      await h.driver.remove(file);
      expect(await h.keys()).not.toContain(key);
      await h.driver.remove(file); // already gone: no error
    });

    it('put with replace writes over the key (a generated image\'s cache slot): one object, the new bytes', async () => {
      const key = '00000000-0000-4000-8000-000000000002.png';
      const [older, newer] = [png(2, 2), png(3, 3)];
      await h.driver.put(key, older, 'image/png', { replace: true });
      const file = await h.driver.put(key, newer, 'image/png', { replace: true });
      expect((await h.bytes(key))?.equals(newer)).toBe(true);
      expect((await h.keys()).filter((k) => k.includes('00000000-0000-4000-8000-000000000002'))).toEqual([key]);
      expect(h.driver.readsBack).toBe(!h.servesOwnUrls);
      if (h.driver.readsBack) expect(Buffer.from((await h.driver.get(key))!).equals(newer)).toBe(true);
      await h.driver.remove(file);
      expect(await h.keys()).not.toContain(key);
    });

    it('a multipart create fills size, extension, mimeType, width and height from the bytes, and stores the object', async () => {
      const bytes = png(12, 7);
      const r = await upload(t, 'POST', '/api/file-storage/files', { alt: { en: 'A blue box' } }, { bytes, name: 'box.png', type: 'application/octet-stream' });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      expect(r.body.data).toMatchObject({ size: bytes.length, extension: 'png', mimeType: 'image/png', width: 12, height: 7, alt: { en: 'A blue box' }, adminTitle: 'box.png' });
      const key = keyOf(r.body.data.file);
      expect(key).toMatch(/^[0-9a-f-]{36}\.png$/);
      expect((await h.bytes(key))?.equals(bytes)).toBe(true);
      if (h.servesOwnUrls) expect(r.body.data.file).toMatch(/^https:\/\//);
      else {
        // spec §9: a value that does not start with https is served under the public files prefix
        expect(r.body.data.file).toBe(key);
        const res = await t.app.request(`/files/${key}`);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('image/png');
        expect(res.headers.get('x-content-type-options')).toBe('nosniff');
        expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
        // the site's media: other sites may embed it; its length is known, to HEAD too; one byte range is a 206
        expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
        expect(res.headers.get('accept-ranges')).toBe('bytes');
        expect(res.headers.get('content-length')).toBe(String(bytes.length));
        const head = await t.app.request(`/files/${key}`, { method: 'HEAD' });
        expect([head.status, head.headers.get('content-length')]).toEqual([200, String(bytes.length)]);
        const ranged = async (range: string) => t.app.request(`/files/${key}`, { headers: { range } });
        const first = await ranged('bytes=0-9');
        expect([first.status, first.headers.get('content-range'), first.headers.get('content-length')]).toEqual([206, `bytes 0-9/${bytes.length}`, '10']);
        expect(Buffer.from(await first.arrayBuffer()).equals(bytes.subarray(0, 10))).toBe(true);
        const tail = await ranged('bytes=-4');
        expect([tail.status, tail.headers.get('content-range')]).toEqual([206, `bytes ${bytes.length - 4}-${bytes.length - 1}/${bytes.length}`]);
        expect(Buffer.from(await tail.arrayBuffer()).equals(bytes.subarray(bytes.length - 4))).toBe(true);
        const past = await ranged(`bytes=${bytes.length}-`);
        expect([past.status, past.headers.get('content-range')]).toEqual([416, `bytes */${bytes.length}`]);
        for (const range of ['bytes=0-1,5-6', 'lines=1-2', 'bytes=x']) {
          const whole = await ranged(range);
          expect(whole.status, range).toBe(200);
          expect(Buffer.from(await whole.arrayBuffer()).equals(bytes), range).toBe(true);
        }
      }
    });

    it('content decides, not the name: HTML named .png is refused with 415 and nothing is stored or written', async () => {
      const before = await h.keys();
      const rows = (await t.call('GET', '/api/file-storage/files/count')).body.data;
      const r = await upload(t, 'POST', '/api/file-storage/files', {}, { bytes: '<html><script>alert(1)</script></html>', name: 'photo.png', type: 'image/png' });
      expect(r.status).toBe(415);
      expect(r.body.cause[0]).toMatchObject({ field: 'file', rule: 'type' });
      expect(await h.keys()).toEqual(before);
      expect((await t.call('GET', '/api/file-storage/files/count')).body.data).toBe(rows);
    });

    it('a write the generic route refuses (an unknown field) leaves no object behind', async () => {
      const before = await h.keys();
      const r = await upload(t, 'POST', '/api/file-storage/files', { nonsense: 1 }, { bytes: png(2, 2), name: 'x.png', type: 'image/png' });
      expect(r.status).toBe(400);
      expect(r.body.cause[0]).toMatchObject({ field: 'nonsense', rule: 'unknown' });
      expect(await h.keys()).toEqual(before);
    });

    it('without authorization nothing is stored', async () => {
      const before = await h.keys();
      const r = await upload(t, 'POST', '/api/file-storage/files', {}, { bytes: png(2, 2), name: 'x.png', type: 'image/png' }, false);
      expect(r.status).toBe(401);
      expect(await h.keys()).toEqual(before);
    });

    it('a multipart update replaces the bytes and drops the old object; deleting the row deletes the object', async () => {
      const created = await upload(t, 'POST', '/api/file-storage/files', {}, { bytes: png(5, 5), name: 'a.png', type: 'image/png' });
      const oldKey = keyOf(created.body.data.file);
      const updated = await upload(t, 'PATCH', `/api/file-storage/files/${created.body.data.id}`, { containerClassName: 'w-full' }, { bytes: gif, name: 'b.gif', type: 'image/gif' });
      expect(updated.status, JSON.stringify(updated.body)).toBe(200);
      expect(updated.body.data).toMatchObject({ extension: 'gif', mimeType: 'image/gif', width: 7, height: 5, size: gif.length, containerClassName: 'w-full' });
      const newKey = keyOf(updated.body.data.file);
      await expect.poll(() => h.keys()).not.toContain(oldKey);
      expect(await h.keys()).toContain(newKey);
      // a file with no pixel size in place of an image: the old width and height go with the old file
      const pdf = await upload(t, 'PATCH', `/api/file-storage/files/${created.body.data.id}`, {}, { bytes: PDF, name: 'c.pdf', type: 'application/pdf' });
      expect(pdf.status, JSON.stringify(pdf.body)).toBe(200);
      expect(pdf.body.data).toMatchObject({ extension: 'pdf', mimeType: 'application/pdf', width: null, height: null, size: PDF.length });
      const pdfKey = keyOf(pdf.body.data.file);
      expect((await t.call('DELETE', `/api/file-storage/files/${created.body.data.id}`)).status).toBe(200);
      await expect.poll(() => h.keys()).not.toContain(pdfKey);
    });

    it('a JSON row naming an external url is kept as is, and deleting it touches no object', async () => {
      const before = await h.keys();
      const r = await t.call('POST', '/api/file-storage/files', { data: { file: 'https://example.com/picture.png' } });
      expect(r.status).toBe(201);
      expect((await t.call('DELETE', `/api/file-storage/files/${r.body.data.id}`)).status).toBe(200);
      expect(await h.keys()).toEqual(before);
    });

    it('ctx.services.fileStorage stores bytes as a row and removes row and object together', async () => {
      const service = t.ctx.services.fileStorage as FileStorageService;
      const bytes = png(30, 20);
      const row = await service.store({ bytes, name: 'receipt.png', alt: 'Receipt' });
      expect(row).toMatchObject({ adminTitle: 'receipt.png', alt: { en: 'Receipt' }, width: 30, height: 20, mimeType: 'image/png', size: bytes.length });
      const key = keyOf(row.file as string);
      expect((await h.bytes(key))?.equals(bytes)).toBe(true);
      await service.remove(row.id as string);
      expect((await t.call('GET', `/api/file-storage/files/${row.id}`)).status).toBe(404);
      await expect.poll(() => h.keys()).not.toContain(key);
      await expect(service.store({ bytes: new TextEncoder().encode('<svg/>') })).rejects.toMatchObject({ status: 415 });
    });
  });
}
