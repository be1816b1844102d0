import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../engine/codegen.js';
import { DIALECTS } from '../helpers/databases.js';
import { bootApp, type TestApp } from '../helpers/app.js';
import { createFileStoragePlugin } from '../../plugins/file-storage/server/index.js';
import { localDriver } from '../../plugins/file-storage/server/drivers/index.js';
import { dimensionsOf } from '../../plugins/file-storage/server/dimensions.js';

const OG = 'generate-template-opengraph-image';
const ATTACHMENT = 'generate-template-ecommerce-module-product-attachment';
const PNG_MAGIC = '89504e470d0a1a0a';

for (const d of DIALECTS) {
  describe(`generated images on ${d.name}: templates rendered to PNG without a browser`, () => {
    let t: TestApp;
    let dir: string;
    const generate = (data: Record<string, unknown>, auth = true) => t.call('POST', '/api/file-storage/files/generate', { data }, { auth });
    const bytesOf = (file: string) => readFileSync(join(dir, file));
    beforeAll(async () => {
      dir = mkdtempSync(join(ROOT, '.tmp', 'files-'));
      t = await bootApp(await d.make(), { plugins: [createFileStoragePlugin({ driver: localDriver(dir) })], env: { PUBLIC_URL: 'https://shop.example.com' } });
      await t.call('POST', '/api/host/metadata', { data: { title: 'Studio', variant: 'primary' } });
    });
    afterAll(async () => {
      await t?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('a page\'s OpenGraph image: a 1200 × 630 PNG stored as a file row of that variant, found again while the page is unchanged', async () => {
      const page = (await t.call('POST', '/api/host/pages', { data: { url: '/about', title: 'About us', description: 'Who we are and what we make' } })).body.data;
      const r = await generate({ variant: OG, entity: 'host/page', id: page.id });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      expect(r.body.data).toMatchObject({ variant: OG, mimeType: 'image/png', extension: 'png', width: 1200, height: 630, alt: { en: 'About us' } });
      const png = bytesOf(r.body.data.file);
      expect(png.subarray(0, 8).toString('hex')).toBe(PNG_MAGIC);
      expect(dimensionsOf(png, 'image/png')).toEqual({ width: 1200, height: 630 });
      expect(png.length).toBe(r.body.data.size);
      const again = await generate({ variant: OG, entity: 'host/page', id: page.id });
      expect(again.status).toBe(200);
      expect(again.body.data.id).toBe(r.body.data.id);
      // the page changes: a new image replaces the old one, row and object
      await t.call('PATCH', `/api/host/pages/${page.id}`, { data: { title: 'About the studio' } });
      const changed = await generate({ variant: OG, entity: 'host/page', id: page.id });
      expect(changed.status).toBe(201);
      expect(changed.body.data.id).not.toBe(r.body.data.id);
      expect((await t.call('GET', `/api/file-storage/files/${r.body.data.id}`)).status).toBe(404);
      await expect.poll(() => readdirSync(dir)).not.toContain(r.body.data.file);
      expect(readdirSync(dir)).toContain(changed.body.data.file);
    });

    it('an entity\'s image and a product attachment (1080 × 1080), in the language asked, Cyrillic included', async () => {
      const product = (await t.call('POST', '/api/ecommerce/products', { data: { slug: 'lamp', title: { en: 'Lamp', ru: 'Лампа' }, shortDescription: { en: 'A warm light', ru: 'Тёплый свет' } } })).body.data;
      const ru = await generate({ variant: ATTACHMENT, entity: 'ecommerce/product', id: product.id, language: 'ru' });
      expect(ru.status).toBe(201);
      expect(ru.body.data).toMatchObject({ variant: ATTACHMENT, width: 1080, height: 1080, alt: { ru: 'Лампа' } });
      // a language the site has not is refused by name, not drawn in English as if asked for
      const fr = await generate({ variant: ATTACHMENT, entity: 'ecommerce/product', id: product.id, language: 'fr' });
      expect(fr.status).toBe(400);
      expect(fr.body.cause).toEqual([expect.objectContaining({ field: 'language', rule: 'enum' })]);
      expect(dimensionsOf(bytesOf(ru.body.data.file), 'image/png')).toEqual({ width: 1080, height: 1080 });
      const en = await generate({ variant: ATTACHMENT, entity: 'ecommerce/product', id: product.id, language: 'en' });
      expect(en.body.data.id).not.toBe(ru.body.data.id);
      expect(bytesOf(en.body.data.file).equals(bytesOf(ru.body.data.file))).toBe(false);
      const article = (await t.call('POST', '/api/blog/articles', { data: { slug: 'hello', title: { en: 'Hello' } } })).body.data;
      expect((await generate({ variant: OG, entity: 'blog/article', id: article.id })).status).toBe(201);
    });

    it('refuses what it may not show or cannot make, naming the field', async () => {
      const order = (await t.call('POST', '/api/ecommerce/orders', { data: {} })).body.data;
      const article = (await t.call('POST', '/api/blog/articles', { data: { slug: 'not-a-product' } })).body.data;
      const cases: [Record<string, unknown>, number, string][] = [
        [{ variant: OG, entity: 'ecommerce/order', id: order.id }, 400, 'entity'],
        [{ variant: ATTACHMENT, entity: 'blog/article', id: article.id }, 400, 'entity'],
        [{ variant: 'generate-template-ecommerce-module-order-receipt', entity: 'ecommerce/order', id: order.id }, 400, 'variant'],
        [{ variant: OG, entity: 'no/such', id: order.id }, 400, 'entity'],
        [{ variant: OG, entity: 'host/page', id: 'nope' }, 400, 'id'],
      ];
      for (const [data, status, field] of cases) {
        const r = await generate(data);
        expect(r.status, JSON.stringify(data)).toBe(status);
        expect(r.body.cause[0].field, JSON.stringify(data)).toBe(field);
      }
      expect((await generate({ variant: OG, entity: 'host/page', id: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
      expect((await generate({ variant: OG, entity: 'host/page', id: order.id }, false)).status).toBe(401);
      // an entity id that names a member of Object.prototype is no entity like any other
      for (const entity of ['__proto__', 'constructor', 'toString']) {
        const r = await t.app.request(`/api/file-storage/files/opengraph-image?entity=${entity}&id=${order.id}`);
        expect(r.status, entity).toBe(400);
        expect((await r.json()).message, entity).toBe(`entity: no entity ${entity}`);
      }
    });

    it('GET …/opengraph-image (what og:image names) answers the image, drawn on first use and cached without a file row', async () => {
      const page = (await t.call('POST', '/api/host/pages', { data: { url: '/contacts', title: 'Contacts' } })).body.data;
      const before = (await t.call('GET', '/api/file-storage/files/count')).body.data;
      const res = await t.app.request(`/api/file-storage/files/opengraph-image?entity=host/page&id=${page.id}&language=en`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      const bytes = new Uint8Array(await res.arrayBuffer());
      expect(dimensionsOf(bytes, 'image/png')).toEqual({ width: 1200, height: 630 });
      const second = await t.app.request(`/api/file-storage/files/opengraph-image?entity=host/page&id=${page.id}&language=en`);
      expect(second.headers.get('etag')).toBe(res.headers.get('etag'));
      expect(Buffer.from(await second.arrayBuffer()).equals(bytes)).toBe(true);
      expect((await t.call('GET', '/api/file-storage/files/count')).body.data).toBe(before);
      const order = (await t.call('POST', '/api/ecommerce/orders', { data: {} })).body.data;
      expect((await t.app.request(`/api/file-storage/files/opengraph-image?entity=ecommerce/order&id=${order.id}`)).status).toBe(400);
      // each wrong parameter named, with its rule
      const refused = await t.app.request('/api/file-storage/files/opengraph-image?id=42');
      expect(refused.status).toBe(400);
      expect((await refused.json()).cause).toEqual([
        { field: 'entity', rule: 'required', message: 'entity is required' },
        { field: 'id', rule: 'format', message: 'id must be a UUID' },
      ]);
    });
  });
}
