import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createElement } from 'react';
import { DIALECTS } from '../helpers/databases.js';
import { startTestServer } from '../helpers/browser.js';
import { register } from '../../web/registry.js';
import { targets, useT, type Expanded } from '../../web/storefront/context.js';

/**
 * A page drawn again selects only the fields its widgets read the first time (plugins/host/server/reads.ts); a
 * render that reads a field the assembly did not select is drawn again with it. The widget below reads its
 * buttons arrays' titles only while it has a subtitle, so a change to the widget makes it read a field no render
 * read before.
 */
for (const d of DIALECTS) describe(`a page selects the fields its widgets read (${d.name})`, () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let widgetId: string;
  let shelfWidgetId: string;
  let post: (path: string, data: Record<string, unknown>) => Promise<string>;

  beforeAll(async () => {
    // this file's own process: the variant drawn here is content-map's on this server only
    register('website-builder/widget/content-map', ({ row }: { row: Expanded }) => {
      const t = useT();
      const shown = t(row.subtitle);
      const arrays = targets(row, 'widgetsToButtonsArrays', 'buttonsArray');
      return createElement('section', null, createElement('h2', null, shown || 'no subtitle'), ...arrays.map((a) => createElement('p', { key: String(a.id) }, shown ? `title: ${t(a.title)}` : `slug: ${String(a.slug)}`)));
    });
    // reads its arrays' buttons, two relations down, and draws nothing of a relation that is empty
    register('website-builder/widget/content-divider', ({ row }: { row: Expanded }) => {
      const t = useT();
      const arrays = targets(row, 'widgetsToButtonsArrays', 'buttonsArray');
      return createElement('ul', null, ...arrays.flatMap((a) => targets(a, 'buttonsArraysToButtons', 'button').map((b) => createElement('li', { key: String(b.id) }, `button: ${t(b.title)}`))));
    });
    server = await startTestServer(await d.make());
    post = async (path: string, data: Record<string, unknown>) => {
      const r = await server.system('POST', path, { data });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body.data.id as string;
    };
    const page = await post('/api/host/pages', { adminTitle: 'Fields', url: '/fields' });
    const host = await post('/api/host/widgets', { adminTitle: 'Host widget', slug: 'fields-host' });
    await post('/api/host/pages-to-widgets', { pageId: page, widgetId: host });
    widgetId = await post('/api/website-builder/widgets', { adminTitle: 'Map', slug: 'fields-map', variant: 'content-map' });
    await post('/api/host/widgets-to-external-widgets', { widgetId: host, externalModule: 'website-builder', externalWidgetId: widgetId });
    const shelf = await post('/api/website-builder/buttons-arrays', { adminTitle: 'Shelf', slug: 'shelf', title: { en: 'The shelf title' } });
    await post('/api/website-builder/widgets-to-buttons-arrays', { widgetId, buttonsArrayId: shelf });
    // a second page whose widget has no buttons arrays yet
    const shelfPage = await post('/api/host/pages', { adminTitle: 'Shelf', url: '/shelf' });
    const shelfHost = await post('/api/host/widgets', { adminTitle: 'Shelf host', slug: 'shelf-host' });
    await post('/api/host/pages-to-widgets', { pageId: shelfPage, widgetId: shelfHost });
    shelfWidgetId = await post('/api/website-builder/widgets', { adminTitle: 'Shelf', slug: 'shelf-widget', variant: 'content-divider' });
    await post('/api/host/widgets-to-external-widgets', { widgetId: shelfHost, externalModule: 'website-builder', externalWidgetId: shelfWidgetId });
  });
  afterAll(async () => server?.close());

  const draw = async (path = '/fields') => {
    const res = await fetch(server.url + path);
    expect(res.status).toBe(200);
    const html = await res.text();
    return { html, data: html.match(/<script id="__PAGE__" type="application\/json">(.*?)<\/script>/s)![1] };
  };

  it('drawn again, the page is the same; a field read for the first time after a change is selected and drawn', async () => {
    const first = await draw();
    expect(first.html).toContain('slug: shelf');
    // the plan learned from the first render: the arrays' titles are not read, and the page is the same without them
    const second = await draw();
    expect(second.html).toBe(first.html);
    expect(second.data).not.toContain('The shelf title');
    // now the widget reads the arrays' titles, which the last assembly did not select
    expect((await server.system('PATCH', `/api/website-builder/widgets/${widgetId}`, { data: { subtitle: { en: 'Titled' } } })).status).toBe(200);
    const third = await draw();
    expect(third.html).toContain('<h2>Titled</h2>');
    expect(third.html).toContain('title: The shelf title');
    expect(third.data).toContain('The shelf title');
    // and steady from there
    expect((await draw()).html).toBe(third.html);
  });

  it('a relation that was empty gains rows with rows of their own: the first page after the change draws them all', async () => {
    // learned: the relation is read and empty, so the next assembly reads its rows' ids and nothing below them
    expect((await draw('/shelf')).html).not.toContain('button:');
    expect((await draw('/shelf')).html).not.toContain('button:');
    const array = await post('/api/website-builder/buttons-arrays', { adminTitle: 'New shelf', slug: 'new-shelf' });
    const button = await post('/api/website-builder/buttons', { adminTitle: 'Deep', slug: 'deep-button', title: { en: 'The deep button' }, url: '/deep' });
    await post('/api/website-builder/buttons-arrays-to-buttons', { buttonsArrayId: array, buttonId: button });
    await post('/api/website-builder/widgets-to-buttons-arrays', { widgetId: shelfWidgetId, buttonsArrayId: array });
    // two relations below the one that was empty, each learned on the way: drawn in full on the first request
    const after = await draw('/shelf');
    expect(after.html).toContain('<li>button: The deep button</li>');
    expect(after.data).toContain('The deep button');
    expect((await draw('/shelf')).html).toBe(after.html);
  });
});
