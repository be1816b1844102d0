import { and, asc, type SQL } from 'drizzle-orm';
import type { Entity } from '../../../engine/model.js';
import type { PluginContext } from '../../../runtime/plugin.js';

type Row = Record<string, unknown> & { id: string };

/** '/blog/articles/x' → ['blog', 'articles', 'x']; '/' → [] */
export const segmentsOf = (url: string) => url.split('?')[0].split('/').filter(Boolean);

/**
 * The segments of a request path, each percent-decoded in full (decodeURIComponent: '%3D' is '=' as much
 * as '%22' is '"'), split before decoding so that an encoded '/' cannot make a segment of its own.
 * Undefined for a malformed escape or a segment that decodes to something holding '/'.
 */
export function decodedSegments(rawPath: string): string[] | undefined {
  try {
    const segments = rawPath.split('/').filter(Boolean).map(decodeURIComponent);
    return segments.some((s) => s.includes('/')) ? undefined : segments;
  } catch {
    return undefined;
  }
}

/** a url made of decoded segments, percent-encoded again for an href or a meta url */
export const encodePath = (url: string) => '/' + segmentsOf(url).map(encodeURIComponent).join('/');

export interface Placeholder {
  token: string;
  /** both spellings of the segment without brackets: 'blog.article.slug' and 'blog.articles.slug' */
  names: string[];
  /** 'blog.article' */
  key: string;
  entity: Entity;
  field: string;
}

const placeholdersByModel = new WeakMap<object, Placeholder[]>();
/**
 * The entity segments a page url may hold: '[<module>.<entity>.<field>]', or the route form
 * '[<module>.<route>.<field>]' (reference content writes '[blog.articles.slug]'), for every public entity's
 * unique text field (slugs). Known up front, so that resolving a url is a lookup on the unique url index,
 * not a scan of the pages.
 */
export function placeholders(ctx: PluginContext): Placeholder[] {
  let found = placeholdersByModel.get(ctx.model);
  if (!found) placeholdersByModel.set(ctx.model, (found = placeholdersOf(ctx)));
  return found;
}

/** every placeholder the model allows (placeholders: once per model) */
function placeholdersOf(ctx: PluginContext): Placeholder[] {
  return ctx.model.entities.flatMap((e) =>
    e.access !== 'public'
      ? []
      : e.fields.filter((f) => f.unique && f.kind === 'text' && !f.secret).flatMap((f) => {
          const names = [...new Set([`${e.module}.${e.name}.${f.name}`, `${e.module}.${e.route}.${f.name}`])];
          return names.map((name) => ({ token: `[${name}]`, names, key: `${e.module}.${e.name}`, entity: e, field: f.name }));
        }),
  );
}

export interface Resolved {
  page: Row;
  /** rows the entity segments name, by '<module>.<entity>' (no prototype: look up own keys only) */
  params: Record<string, Row>;
  /** the value of each entity segment, by its placeholder without brackets ('blog.article.slug'; no prototype) */
  values: Record<string, string>;
}

/** an object without a prototype: a key such as '__proto__' or 'constructor' finds nothing it was not given */
const bare = <T>(entries: [string, T][] = []): Record<string, T> => Object.assign(Object.create(null) as Record<string, T>, Object.fromEntries(entries));

/**
 * The page for a url (with or without its language prefix): an exact match, else a page whose url has one entity segment where the
 * request has a value that names an existing row (e.g. /blog/articles/[blog.article.slug]).
 * Every candidate url goes into one IN query on the unique url index; the row is one lookup on
 * its unique field.
 */
export async function findByUrl(ctx: PluginContext, rawUrl: string): Promise<Resolved | undefined> {
  const segments = segmentsOf(rawUrl);
  // a url as the storefront writes it may start with a language code (spec: internal links are prefixed with the
  // language), which the storefront serves as the same page in that language; pages are stored without it
  return findBySegments(ctx, segments.length && ctx.model.languages.includes(segments[0]) ? segments.slice(1) : segments);
}

/** findByUrl for a url already split into (decoded) segments */
export async function findBySegments(ctx: PluginContext, segments: string[]): Promise<Resolved | undefined> {
  const url = '/' + segments.join('/');
  const pageEntity = ctx.model.byId['host/page'];
  const marks = placeholders(ctx);
  const candidates = new Map<string, { index: number; mark: Placeholder } | null>([[url, null]]);
  segments.forEach((_, index) => {
    for (const mark of marks) {
      const s = [...segments];
      s[index] = mark.token;
      candidates.set('/' + s.join('/'), { index, mark });
    }
  });
  const pages = (await ctx.repo.readIn(ctx.database.primary, pageEntity, 'url', [...candidates.keys()])) as Row[];
  const exact = pages.find((p) => p.url === url);
  if (exact) return { page: exact, params: bare(), values: bare() };
  for (const page of pages) {
    const c = candidates.get(page.url as string);
    if (!c) continue;
    const [row] = (await ctx.repo.readIn(ctx.database.primary, c.mark.entity, c.mark.field, [segments[c.index]])) as Row[];
    // the value answers to either spelling of the segment (url-segment-value?segment=[blog.articles.slug])
    if (row) return { page, params: bare([[c.mark.key, row]]), values: bare(c.mark.names.map((n) => [n, segments[c.index]])) };
  }
  return undefined;
}

