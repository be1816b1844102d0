import type { Context, Hono } from 'hono';
import type { Plugin, PluginContext } from '../../../runtime/plugin.js';
import { seedFile } from '../../../runtime/seed-file.js';
import { HttpError, badRequest } from '../../../runtime/http/errors.js';
import { registerPluginVariants } from '../../web.js';
import { allUrls, findByUrl, segmentsOf } from './pages.js';
import { assemble } from './assemble.js';
import { errorDocument, renderDocument } from './document.js';
import { PageCache } from './cache.js';
import { createCacheBus } from './bus.js';
import type { WriteOperation } from '../../../runtime/crud/hooks.js';

/** what runtime/web.ts calls for every page request (not /api, /admin, assets) */
export interface Storefront {
  render(c: Context, assets: string): Promise<Response>;
  cache: PageCache;
  /** drops cached pages here and, through Redis, on every other instance */
  revalidate(path: string, layout: boolean): void;
  /** a committed write to an entity: drops the pages that read it, here and on every other instance */
  changed(entityId: string, operation: WriteOperation): void;
  /** resolves when cache events from other instances are being received */
  ready: Promise<unknown>;
}

function routes(app: Hono, ctx: PluginContext) {
  // at once, not on the first page: this instance's writes must reach every instance's cache
  storefrontOf(ctx);
  const base = '/api/host/pages';
  app.get(`${base}/find-by-url`, async (c) => {
    const url = c.req.query('url');
    if (!url) throw badRequest('url is required', [{ field: 'url', rule: 'required', message: 'url is required' }]);
    const found = await findByUrl(ctx, url);
    if (!found) throw new HttpError(404, `No page for ${url.slice(0, 200)}`);
    return c.json({ data: found.page });
  });
  app.get(`${base}/urls`, async (c) => c.json({ data: await allUrls(ctx) }));
  app.get(`${base}/url-segment-value`, async (c) => {
    const url = c.req.query('url');
    const segment = c.req.query('segment');
    if (!url || !segment) throw badRequest('url and segment are required');
    const found = await findByUrl(ctx, url);
    if (!found) throw new HttpError(404, `No page for ${url.slice(0, 200)}`);
    const key = segment.replace(/^\[|\]$/g, '');
    const value = found.values[key];
    if (value === undefined) throw new HttpError(404, `The page for ${url.slice(0, 200)} has no segment ${key}`);
    return c.json({ data: value });
  });
  app.get('/api/revalidation/revalidate', (c) => {
    const path = c.req.query('path') ?? '/';
    const type = c.req.query('type') ?? 'page';
    if (!path.startsWith('/')) throw badRequest('path must start with /');
    if (type !== 'page' && type !== 'layout') throw badRequest("type must be 'page' or 'layout'");
    storefrontOf(ctx).revalidate(path, type === 'layout');
    return c.json({ data: { revalidated: true, path, type } });
  });
}

const made = new WeakMap<PluginContext, Storefront>();

/**
 * The storefront: resolves /<language>/<path> to a host page, assembles and renders it on the
 * server, and caches the HTML of pages asked for without a session (their HTML holds no
 * subject's data: account widgets fetch it in the browser).
 */
export function storefrontOf(ctx: PluginContext): Storefront {
  let s = made.get(ctx);
  if (s) return s;
  registerPluginVariants();
  const cache = new PageCache();
  const bus = createCacheBus(ctx.config.redisUrl, ctx.log, (e) => (e.type === 'changed' ? cache.changed(e.entityId) : cache.revalidate(e.path, e.layout)));
  // a delete cascades to the rows that point at it: pages that read those are stale too
  const referencing = new Map(ctx.model.entities.map((e) => [e.id, ctx.model.entities.filter((r) => r.fields.some((f) => f.kind === 'reference' && f.target === e.id)).map((r) => r.id)]));

  async function page(language: string, url: string, assets: string) {
    const resolved = await findByUrl(ctx, url);
    if (!resolved) return undefined;
    const { data, read } = await assemble(ctx, resolved, language, url);
    return { html: renderDocument(data, assets), read };
  }

  s = {
    cache,
    ready: bus.ready,
    revalidate: (path, layout) => bus.publish({ type: 'revalidate', path, layout }),
    changed(entityId, operation) {
      bus.publish({ type: 'changed', entityId });
      if (operation === 'delete') for (const id of referencing.get(entityId) ?? []) bus.publish({ type: 'changed', entityId: id });
    },
    async render(c, assets) {
      const segs = segmentsOf(c.req.path);
      const language = ctx.model.languages.includes(segs[0]) ? segs[0] : ctx.model.defaultLanguage;
      const url = '/' + (language === segs[0] ? segs.slice(1) : segs).join('/');
      const key = `${language}:${url}`;
      const anonymous = !c.req.header('cookie')?.includes('rbac.subject.jwt') && !c.req.header('authorization');
      const headers = { 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' };
      const hit = anonymous ? cache.get(key) : undefined;
      if (hit) return c.html(hit, 200, { ...headers, 'x-page-cache': 'hit' });
      try {
        const rendered = await page(language, url, assets);
        if (!rendered) {
          const notFound = await page(language, '/404', assets).catch(() => undefined);
          return c.html(notFound?.html ?? errorDocument('Page not found'), 404, headers);
        }
        if (anonymous) cache.set(key, rendered.html, rendered.read);
        return c.html(rendered.html, 200, { ...headers, 'x-page-cache': 'miss' });
      } catch (e) {
        ctx.log.error({ err: e, url }, 'page render failed');
        const fallback = await page(language, '/500', assets).catch(() => undefined);
        return c.html(fallback?.html ?? errorDocument('Something went wrong'), 500, headers);
      }
    },
  };
  made.set(ctx, s);
  return s;
}

/** the host module: pages, layouts, metadata; the storefront's server rendering */
export const host: Plugin = {
  name: 'host',
  routes,
  // the page cache is invalidated by a hook on every entity, once the write is committed
  hooks: (ctx) => ({ '*': { afterCommit: ({ entity, operation }) => storefrontOf(ctx).changed(entity.id, operation) } }),
  services: (ctx) => ({ storefront: { render: (c: Context, assets: string) => storefrontOf(ctx).render(c, assets) } }),
  seed: seedFile(new URL('../seed.json', import.meta.url)),
  defaults: seedFile(new URL('../defaults.json', import.meta.url)),
};
