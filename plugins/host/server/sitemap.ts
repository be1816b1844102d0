import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Hono } from 'hono';
import type { PluginContext } from '../../../runtime/plugin.js';
import { encodePath, listedReads, listedWhere, placeholders, segmentsOf } from './pages.js';
import { utf8 } from '../../../runtime/http/wire.js';

/** a sitemap file holds at most this many urls (sitemaps.org) */
export const MAX_SITEMAP_URLS = 50_000;
/** pages that exist to be shown on errors, not to be found */
const NOT_LISTED = new Set(['/404', '/500']);

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
const iso = (d: unknown) => (d instanceof Date ? d : new Date(String(d))).toISOString();

/** the absolute address of a page url in a language: the default language has no prefix (like the storefront's links) */
export function absoluteUrl(ctx: PluginContext, url: string, language: string): string {
  const path = encodePath(url);
  const prefix = language === ctx.model.defaultLanguage ? '' : `/${language}`;
  return `${ctx.config.publicUrl}${prefix}${path === '/' && prefix ? '' : path}`;
}

/**
 * The ids of the pages whose own widgets (not their layouts') show a variant a plugin declared personal
 * (Plugin.noindexWidgets: sign-in, settings, the visitor's orders): one query per module that declared any.
 */
export async function personalPages(ctx: PluginContext, read = new Set<string>()): Promise<Set<string>> {
  const byModule = new Map<string, string[]>();
  for (const key of ctx.noindexWidgets) {
    const at = key.indexOf('/');
    const module = key.slice(0, at);
    byModule.set(module, [...(byModule.get(module) ?? []), key.slice(at + 1)]);
  }
  const onPage = ctx.database.tables['host/pages-to-widgets'];
  const external = ctx.database.tables['host/widgets-to-external-widgets'];
  const pages = new Set<string>();
  for (const [module, variants] of byModule) {
    const widgets = ctx.database.tables[`${module}/widget`];
    if (!widgets) continue;
    for (const id of ['host/pages-to-widgets', 'host/widgets-to-external-widgets', `${module}/widget`]) read.add(id);
    const rows: { pageId: string }[] = await ctx.database.db
      .selectDistinct({ pageId: onPage.pageId })
      .from(onPage)
      .innerJoin(external, eq(external.widgetId, onPage.widgetId))
      .innerJoin(widgets, eq(widgets.id, external.externalWidgetId))
      .where(and(eq(external.externalModule, module), inArray(widgets.variant, variants)));
    for (const r of rows) pages.add(r.pageId);
  }
  return pages;
}

/**
 * Every url the site answers, with when it last changed: each page, and each page with an entity segment once
 * per row of that entity (the segment filled in with the row's value). Error pages are left out, and so are the
 * pages for the visitor alone (personalPages: they are sent with robots noindex).
 */
export async function sitemapEntries(ctx: PluginContext, read = new Set<string>()): Promise<{ url: string; lastmod: Date }[]> {
  const t = ctx.database.tables['host/page'];
  read.add('host/page');
  const pages: { id: string; url: string; updatedAt: Date }[] = await ctx.database.db.select({ id: t.id, url: t.url, updatedAt: t.updatedAt }).from(t).orderBy(asc(t.url));
  const personal = await personalPages(ctx, read);
  const marks = placeholders(ctx);
  const out: { url: string; lastmod: Date }[] = [];
  for (const page of pages) {
    if (NOT_LISTED.has(page.url) || personal.has(page.id)) continue;
    const segs = segmentsOf(page.url);
    const i = segs.findIndex((s) => s.startsWith('['));
    if (i < 0) {
      out.push({ url: '/' + segs.join('/'), lastmod: new Date(page.updatedAt) });
      continue;
    }
    const mark = marks.find((m) => m.token === segs[i]);
    if (!mark) continue; // a segment of a private or unknown entity: not a public url
    for (const id of listedReads(ctx, mark.entity.id)) read.add(id);
    const et = ctx.database.tables[mark.entity.id];
    const rows: { v: string | null; updatedAt: Date }[] = await ctx.database.db
      .select({ v: et[mark.field], updatedAt: et.updatedAt })
      .from(et)
      .where(listedWhere(ctx, mark.entity.id, et))
      .orderBy(asc(et[mark.field]));
    for (const row of rows) {
      if (!row.v) continue;
      const lastmod = new Date(Math.max(new Date(page.updatedAt).getTime(), new Date(row.updatedAt).getTime()));
      out.push({ url: '/' + segs.map((s, j) => (j === i ? row.v : s)).join('/'), lastmod });
    }
  }
  return out;
}

/**
 * An answer about the site kept like a page (the storefront's `kept`): made once, dropped by a write to an entity it
 * read (`read`, filled while it is made) or a revalidation of its path; its validator computed once.
 */
export type KeptAnswer = (key: string, make: (read: Set<string>) => Promise<Uint8Array<ArrayBuffer>>) => Promise<{ body: Uint8Array<ArrayBuffer>; etag: string }>;

/** sitemap.xml's text: every page url per language, absolute from PUBLIC_URL, with its alternates */
async function sitemapXml(ctx: PluginContext, read: Set<string>): Promise<string> {
  const languages = ctx.model.languages;
  const entries = await sitemapEntries(ctx, read);
  const fit = Math.floor(MAX_SITEMAP_URLS / languages.length);
  if (entries.length > fit) ctx.log.warn({ urls: entries.length * languages.length }, `sitemap.xml lists the first ${MAX_SITEMAP_URLS} urls only`);
  const urls = entries.slice(0, fit).flatMap(({ url, lastmod }) => {
    const alternates = [
      ...languages.map((l) => `    <xhtml:link rel="alternate" hreflang="${xml(l)}" href="${xml(absoluteUrl(ctx, url, l))}"/>`),
      `    <xhtml:link rel="alternate" hreflang="x-default" href="${xml(absoluteUrl(ctx, url, ctx.model.defaultLanguage))}"/>`,
    ].join('\n');
    return languages.map((l) => `  <url>\n    <loc>${xml(absoluteUrl(ctx, url, l))}</loc>\n    <lastmod>${iso(lastmod)}</lastmod>\n${alternates}\n  </url>`);
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${urls.join('\n')}\n</urlset>\n`;
}

/**
 * GET /sitemap.xml and GET /robots.txt. The sitemap reads every page and every row a page's entity segment names (up
 * to 50,000 urls): it is made once and kept (`kept`) until a write to what it read, so a request costs a lookup.
 */
export function discoveryRoutes(app: Hono, ctx: PluginContext, kept: KeptAnswer) {
  app.get('/sitemap.xml', async () => {
    const { body, etag } = await kept('*:/sitemap.xml', async (read) => utf8(await sitemapXml(ctx, read)));
    return new Response(body, { headers: { 'content-type': 'application/xml; charset=utf-8', 'cache-control': 'public, max-age=3600', etag } });
  });

  app.get('/robots.txt', (c) =>
    c.text(['User-agent: *', 'Allow: /', 'Disallow: /admin/', 'Disallow: /api/', '', `Sitemap: ${ctx.config.publicUrl}/sitemap.xml`, ''].join('\n'), 200, { 'cache-control': 'public, max-age=3600' }),
  );
}
