import type { Context } from 'hono';
import type { Plugin, PluginContext } from '../../../runtime/plugin.js';
import { seedFile } from '../../../runtime/seed-file.js';
import { badRequest } from '../../../runtime/http/errors.js';
import type { Limit } from '../../../runtime/http/rate-limit.js';
import { decodedSegments, findBySegments, pageUrlProblem } from './pages.js';
import { assemble, relationRows, type PlanOf } from './assemble.js';
import { LearnedReads, placeKey } from './reads.js';
import { coversPlan } from '../../../runtime/crud/expand.js';
import type { PageAssets } from './document.js';
import type { PageData } from '../../../web/storefront/page.js';
import { PageCache } from './cache.js';
import { createEventBus } from '../../../runtime/events.js';
import type { KeptAnswer } from './sitemap.js';
import { hostRoutes } from './routes.js';
import type { WriteOperation } from '../../../runtime/crud/hooks.js';
import type { Drizzle } from '../../../runtime/db/index.js';
import { and, eq } from 'drizzle-orm';
import { keptBy, sharedWhilePending } from '../../../runtime/kept.js';
import { utf8, weakEtag } from '../../../runtime/http/wire.js';
import { withQueryInLanguageLinks } from './language-links.js';

/** what a change tells every instance's page cache */
type CacheEvent = { type: 'changed'; entityId: string } | { type: 'revalidate'; path: string; layout: boolean };

/** what runtime/web.ts calls for every page request (not /api, /admin, assets) */
export interface Storefront {
  render(c: Context, assets: PageAssets): Promise<Response>;
  cache: PageCache;
  /** drops cached pages here and, through Redis, on every other instance */
  revalidate(path: string, layout: boolean): void;
  /** a committed write to an entity: drops the pages that read it, here and on every other instance */
  changed(entityId: string, operation: WriteOperation): void;
  /** resolves when cache events from other instances are being received */
  ready: Promise<unknown>;
  /**
   * Rows past the first page of a relation the page at `url` (its path, with or without a language prefix) shows a
   * page at a time: as the page would ship them; undefined when the page or such a relation is not there.
   */
  rows(url: string, query: { at: string; row: string; relation: string; offset: number; limit: number }): Promise<Uint8Array<ArrayBuffer> | undefined>;
  /** an answer about the site (the sitemap, the urls) kept like a page: see sitemap.ts KeptAnswer */
  kept: KeptAnswer;
  /** how many times a page was drawn (assembled and rendered), for tests and diagnostics */
  readonly renders: number;
}

export interface HostOptions {
  /** revalidation calls per client address (default 10 a minute) */
  revalidateLimit?: Limit;
  /** false renders every page (benchmarks of the render path); the cache is on by default */
  pageCache?: boolean;
}

export { DEFAULT_REVALIDATE_LIMIT } from './routes.js';

const made = new WeakMap<PluginContext, Storefront>();
/**
 * the most times one request draws its page while the plan grows: one more than the levels of relations a page
 * expands (runtime/crud/expand.ts, 4 below a widget), so a change that fills a relation at every level is drawn in
 * full at once
 */
const MAX_RENDERS = 6;

let loading: Promise<typeof import('./document.js')> | undefined;
/**
 * The server renderer and every module's widgets, loaded on the first page asked for (or just after the
 * server listens, see warm): the API and the admin do not wait for the storefront's React tree to load.
 */
export function documents(): Promise<typeof import('./document.js')> {
  return (loading ??= Promise.all([import('./document.js'), import('../../web.js').then((web) => web.registerPluginVariants())]).then(([doc]) => doc));
}

/**
 * The decoded segments of a request url's path (decodedSegments of its WHATWG pathname), kept by the url: a page
 * asked again (every cached page) parses no URL. Bounded: cleared when full. The lists are never changed by callers.
 */
const segmentsOf = keptBy(1000, (url: string): string[] | undefined => {
  const segs = decodedSegments(new URL(url).pathname);
  return segs && (Object.freeze(segs) as string[]);
});

/**
 * The storefront: resolves /<language>/<path> to a host page, assembles and renders it on the
 * server, and caches the HTML of pages asked for without a session (their HTML holds no
 * subject's data: account widgets fetch it in the browser).
 */
