import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { DIALECTS } from '../helpers/databases.js';
import { bootApp, type TestApp } from '../helpers/app.js';
import { createHostPlugin } from '../../plugins/host/server/index.js';

const LINKS = '/api/host/widgets-to-external-widgets';

/**
 * A host widget's link to a module's widget (externalModule + externalWidgetId: polymorphic, so no foreign key) names
 * a widget that exists, and goes with it: a deleted module widget left a link the admin showed as a bare id.
 */
for (const d of DIALECTS) {
  describe(`host links to module widgets on ${d.name}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await bootApp(await d.make(), { plugins: [createHostPlugin()] });
    });
    afterAll(async () => t?.close());

    it('a link to no widget is refused naming externalWidgetId; a link goes when its module widget is deleted', async () => {
      const host = (await t.call('POST', '/api/host/widgets', { data: { adminTitle: 'Slot' } })).body.data;
      const missing = await t.call('POST', LINKS, { data: { widgetId: host.id, externalModule: 'blog', externalWidgetId: randomUUID() } });
      expect(missing.status).toBe(400);
      expect(missing.body.cause).toEqual([expect.objectContaining({ field: 'externalWidgetId', rule: 'reference' })]);
      const blog = (await t.call('POST', '/api/blog/widgets', { data: { adminTitle: 'Latest', variant: 'article-list-default' } })).body.data;
      // the id of another module's widget is no blog widget
      const other = (await t.call('POST', '/api/website-builder/widgets', { data: { adminTitle: 'Hero' } })).body.data;
      expect((await t.call('POST', LINKS, { data: { widgetId: host.id, externalModule: 'blog', externalWidgetId: other.id } })).status).toBe(400);
      const link = await t.call('POST', LINKS, { data: { widgetId: host.id, externalModule: 'blog', externalWidgetId: blog.id } });
      expect(link.status).toBe(201);
      expect((await t.call('PATCH', `${LINKS}/${link.body.data.id}`, { data: { externalWidgetId: randomUUID() } })).status).toBe(400);
      const kept = await t.call('POST', LINKS, { data: { widgetId: host.id, externalModule: 'website-builder', externalWidgetId: other.id } });
      expect(kept.status).toBe(201);

      expect((await t.call('DELETE', `/api/blog/widgets/${blog.id}`)).status).toBe(200);
      expect((await t.call('GET', `${LINKS}/${link.body.data.id}`)).status).toBe(404);
      expect((await t.call('GET', `${LINKS}/${kept.body.data.id}`)).status).toBe(200);
    });
  });
}
