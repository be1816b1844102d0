import { describe, it, expect, afterAll } from 'vitest';
import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { codegen, ROOT } from '../../engine/codegen.js';
import { scratchProject, snapshotFiles } from '../helpers/schemas.js';
import { manifestSkeleton, newEntity, newModule, plural } from '../../scripts/scaffold.js';

/** npm run new: a manifest skeleton, and a module with an empty plugin and a widget stub, that codegen accepts */
describe('scaffolding', () => {
  const p = scratchProject({ copySchemas: true });
  mkdirSync(join(p.dir, 'plugins'), { recursive: true });
  for (const f of ['index.ts', 'web.ts']) cpSync(join(ROOT, 'plugins', f), join(p.dir, 'plugins', f));
  afterAll(() => p.remove());

  it('routes are plurals', () => {
    expect(['event', 'category', 'box', 'gadget', 'key'].map(plural)).toEqual(['events', 'categories', 'boxes', 'gadgets', 'keys']);
  });

  it('<module>/<entity>: a manifest with a comment on every option, which codegen turns into a table and routes', async () => {
    const written = newEntity('events/event', { root: p.dir });
    expect(written).toEqual([join(p.schemasDir, 'events', 'event.json')]);
    const manifest = JSON.parse(readFileSync(written[0], 'utf8'));
    expect(manifest).toMatchObject({ name: 'event', route: 'events', title: 'Event' });
    expect(manifest.$comment).toContain('/api/events/events');
    for (const [name, field] of Object.entries(manifest.fields as Record<string, { $comment?: string }>)) expect(field.$comment, name).toBeTruthy();
    const result = await codegen({ schemasDir: p.schemasDir, outDir: p.outDir, migrationsDir: p.migrationsDir });
    expect(result.model.byId['events/event'].fields.map((f) => f.name)).toEqual(expect.arrayContaining(['adminTitle', 'slug', 'title', 'description', 'isPublished']));
    expect(readFileSync(join(p.outDir, 'types.ts'), 'utf8')).toContain('export interface EventsEvent {');
    expect(() => newEntity('events/event', { root: p.dir })).toThrow('exists already');
    expect(() => newEntity('Events/event', { root: p.dir })).toThrow('kebab-case');
  });

  it('<module>: widget entity, empty plugin, a widget stub that renders, wired into the plugin and web lists', async () => {
    const written = newModule('gallery', { root: p.dir, webRoot: ROOT });
    for (const f of written) expect(existsSync(f), f).toBe(true);
    expect(readFileSync(join(p.dir, 'plugins', 'index.ts'), 'utf8')).toMatch(/import \{ gallery \} from '\.\/gallery\/server\/index\.js';[\s\S]*, gallery\];/);
    const web = readFileSync(join(p.dir, 'plugins', 'web.ts'), 'utf8');
    expect(web).toContain("import { registerGalleryWeb } from './gallery/web/index.js';");
    expect(web).toMatch(/const WEB_MODULES\b[^;]*\n {2}registerNotificationWeb,\n {2}registerGalleryWeb,\n\];/);
    const result = await codegen({ schemasDir: p.schemasDir, outDir: p.outDir, migrationsDir: p.migrationsDir });
    expect(result.model.modules).toContain('gallery');
    const plugin = await import(pathToFileURL(join(p.dir, 'plugins', 'gallery', 'server', 'index.ts')).href);
    expect(plugin.gallery.name).toBe('gallery');
    const { registerGalleryWeb } = await import(pathToFileURL(join(p.dir, 'plugins', 'gallery', 'web', 'index.ts')).href);
    const { PageProvider, Variant } = await import('../../web/storefront/context.js');
    const { loadChunks } = await import('../../web/registry.js');
    registerGalleryWeb();
    await loadChunks();
    const html = renderToString(
      createElement(PageProvider, { value: { language: 'en', languages: ['en', 'ru'], defaultLanguage: 'en', url: '/', params: {} }, children: createElement(Variant, { module: 'gallery', entity: 'widget', row: { id: 'w', variant: 'default', title: { en: 'Our work' } } }) }),
    );
    expect(html).toContain('Our work');
    expect(readFileSync(join(p.dir, 'plugins', 'gallery', 'web', 'widget.test.tsx'), 'utf8')).toContain("registerGalleryWeb");
    expect(() => newModule('gallery', { root: p.dir })).toThrow('exists already');
    // names codegen or the compiler would refuse are refused before anything is written
    const before = snapshotFiles(p.dir, ['plugins', 'schemas']);
    expect(() => newModule('admin', { root: p.dir })).toThrow("the module name 'admin' would shadow /api/admin");
    expect(() => newModule('health', { root: p.dir })).toThrow('would shadow /api/health');
    expect(() => newModule('delete', { root: p.dir })).toThrow("'delete', a JavaScript reserved word");
    expect(() => newModule('plugins', { root: p.dir })).toThrow('a name plugins/index.ts already uses');
    expect(snapshotFiles(p.dir, ['plugins', 'schemas'])).toEqual(before);
  });

  it('the skeleton passes the meta-schema as it is', () => {
    expect(manifestSkeleton('a', 'b').fields).toHaveProperty('adminTitle');
  });
});
