import type { Hono } from 'hono';
import type { PluginContext } from '../../../runtime/plugin.js';
import { HttpError, badRequest } from '../../../runtime/http/errors.js';
import { readQuery, type QueryParam } from '../../../runtime/http/query-params.js';
import type { Limit } from '../../../runtime/http/rate-limit.js';
import { utf8 } from '../../../runtime/http/wire.js';
import { ROWS_SHOWN } from '../../../web/storefront/paging.js';
import { allUrls, findByUrl } from './pages.js';
import { discoveryRoutes } from './sitemap.js';
import type { Storefront } from './index.js';

/** revalidation calls per client address (HostOptions.revalidateLimit) */
export const DEFAULT_REVALIDATE_LIMIT: Limit = { points: 10, duration: 60 };

/**
 * The host module's routes: discovery (sitemap.ts), page lookups, the rows of long relations and revalidation. Every
 * answer made from pages goes through `storefront` (its page cache).
 */
export function hostRoutes(app: Hono, ctx: PluginContext, storefront: Storefront, revalidateLimit: Limit = DEFAULT_REVALIDATE_LIMIT) {
  discoveryRoutes(app, ctx, storefront.kept);
  const base = '/api/host/pages';
  app.get(`${base}/find-by-url`, async (c) => {
    const { url } = readQuery(c.req.query(), { url: { kind: 'text', required: true } });
    const found = await findByUrl(ctx, url);
    if (!found) throw new HttpError(404, `No page for ${url.slice(0, 200)}`);
    return c.json({ data: found.page });
  });
  /**
   * The rows of a long relation past those a page shipped (its first ROWS_SHOWN; 'Show more' asks for the next):
   * public, as the page is, and kept as the page keeps its rows. `url` is the page's path, `at` and `row` come from the
   * page data's `<relation>$more` and the row that has it, `offset` counts the relation's rows already shown.
   */
  app.get(`${base}/rows`, async (c) => {
    const q = readQuery(c.req.query(), ROWS_QUERY, { strict: true });
    const found = await storefront.rows(q.url, q);
    if (!found) throw new HttpError(404, `The page ${q.url.slice(0, 200)} shows no relation ${q.relation.slice(0, 100)} of row ${q.row} a page at a time`);
    // { data: { rows, total } }, as JSON bytes the page cache keeps
    return new Response(found, { headers: { 'content-type': 'application/json' } });
  });
  // { data: { urls: [{ url, segments }] } }: the shape the spec's clients read (data.urls[].url); every page and every
  // row a page's entity segment names, so it is made once and kept like a page until a write to what it read
  app.get(`${base}/urls`, async () => {
    const { body, etag } = await storefront.kept('*:/api/host/pages/urls', async (read) => utf8(JSON.stringify({ data: { urls: await allUrls(ctx, read) } })));
    return new Response(body, { headers: { 'content-type': 'application/json', etag } });
  });
  app.get(`${base}/url-segment-value`, async (c) => {
    const { url, segment } = readQuery(c.req.query(), { url: { kind: 'text', required: true }, segment: { kind: 'text', required: true } });
    const found = await findByUrl(ctx, url);
    if (!found) throw new HttpError(404, `No page for ${url.slice(0, 200)}`);
    const key = segment.replace(/^\[|\]$/g, '');
    // own keys only: '__proto__' or 'constructor' name no segment
    const value = Object.hasOwn(found.values, key) ? found.values[key] : undefined;
    if (value === undefined) throw new HttpError(404, `The page for ${url.slice(0, 200)} has no segment ${key}`);
    return c.json({ data: value });
  });
  /**
   * Public (spec §7: the storefront's error recovery calls it): drops the cached copies of one page, at a
   * bounded rate per client address. Only the system and admins may drop a whole subtree (type=layout);
   * anyone else's layout request drops the named page alone, and the answer says so. Only they may drop every page
   * that read an entity (tag=<module>/<entity>): anyone else is refused (401, 403).
   */
  const limited = ctx.rateLimit('revalidate', revalidateLimit);
  app.get('/api/revalidation/revalidate', async (c) => {
    // the system and admins are not held back by what others at their address asked
    if (!(await ctx.privileged(c))) await limited(c);
    // ?tag= names an entity ('blog/article', 'blog.articles') — the pages that read it are dropped — or a page path
    const tag = c.req.query('tag');
    if (tag !== undefined) {
      const key = tag.replace('.', '/');
      const entity = ctx.model.entities.find((e) => `${e.module}/${e.name}` === key || `${e.module}/${e.route}` === key);
      if (entity) {
        // every page that read the entity: the system's and admins' to drop, as a subtree is (a visitor names a page)
        if (!(await ctx.privileged(c))) {
          const anonymous = (await ctx.caller(c)).kind === 'anonymous';
          throw new HttpError(anonymous ? 401 : 403, 'Only the system and admins may drop the pages of an entity: name a page path (tag=/…) instead');
        }
        storefront.changed(entity.id, 'update');
        return c.json({ data: { revalidated: true, tag, entity: entity.id } });
      }
      if (!tag.startsWith('/')) throw badRequest(`tag must name an entity (module/entity) or a page path starting with /`, [{ field: 'tag', rule: 'format', message: 'tag must be an entity or a path' }]);
      storefront.revalidate(tag, false);
      return c.json({ data: { revalidated: true, tag, path: tag, type: 'page' } });
    }
    const path = c.req.query('path') ?? '/';
    const asked = c.req.query('type') ?? 'page';
    if (!path.startsWith('/')) throw badRequest('path must start with /', [{ field: 'path', rule: 'format', message: 'path must start with /' }]);
    if (asked !== 'page' && asked !== 'layout') throw badRequest("type must be 'page' or 'layout'", [{ field: 'type', rule: 'enum', message: "type must be 'page' or 'layout'" }]);
    const type = asked === 'layout' && (await ctx.privileged(c)) ? 'layout' : 'page';
    storefront.revalidate(path, type === 'layout');
    return c.json({ data: { revalidated: true, path, type } });
  });
}

/** the most rows one call of GET /api/host/pages/rows answers */
const MAX_ROWS = 100;
/** GET /api/host/pages/rows's parameters */
const ROWS_QUERY = {
  url: { kind: 'text', required: true, path: true },
  at: { kind: 'text', required: true },
  row: { kind: 'text', required: true, uuid: true },
  relation: { kind: 'text', required: true },
  offset: { kind: 'int', min: 0, max: 1_000_000, fallback: 0 },
  limit: { kind: 'int', min: 1, max: MAX_ROWS, fallback: ROWS_SHOWN },
} as const satisfies Record<string, QueryParam>;
