import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../engine/codegen.js';
import { DIALECTS } from '../helpers/databases.js';
import { bootApp, type TestApp } from '../helpers/app.js';
import { GENEROUS, ROUTES } from '../helpers/accounts.js';
import { notification } from '../../plugins/notification/server/index.js';
import { createRbacPlugin } from '../../plugins/rbac/server/index.js';
import { createFileStoragePlugin } from '../../plugins/file-storage/server/index.js';
import { localDriver, type StorageDriver } from '../../plugins/file-storage/server/drivers/index.js';
import { dimensionsOf } from '../../plugins/file-storage/server/dimensions.js';

const OG = '/api/file-storage/files/opengraph-image';
const FILES = '/api/file-storage/files';

/**
 * F05: `GET /api/rbac/subjects/authentication/init` mints a subject for any visitor, and `GET …/opengraph-image` of a
 * subject rendered a 1200 × 630 PNG, stored it with a public file row, and kept both after the subject was deleted:
 * an anonymous visitor made the server draw and store without bound. Generated OpenGraph images are now a cache —
 * one object per (row, language), holding the version it shows, written over when the row changes, removed with the
 * row, and no file row — and only rows that are pages of the site (not an anonymous subject) have one.
 */
for (const d of DIALECTS) {
  describe(`generated OpenGraph images are a bounded cache on ${d.name}`, () => {
    let t: TestApp;
    let dir: string;
    /** the local driver, counting what is written to it */
    const puts: string[] = [];
    const anon = (path: string, headers: Record<string, string> = {}) => t.app.request(path, { headers });
    const objects = () => readdirSync(dir).sort();
    const fileRows = async () => (await t.call('GET', `${FILES}/count`)).body.data as number;
    const ogOf = (id: string, language = 'en') => `${OG}?entity=rbac/subject&id=${id}&language=${language}`;
    async function member(login: string) {
      const r = await t.call('POST', ROUTES.register, { data: { login, password: 'password123' } }, { auth: false });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return (await t.call('GET', ROUTES.me, undefined, { token: r.body.data.jwt })).body.data.id as string;
    }

    beforeAll(async () => {
      dir = mkdtempSync(join(ROOT, '.tmp', 'og-files-'));
      const local = localDriver(dir);
      const driver: StorageDriver = { ...local, put: (key, bytes, mime, options) => (puts.push(key), local.put(key, bytes, mime, options)) };
      t = await bootApp(await d.make(), {
        plugins: [notification, createRbacPlugin({ limits: GENEROUS }), createFileStoragePlugin({ driver })],
        env: { PUBLIC_URL: 'https://shop.example.com' },
      });
    });
    afterAll(async () => {
      await t?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('F05: repeated anonymous requests for a subject\'s image draw it once, store one object and no file row, and revalidate by ETag', async () => {
      const id = await member(`og-${d.name}@example.com`);
      const [before, rows, written] = [objects(), await fileRows(), puts.length];
      // five at once share one drawing; five more are served from the cache
      const first = await Promise.all(Array.from({ length: 5 }, () => anon(ogOf(id))));
      const again = await Promise.all(Array.from({ length: 5 }, () => anon(ogOf(id))));
      const answers = [...first, ...again];
      expect(answers.map((r) => r.status)).toEqual(Array(10).fill(200));
      const bodies = await Promise.all(answers.map(async (r) => Buffer.from(await r.arrayBuffer())));
      expect(answers[0].headers.get('content-type')).toBe('image/png');
      expect(dimensionsOf(bodies[0], 'image/png')).toEqual({ width: 1200, height: 630 });
      expect(bodies.every((b) => b.equals(bodies[0]))).toBe(true);
      const etag = answers[0].headers.get('etag')!;
      expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
      expect(new Set(answers.map((r) => r.headers.get('etag')))).toEqual(new Set([etag]));
      expect(answers[0].headers.get('cache-control')).toBe('public, max-age=600');
      expect(answers[0].headers.get('x-content-type-options')).toBe('nosniff');
      // one object, written once; no file row
      expect(puts.length - written).toBe(1);
      const added = objects().filter((o) => !before.includes(o));
      expect(added).toHaveLength(1);
      expect(readFileSync(join(dir, added[0])).equals(bodies[0])).toBe(true);
      expect(await fileRows()).toBe(rows);
      // a crawler asking again with the tag gets a 304 without a body
      const revalidated = await anon(ogOf(id), { 'if-none-match': etag });
      expect(revalidated.status).toBe(304);
      expect((await revalidated.arrayBuffer()).byteLength).toBe(0);
      // another language is another slot (a bound: the site's languages)
      expect((await anon(ogOf(id, 'ru'))).status).toBe(200);
      expect(objects().filter((o) => !before.includes(o))).toHaveLength(2);
    });

    it('F05: an update draws a new version over the old object: the old bytes are gone', async () => {
      const id = await member(`og-update-${d.name}@example.com`);
      const before = objects();
      const old = await anon(ogOf(id));
      const oldBytes = Buffer.from(await old.arrayBuffer());
      const [slot] = objects().filter((o) => !before.includes(o));
      expect((await t.call('PATCH', `/api/rbac/subjects/${id}`, { data: { adminTitle: 'Renamed studio' } })).status).toBe(200);
      const renewed = await anon(ogOf(id));
      expect(renewed.status).toBe(200);
      expect(renewed.headers.get('etag')).not.toBe(old.headers.get('etag'));
      const newBytes = Buffer.from(await renewed.arrayBuffer());
      expect(newBytes.equals(oldBytes)).toBe(false);
      // the same one object, now holding the new version; the old tag is no longer a match
      expect(objects().filter((o) => !before.includes(o))).toEqual([slot]);
      expect(readFileSync(join(dir, slot)).equals(newBytes)).toBe(true);
      expect(objects().some((o) => readFileSync(join(dir, o)).equals(oldBytes))).toBe(false);
      expect((await anon(ogOf(id), { 'if-none-match': old.headers.get('etag')! })).status).toBe(200);
    });

    it('F05: an anonymous subject (authentication/init) has no image: 404, nothing drawn or stored', async () => {
      const session = await t.call('GET', ROUTES.init, undefined, { auth: false });
      const id = (await t.call('GET', ROUTES.me, undefined, { token: session.body.data.jwt })).body.data.id as string;
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      const [before, rows, written] = [objects(), await fileRows(), puts.length];
      for (let i = 0; i < 3; i++) {
        const r = await anon(ogOf(id));
        expect(r.status).toBe(404);
        expect((await r.json()).message).toBe(`No rbac/subject with id ${id}`);
      }
      expect(objects()).toEqual(before);
      expect(puts.length).toBe(written);
      expect(await fileRows()).toBe(rows);
      // nor through the file writers' route, which makes file rows
      const generated = await t.call('POST', `${FILES}/generate`, { data: { variant: 'generate-template-opengraph-image', entity: 'rbac/subject', id } });
      expect(generated.status).toBe(404);
      expect(await fileRows()).toBe(rows);
    });

    it('F05: deleting the row removes what was generated for it: its cached images and its generated file rows', async () => {
      const id = await member(`og-delete-${d.name}@example.com`);
      const before = objects();
      for (const language of ['en', 'ru']) expect((await anon(ogOf(id, language))).status).toBe(200);
      const generated = await t.call('POST', `${FILES}/generate`, { data: { variant: 'generate-template-opengraph-image', entity: 'rbac/subject', id } });
      expect(generated.status).toBe(201);
      expect(objects().filter((o) => !before.includes(o))).toHaveLength(3);
      const rows = await fileRows();
      expect((await t.call('DELETE', `/api/rbac/subjects/${id}`)).status).toBe(200);
      await expect.poll(() => objects().filter((o) => !before.includes(o))).toEqual([]);
      await expect.poll(() => fileRows()).toBe(rows - 1);
      expect((await t.call('GET', `${FILES}/${generated.body.data.id}`)).status).toBe(404);
      expect((await anon(ogOf(id))).status).toBe(404);
      expect(objects().filter((o) => !before.includes(o))).toEqual([]);
    });
  });
}
