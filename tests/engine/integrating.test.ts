import { describe, it, expect, afterAll } from 'vitest';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { codegen, ROOT } from '../../engine/codegen.js';
import { bootApp } from '../helpers/app.js';
import { sqliteDatabase } from '../helpers/databases.js';
import { scratchProject } from '../helpers/schemas.js';
import { notification } from '../../plugins/notification/server/index.js';
import { createRbacPlugin } from '../../plugins/rbac/server/index.js';
import { GENEROUS } from '../helpers/accounts.js';
import type { Plugin } from '../../runtime/plugin.js';

/** the code blocks of docs/INTEGRATING.md marked with a file name: ```ts file=plugins/events/server/index.ts */
function blocks(): { file: string; text: string }[] {
  const doc = readFileSync(join(ROOT, 'docs', 'INTEGRATING.md'), 'utf8');
  return [...doc.matchAll(/```\w+ file=(\S+)\n([\s\S]*?)```/g)].map((m) => ({ file: m[1], text: m[2] }));
}

/** docs/INTEGRATING.md followed step by step in a scratch project: every file it shows, then what it promises */
describe('docs/INTEGRATING.md', () => {
  const p = scratchProject({ copySchemas: true });
  for (const dir of ['runtime', 'web', 'engine']) symlinkSync(join(ROOT, dir), join(p.dir, dir), 'dir');
  afterAll(() => p.remove());

  it('shows complete files: the manifests, the plugin with a hook and a route, the widget', () => {
    expect(blocks().map((b) => b.file).sort()).toEqual([
      'plugins/events/server/index.ts', 'plugins/events/web/index.ts', 'plugins/events/web/upcoming.tsx', 'schemas/events/event.json', 'schemas/events/widget.json',
    ]);
  });

  it('gives a table, routes, a hook that runs on every write, a public custom route and a widget that renders', async () => {
    for (const b of blocks()) {
      mkdirSync(dirname(join(p.dir, b.file)), { recursive: true });
      writeFileSync(join(p.dir, b.file), b.text);
    }
    await codegen({ schemasDir: p.schemasDir, outDir: p.outDir, migrationsDir: p.migrationsDir });
    const { events } = (await import(pathToFileURL(join(p.dir, 'plugins/events/server/index.ts')).href)) as { events: Plugin };
    const t = await bootApp(sqliteDatabase(), { plugins: [notification, createRbacPlugin({ limits: GENEROUS }), events], generatedDir: p.outDir, migrationsDir: p.migrationsDir });
    try {
      const soon = new Date(Date.now() + 86_400_000).toISOString();
      const made = await t.call('POST', '/api/events/events', { data: { title: { en: 'Launch party', ru: 'Запуск' }, startsAt: soon, capacity: 30 } });
      expect(made.status).toBe(201);
      expect(made.body.data).toMatchObject({ capacity: 30, seatsLeft: 30 }); // the hook
      await t.call('PATCH', `/api/events/events/${made.body.data.id}`, { data: { capacity: 40 } });
      expect((await t.call('GET', `/api/events/events/${made.body.data.id}`)).body.data.seatsLeft).toBe(40);
      // a bulk goes through the same hook
      const bulk = await t.call('POST', '/api/events/events/bulk', { data: [{ startsAt: soon, capacity: 5 }] });
      expect(bulk.body.data[0].seatsLeft).toBe(5);
      // the custom route is public through the permission in the plugin's defaults
      const upcoming = await t.call('GET', '/api/events/events/upcoming', undefined, { auth: false });
      expect(upcoming.status).toBe(200);
      expect(upcoming.body.data.map((e: { title: { en?: string } }) => e.title.en)).toContain('Launch party');
      // the widget, registered under events/widget/upcoming, renders in the page's language
      const { registerEventsWeb } = await import(pathToFileURL(join(p.dir, 'plugins/events/web/index.ts')).href);
      registerEventsWeb();
      const { PageProvider, Variant } = await import('../../web/storefront/context.js');
      await (await import('../../web/registry.js')).loadChunks();
      const html = renderToString(
        createElement(PageProvider, {
          value: { language: 'ru', languages: ['en', 'ru'], defaultLanguage: 'en', url: '/', params: {} },
          children: createElement(Variant, { module: 'events', entity: 'widget', row: { id: 'w', variant: 'upcoming', title: { en: 'Upcoming', ru: 'Скоро' } } }),
        }),
      );
      expect(html).toContain('Скоро');
      expect(html).toContain('Loading');
    } finally {
      await t.close();
    }
  });
});