export function storefrontOf(ctx: PluginContext, options: HostOptions = {}): Storefront {
  let s = made.get(ctx);
  if (s) return s;
  const caching = options.pageCache !== false;
  const cache = new PageCache();
  // page-cache events shared by every instance (runtime/events.ts): a change on one drops the pages every instance
  // cached; when some may have been missed (a Redis outage), every cached page goes
  const bus = createEventBus<CacheEvent>(`${ctx.config.redisPrefix}page-cache`, ctx.config.redisUrl, ctx.log);
  bus.subscribe((e) => (e.type === 'changed' ? cache.changed(e.entityId) : cache.revalidate(e.path, e.layout)));
  bus.onMissed(() => cache.clear());
  // a delete cascades to the rows that point at it: pages that read those are stale too
  const referencing = new Map(ctx.model.entities.map((e) => [e.id, ctx.model.entities.filter((r) => r.fields.some((f) => f.kind === 'reference' && f.target === e.id)).map((r) => r.id)]));

  // what renders read, by widget variant: the next assembly reads only the relations those drew (reads.ts)
  const learned = new LearnedReads();
  let renders = 0;
  const planOf: PlanOf = (entity, root) => learned.plan(ctx.model, entity, root);

  async function page(language: string, segments: string[], assets: PageAssets, error?: PageData['error']) {
    const url = '/' + segments.join('/');
    const resolved = await findBySegments(ctx, segments);
    if (!resolved) return undefined;
    const { renderDocument } = await documents();
    const render = async () => {
      renders++;
      const { data, read, used } = await assemble(ctx, resolved, language, url, planOf);
      const html = renderDocument(error ? { ...data, error } : data, assets, ctx.config.publicUrl, (paths) => learned.add(paths));
      return { html, read, used, data };
    };
    // a render that read outside its plan (a row now has what none had before) is drawn again with the grown plan,
    // until one reads nothing new: each round learns at least one more field or relation, and what it reads of rows
    // it now has can reveal more below them (a relation that was empty gains rows that have rows of their own)
    let drawn = await render();
    for (let round = 1; round < MAX_RENDERS && drawn.used.some((u) => !coversPlan(u.plan, planOf(u.entity, u.root))); round++) drawn = await render();
    return drawn;
  }

  /**
   * The answer to a page that failed to render (spec §2, §8): the '/500' page looked up by url and drawn
   * from content like any page, else the built-in error screen. Either carries `error`, so the browser
   * revalidates and reloads once. A failed lookup is logged only; no error text reaches the visitor.
   */
  /**
   * The answer to every url no page answers, in a language: the '/404' page drawn from content, else the built-in
   * one, as UTF-8 bytes. Kept per language like a page (`<language>:/404\u0000not-found`, dropped with the '/404'
   * page's reads, or by any write to pages when there is none), so an unknown url costs its lookup and no render;
   * concurrent first requests share one render. A failed render is logged and answered with the built-in page, not
   * kept.
   */
  const notFoundPage = sharedWhilePending(async (language: string, assets: PageAssets): Promise<{ html: Uint8Array<ArrayBuffer>; etag?: string }> => {
    const key = `${language}:/404\u0000not-found`;
    let failed = false;
    const drawn = await page(language, ['404'], assets).catch((e) => {
      failed = true;
      ctx.log.error({ err: e }, "the '/404' page failed: the built-in one is shown");
      return undefined;
    });
    const html = utf8(drawn?.html ?? (await documents()).errorDocument('Page not found'));
    if (!caching || failed) return { html };
    cache.set(key, html, drawn?.read ?? new Set(['host/page']));
    return { html, etag: cache.etag(key) };
  });

  /** where a page shows relations a page at a time, and what finding them read: GET /api/host/pages/rows */
  type Places = { places: Map<string, (rows: unknown[]) => unknown[]>; read: ReadonlySet<string> };
  /**
   * The places of a page, worked out from a render of it (without scripts: only its data and reads matter) and kept
   * beside it, so that a request for rows of a place the page does not have costs a lookup, and one that does costs
   * its rows' reads, never a render. Concurrent first requests share one render.
   */
  const placesOf = sharedWhilePending(async (pageKey: string): Promise<Places | undefined> => {
    const at = pageKey.indexOf(':');
    const language = pageKey.slice(0, at);
    const segments = pageKey.slice(at + 1).split('/').filter(Boolean);
    const drawn = await page(language, segments, '');
    if (!drawn) return undefined;
    const found = { places: (await documents()).pagedPlaces(drawn.data), read: drawn.read };
    if (caching) cache.keepPlaces(pageKey, found, drawn.read);
    return found;
  });

  /** answers about the site kept like pages, made once at a time (discovery: sitemap.ts) */
  const keptAnswers = sharedWhilePending(async (key: string, make: (read: Set<string>) => Promise<Uint8Array<ArrayBuffer>>) => {
    const read = new Set<string>();
    const body = await make(read);
    if (caching) cache.set(key, body, read);
    return { body, etag: cache.etag(key) ?? weakEtag(body) };
  });

  async function errorPage(language: string, assets: PageAssets): Promise<string> {
    const error = { status: 500 };
    try {
      const found = await page(language, ['500'], assets, error);
      if (found) return found.html;
    } catch (e) {
      ctx.log.error({ err: e }, "the '/500' page failed: the built-in error screen is shown");
    }
    const { renderDocument, errorDocument } = await documents();
    try {
      const context = { language, languages: ctx.model.languages, defaultLanguage: ctx.model.defaultLanguage, url: '/500', params: {} };
      return renderDocument({ context, title: 'Something went wrong', meta: {}, before: [], content: [], after: [], error }, assets, ctx.config.publicUrl);
    } catch (e) {
      ctx.log.error({ err: e }, 'the built-in error screen failed: the static one is shown');
      return errorDocument('Something went wrong');
    }
  }

  s = {
    cache,
    ready: bus.ready,
    get renders() {
      return renders;
    },
    async rows(url, query) {
      // the page's own url as its data names it (decoded text, as the client has it): not decoded again
      const segs = url.split('/').filter(Boolean);
      const language = ctx.model.languages.includes(segs[0]) ? segs[0] : ctx.model.defaultLanguage;
      const segments = language === segs[0] ? segs.slice(1) : segs;
      const pageKey = `${language}:/${segments.join('/')}`;
      // kept beside the page: dropped with it, by a change to what it read or a revalidation of its path
      const key = `${pageKey}\u0000rows\u0000${query.at}\u0000${query.row}\u0000${query.relation}\u0000${query.offset}\u0000${query.limit}`;
      const hit = caching ? cache.answer(key) : undefined;
      if (hit) return hit;
      // where the page shows relations a page at a time: kept from a render of it, drawn once
      const found = (caching ? cache.places<Places>(pageKey) : undefined) ?? (await placesOf(pageKey));
      const keepRows = found?.places.get(placeKey(query.at, query.row, query.relation));
      if (!found || !keepRows) return undefined;
      const rows = await relationRows(ctx, query.at, query.row, query.relation, query.offset, query.limit, language, planOf);
      if (!rows) return undefined;
      const body = utf8(JSON.stringify({ data: { rows: keepRows(rows.rows), total: rows.total } }));
      if (caching) cache.keepAnswer(key, body, found.read);
      return body;
    },
    kept(key, make) {
      const hit = caching ? cache.get(key) : undefined;
      if (hit) return Promise.resolve({ body: hit, etag: cache.etag(key)! });
      return keptAnswers(key, make);
    },
    revalidate: (path, layout) => bus.publish({ type: 'revalidate', path, layout }),
    changed(entityId, operation) {
      bus.publish({ type: 'changed', entityId });
      if (operation === 'delete') for (const id of referencing.get(entityId) ?? []) bus.publish({ type: 'changed', entityId: id });
    },
    async render(c, assets) {
      // answers made with a plain header object: hono's c.html would build a Fetch Headers for more than one header,
      // and a cached page is otherwise a lookup (the envelope reads plain headers, runtime/http/envelope.ts)
      const answer = (html: string | Uint8Array<ArrayBuffer>, status: number, extra: Record<string, string> = {}) =>
        new Response(html, { status, headers: { 'content-type': 'text/html; charset=UTF-8', 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff', ...extra } });
      // the raw path, every segment decoded the same way ('%3D' as much as '%22'); a malformed one finds no page
      const segs = segmentsOf(c.req.url);
      const language = segs && ctx.model.languages.includes(segs[0]) ? segs[0] : ctx.model.defaultLanguage;
      // every unknown url: one kept 404 page per language, with its validator (which names its bytes for compression)
      const notFound = async () => {
        const key = `${language}:/404\u0000not-found`;
        const hit = caching ? cache.get(key) : undefined;
        if (hit) return answer(hit, 404, { 'x-page-cache': 'hit', etag: cache.etag(key)! });
        const made = await notFoundPage(language, assets);
        return answer(made.html, 404, { 'x-page-cache': 'miss', ...(made.etag && { etag: made.etag }) });
      };
      if (!segs) return notFound();
      const segments = language === segs[0] ? segs.slice(1) : segs;
      const url = '/' + segments.join('/');
      const key = `${language}:${url}`;
      // every visitor, signed in or not, gets the same HTML (it holds no subject's data: account widgets fetch
      // theirs in the browser), so every visitor is served from the cache; no header or cookie skips it
      const hit = caching ? cache.get(key) : undefined;
      // the page is one for every query, but its language links keep the request's (language-links.ts): such an
      // answer is the cached page with those links changed, and has no validator of its own
      const search = c.req.url.includes('?') ? new URL(c.req.url).search : '';
      if (hit && search) return answer(withQueryInLanguageLinks(new TextDecoder().decode(hit), search), 200, { 'x-page-cache': 'hit' });
      // the validator computed once per cached page (runtime/http/wire.ts answers 304 to it, or leaves it off for a caller with credentials)
      if (hit) return answer(hit, 200, { 'x-page-cache': 'hit', etag: cache.etag(key)! });
      try {
        const rendered = await page(language, segments, assets);
        if (!rendered) return notFound();
        if (search) {
          if (caching) cache.set(key, utf8(rendered.html), rendered.read);
          return answer(withQueryInLanguageLinks(rendered.html, search), 200, { 'x-page-cache': 'miss' });
        }
        // encoded once: the cache keeps these bytes, the validator is their digest, and the socket gets them as they
        // are (a string answer is measured, hashed and encoded again on its way out)
        const html = utf8(rendered.html);
        if (!caching) return answer(html, 200, { 'x-page-cache': 'miss' });
        cache.set(key, html, rendered.read);
        return answer(html, 200, { 'x-page-cache': 'miss', etag: cache.etag(key)! });
      } catch (e) {
        ctx.log.error({ err: e, url }, 'page render failed');
        return answer(await errorPage(language, assets), 500);
      }
    },
  };
  made.set(ctx, s);
  return s;
}

/** the host module: pages, layouts, metadata; the storefront's server rendering */
export function createHostPlugin(options: HostOptions = {}): Plugin {
  return {
    name: 'host',
    // at once, not on the first page: this instance's writes must reach every instance's cache
    routes: (app, ctx) => hostRoutes(app, ctx, storefrontOf(ctx, options), options.revalidateLimit),
    // the page cache is invalidated by a hook on every entity, once the write is committed
    hooks: (ctx) => {
      const checkUrl = (data: { url?: unknown }) => {
        const problem = typeof data.url === 'string' ? pageUrlProblem(ctx, data.url) : undefined;
        if (problem) throw badRequest(problem, [{ field: 'url', rule: 'reference', message: problem }]);
      };
      // a host widget's link to a module's widget names one that exists (when a caller writes it: seeds of several
      // modules are written in any order), and goes when that widget is deleted (the far end is polymorphic: no
      // foreign key does it)
      const externalLinks = ctx.model.byId['host/widgets-to-external-widgets'];
      const checkExternal = async (data: { externalModule?: unknown; externalWidgetId?: unknown }, tx: Drizzle) => {
        const target = ctx.model.byId[`${String(data.externalModule ?? 'website-builder')}/widget`];
        const found = target && typeof data.externalWidgetId === 'string' ? await ctx.repo.get(target, data.externalWidgetId, tx) : undefined;
        if (!found) {
          const message = `externalWidgetId names no ${String(data.externalModule ?? 'website-builder')} widget`;
          throw badRequest(message, [{ field: 'externalWidgetId', rule: 'reference', message }]);
        }
      };
      return {
        '*': {
          afterCommit: ({ entity, operation }) => storefrontOf(ctx).changed(entity.id, operation),
          async afterDelete(previous, { entity, tx }) {
            if (entity.name !== 'widget' || entity.module === 'host') return;
            const t = ctx.database.tables[externalLinks.id];
            const stale: { id: string }[] = await tx.select({ id: t.id }).from(t).where(and(eq(t.externalModule, entity.module), eq(t.externalWidgetId, previous.id as string)));
            for (const { id } of stale) await ctx.repo.delete(externalLinks, id, tx);
          },
        },
        // a page url's entity segment names a field pages can be found by
        'host/page': { beforeCreate: (data) => checkUrl(data), beforeUpdate: (data) => checkUrl(data) },
        'host/widgets-to-external-widgets': {
          beforeCreate: (data, { tx, caller }) => (caller ? checkExternal(data, tx) : undefined),
          beforeUpdate: (data, { tx, caller, previous }) =>
            caller && ('externalModule' in data || 'externalWidgetId' in data) ? checkExternal({ ...previous, ...data }, tx) : undefined,
        },
      };
    },
    services: (ctx) => ({ storefront: { render: (c: Context, assets: PageAssets) => storefrontOf(ctx).render(c, assets), warm: documents } }),
    seed: seedFile(new URL('../seed.json', import.meta.url)),
    defaults: seedFile(new URL('../defaults.json', import.meta.url)),
  };
}

export const host = createHostPlugin();