/**
 * What a module says of its rows as pages (a service's `listedOnPages`, by entity id): only the rows the condition
 * holds for are listed among the site's urls (/api/host/pages/urls, the sitemap). Their pages still answer at their
 * urls. The accounts module lists no subject without a sign-in method (the anonymous session of each visitor).
 */
export type ListedOnPages = Record<string, (table: Record<string, unknown>) => SQL>;

/** the condition an entity's rows are listed on (every module's that has one), for its table */
export function listedWhere(ctx: PluginContext, entityId: string, table: Record<string, unknown>): SQL | undefined {
  const conditions = Object.values(ctx.services).flatMap((s) => {
    const listed = (s as { listedOnPages?: ListedOnPages } | undefined)?.listedOnPages;
    return listed && Object.hasOwn(listed, entityId) ? [listed[entityId](table)] : [];
  });
  return and(...conditions);
}

/**
 * The entities a list of an entity's rows as pages reads (`listedWhere`): the entity, and when a module narrows which
 * of its rows are pages, the relations that point at it (the accounts module lists subjects that have a login: their
 * `rbac/subjects-to-identities` rows). A kept list (the sitemap, the urls) is dropped by a write to one of them.
 */
export function listedReads(ctx: PluginContext, entityId: string): string[] {
  const narrowed = Object.values(ctx.services).some((s) => {
    const listed = (s as { listedOnPages?: ListedOnPages } | undefined)?.listedOnPages;
    return !!listed && Object.hasOwn(listed, entityId);
  });
  if (!narrowed) return [entityId];
  return [entityId, ...ctx.model.entities.filter((e) => e.relation && e.fields.some((f) => f.kind === 'reference' && f.target === entityId)).map((e) => e.id)];
}

/**
 * every url the site answers: pages, with each entity segment filled in by every (listed) row's value; `read` gets the
 * entities read
 */
export async function allUrls(ctx: PluginContext, read = new Set<string>()): Promise<{ url: string; segments: string[] }[]> {
  const t = ctx.database.tables['host/page'];
  read.add('host/page');
  const pages: { url: string }[] = await ctx.database.db.select({ url: t.url }).from(t).orderBy(asc(t.url));
  const marks = placeholders(ctx);
  const out: string[] = [];
  for (const { url } of pages) {
    const segs = segmentsOf(url);
    const i = segs.findIndex((s) => s.startsWith('['));
    const mark = i >= 0 ? marks.find((m) => m.token === segs[i]) : undefined;
    if (i < 0) {
      out.push(url);
      continue;
    }
    if (!mark) continue;
    for (const id of listedReads(ctx, mark.entity.id)) read.add(id);
    const et = ctx.database.tables[mark.entity.id];
    const values: Record<string, string>[] = await ctx.database.db.select({ v: et[mark.field] }).from(et).where(listedWhere(ctx, mark.entity.id, et)).orderBy(asc(et[mark.field]));
    for (const { v } of values) out.push('/' + segs.map((s, j) => (j === i ? v : s)).join('/'));
  }
  return out.map((url) => ({ url, segments: segmentsOf(url) }));
}

/**
 * Why a page url could never be matched, or undefined: at most one segment may be an entity segment, and it must be
 * one the model offers ('[blog.article.slug]': a unique text field of a public entity, placeholders above); a bracket
 * anywhere else never matches. Checked when a page is written (the host's hook), so a typo is a 400, not a page
 * that answers 404 for every url.
 */
export function pageUrlProblem(ctx: PluginContext, url: string): string | undefined {
  const segments = segmentsOf(url);
  const marked = segments.filter((s) => s.includes('[') || s.includes(']'));
  if (!marked.length) return undefined;
  if (marked.length > 1) return `url may hold one entity segment, not ${marked.length} (${marked.join(', ')})`;
  const [segment] = marked;
  if (!segment.startsWith('[') || !segment.endsWith(']')) return `url's entity segment must be a whole segment in brackets, not '${segment}'`;
  if (placeholders(ctx).some((p) => p.token === segment)) return undefined;
  const example = placeholders(ctx)[0]?.token ?? '[blog.article.slug]';
  return `url's segment ${segment} names no unique text field of a public entity (such as ${example})`;
}
