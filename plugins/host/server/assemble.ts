import type { Entity } from '../../../engine/model.js';
import type { PluginContext } from '../../../runtime/plugin.js';
import { expand, FIELDS, linksOf, mergePlans, type ExpandPlan } from '../../../runtime/crud/expand.js';
import type { Block, PageData } from '../../../web/storefront/page.js';
import { pick, type Expanded } from '../../../web/storefront/context.js';
import { richTextPlain } from '../../../web/ui/rich-text-view.js';
import { encodePath, type Resolved } from './pages.js';
import { compactRow, linkFields } from './compact.js';
import { blockRoot, paramRoot } from './reads.js';

/** the relations worth reading for rows noted at `root` (reads.ts LearnedReads.plan); undefined reads them all */
export type PlanOf = (entity: Entity, root: string) => ExpandPlan | undefined;
/** a plan an assembly used, by root: the host checks the render read nothing outside it */
export interface UsedPlan {
  entity: Entity;
  root: string;
  plan: ExpandPlan | undefined;
}

type Row = Record<string, unknown> & { id: string };

/**
 * A block's key among the page's blocks (React's, nothing else reads it): stable, from the two link rows that place
 * it (the page's or layout's link to the host widget, the host widget's to the module's), and short, since every
 * page ships it: a 32-bit FNV-1a hash of the two ids in base 36 (a collision, most unlikely, would only make React
 * warn of a repeated key).
 */
export function blockKey(placement: string, external: string): string {
  let h = 0x811c9dc5;
  for (const c of `${placement}:${external}`) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193);
  return (h >>> 0).toString(36);
}

/** the first row made (then by id, so that the choice is the same on every read) */
const earlier = (a: Row, b: Row) => {
  const at = (r: Row) => (r.createdAt instanceof Date ? r.createdAt.getTime() : Number(r.createdAt ?? 0));
  return at(a) < at(b) || (at(a) === at(b) && a.id < b.id);
};

const META_FIELDS: Record<string, string> = {
  description: 'description', keywords: 'keywords', author: 'author', viewport: 'viewport',
  opengraphTitle: 'og:title', opengraphDescription: 'og:description', opengraphUrl: 'og:url', opengraphType: 'og:type',
  opengraphSiteName: 'og:site_name', opengraphLocale: 'og:locale',
  twitterCard: 'twitter:card', twitterSite: 'twitter:site', twitterCreator: 'twitter:creator', twitterTitle: 'twitter:title',
  twitterDescription: 'twitter:description', twitterUrl: 'twitter:url', twitterDomain: 'twitter:domain', twitterAppCountry: 'twitter:app:country',
};
/** what the assembly reads of a metadata row: its tags, the site's title, its slug (its language) and when it was made (the first primary wins) */
const METADATA_READ = ['title', 'slug', 'createdAt', ...Object.keys(META_FIELDS)];

/**
 * The language a metadata row is for: a slug ending in '-<code>' of a configured language other than the default
 * ('site-ru') makes it the translation of the row whose slug is the rest ('site'), over it on pages in that
 * language; any other row is for every language (its texts are the default language's).
 */
export function metadataLanguage(slug: unknown, languages: readonly string[], defaultLanguage: string): string | undefined {
  if (typeof slug !== 'string') return undefined;
  const at = slug.lastIndexOf('-');
  const code = at > 0 ? slug.slice(at + 1) : '';
  return code && code !== defaultLanguage && languages.includes(code) ? code : undefined;
}

/** a description for the head: plain text (rich text's blocks run together), at most about 200 characters */
export function headDescription(value: string): string {
  const text = richTextPlain(value).replace(/\s+/g, ' ').trim();
  if (text.length <= 200) return text;
  const cut = text.slice(0, 200);
  return `${cut.slice(0, cut.lastIndexOf(' ') > 120 ? cut.lastIndexOf(' ') : 200).replace(/[\s.,;:!?—-]+$/, '')}…`;
}

/**
 * A resolved page's data: layouts → their widgets and the page's own → external widgets → each
 * module's widget rows, expanded with their relations. Queries are batched per entity (one per
 * relation and level), never one per widget. `read` collects every entity read, for the page cache.
 */
export async function assemble(ctx: PluginContext, resolved: Resolved, language: string, url: string, planOf: PlanOf = () => undefined): Promise<{ data: PageData; read: Set<string>; used: UsedPlan[] }> {
  const read = new Set<string>();
  const used: UsedPlan[] = [];
  // from the primary: the page may be cached, and must not keep what a lagging read replica says
  const db = ctx.database.primary;
  const { page } = resolved;
  read.add('host/page');

  // the links in relation order, through Repository.readIn (on SQLite, SQL text built once per shape, not per page),
  // with the fields this assembly uses of them (and their id)
  const links = (id: string, field: string, values: unknown[], fields: readonly string[]) => {
    read.add(id);
    return ctx.repo.readIn(db, ctx.model.byId[id], field, values, true, fields) as Promise<Row[]>;
  };
  const layoutLinks = await links('host/pages-to-layouts', 'pageId', [page.id], ['layoutId']);
  const layoutWidgets = layoutLinks.length ? await links('host/layouts-to-widgets', 'layoutId', layoutLinks.map((l) => l.layoutId as string), ['layoutId', 'widgetId', 'orderIndex', 'variant']) : [];
  const layoutOrder = new Map(layoutLinks.map((l, i) => [l.layoutId as string, i]));
  layoutWidgets.sort((a, b) => layoutOrder.get(a.layoutId as string)! - layoutOrder.get(b.layoutId as string)! || (a.orderIndex as number) - (b.orderIndex as number));
  const pageWidgets = await links('host/pages-to-widgets', 'pageId', [page.id], ['widgetId']);

  const hostWidgetIds = [...new Set([...layoutWidgets, ...pageWidgets].map((w) => w.widgetId as string))];
  const externals = hostWidgetIds.length ? await links('host/widgets-to-external-widgets', 'widgetId', hostWidgetIds, ['widgetId', 'externalModule', 'externalWidgetId']) : [];

  // one query per module for its widget rows, then their relations, batched
  const rowsByModule = new Map<string, Map<string, Row>>();
  const byModule = new Map<string, string[]>();
  for (const x of externals) (byModule.get(x.externalModule as string) ?? byModule.set(x.externalModule as string, []).get(x.externalModule as string)!).push(x.externalWidgetId as string);
  for (const [module, ids] of byModule) {
    const entity: Entity | undefined = ctx.model.byId[`${module}/widget`];
    if (!entity || entity.access !== 'public') continue;
    read.add(entity.id);
    const rows = (await ctx.repo.readIn(db, entity, 'id', [...new Set(ids)])) as Row[];
    // one walk for the module's rows: the relations any of their variants drew
    const roots = [...new Set(rows.map((r) => blockRoot(module, r.variant)))];
    const plans = roots.map((root) => planOf(entity, root));
    const plan = plans.reduce<ExpandPlan | undefined>((a, b) => mergePlans(a, b), plans[0]);
    for (const root of roots) used.push({ entity, root, plan });
    await expand(ctx.repo, db, entity, rows, 4, (e) => read.add(e.id), plan, linkFields);
    const compacted = new Map<Row, Record<string, unknown>>();
    rowsByModule.set(module, new Map(rows.map((r) => [r.id, compactRow(ctx.model, entity, r, language, ctx.model.defaultLanguage, compacted) as Row])));
  }
  // each host widget's links to module widgets, in their order (one pass, not a scan of every link per placement)
  const externalsOf = new Map<string, Row[]>();
  for (const x of externals) {
    const list = externalsOf.get(x.widgetId as string);
    if (list) list.push(x);
    else externalsOf.set(x.widgetId as string, [x]);
  }
  const blocksOf = (links: Row[]): Block[] => {
    const blocks: Block[] = [];
    for (const link of links) {
      for (const x of externalsOf.get(link.widgetId as string) ?? []) {
        const widget = rowsByModule.get(x.externalModule as string)?.get(x.externalWidgetId as string) as Expanded | undefined;
        if (widget) blocks.push({ id: blockKey(link.id, x.id), module: x.externalModule as string, widget });
      }
    }
    return blocks;
  };

  const params: Record<string, Expanded> = {};
  for (const [key, found] of Object.entries(resolved.params)) {
    const [module, name] = key.split('.');
    const entity = ctx.model.byId[`${module}/${name}`];
    const row = { ...found }; // expanded and compacted for this page only
    const plan = planOf(entity, paramRoot(key));
    used.push({ entity, root: paramRoot(key), plan });
    await expand(ctx.repo, db, entity, [row], 3, (e) => read.add(e.id), plan, linkFields);
    params[key] = compactRow(ctx.model, entity, row, language, ctx.model.defaultLanguage) as Expanded;
  }

  // site-wide metadata (variant 'primary'), then the page's own over it
  // (through readIn too: the metadata has some thirty columns, and building their select each time cost more than
  // running it)
  const metadata = ctx.model.byId['host/metadata'];
  read.add(metadata.id);
  // each in the page's language: a row, then its translation over it field by field (a text the translation lacks
  // stays the default language's); a translation is the row whose slug is the row's and '-<language>' ('site-ru',
  // metadataLanguage), of any variant, linked to no page
  const forAll = (m: Row) => metadataLanguage(m.slug, ctx.model.languages, ctx.model.defaultLanguage) === undefined;
  const primaries = (await ctx.repo.readIn(db, metadata, 'variant', ['primary'], false, METADATA_READ)) as Row[];
  const site = primaries.filter(forAll).reduce<Row | undefined>((first, m) => (!first || earlier(m, first) ? m : first), undefined);
  const metaLinks = await links('host/pages-to-metadata', 'pageId', [page.id], ['metadataId']);
  const ownRows = metaLinks.length ? ((await ctx.repo.readIn(db, metadata, 'id', [...new Set(metaLinks.map((l) => l.metadataId as string))], false, METADATA_READ)) as Row[]) : [];
  const ownById = new Map(ownRows.map((m) => [m.id, m]));
  const own = metaLinks.map((l) => ownById.get(l.metadataId as string)).filter((m): m is Row => !!m && forAll(m));
  // the page's own description (not its default) is over the site's, and under the page's own metadata rows; it is
  // one text, in the page's `language` (the default language unless set), so it describes the page in that language
  const ownLanguage = typeof page.language === 'string' && page.language ? page.language : ctx.model.defaultLanguage;
  const pageDescription = ownLanguage === language && typeof page.description === 'string' && page.description && page.description !== 'Description' ? page.description : '';
  const pageLayer: Row | undefined = pageDescription ? { id: '', description: pageDescription, opengraphDescription: pageDescription, twitterDescription: pageDescription } : undefined;
  const bases = [site, pageLayer, ...own].filter((m): m is Row => !!m);
  const translated = language !== ctx.model.defaultLanguage && bases.length ? [...new Set(bases.filter((m) => m.slug).map((m) => `${m.slug}-${language}`))] : [];
  const translations = translated.length ? ((await ctx.repo.readIn(db, metadata, 'slug', translated, false, METADATA_READ)) as Row[]) : [];
  const translationOf = new Map(translations.map((m) => [m.slug as string, m]));
  const meta: Record<string, string> = {};
  let siteTitle = '';
  // a page's own metadata row titles the page (before the site's title, as the page's own title is): its
  // translation's title in the page's language first
  let ownTitle = '';
  let ownTitleHere = '';
  for (const base of bases) {
    for (const m of [base, base.slug ? translationOf.get(`${base.slug}-${language}`) : undefined]) {
      if (!m) continue;
      if (base === site && typeof m.title === 'string' && m.title) siteTitle = m.title;
      else if (base !== pageLayer && typeof m.title === 'string' && m.title.trim()) {
        if (m === base) ownTitle = m.title.trim();
        else ownTitleHere = m.title.trim();
      }
      for (const [field, name] of Object.entries(META_FIELDS)) if (typeof m[field] === 'string' && m[field]) meta[name] = m[field] as string;
    }
  }
  // a page about one row (a product, an article, a store…) is titled by that row's title in the page's language
  const [item] = Object.values(resolved.params);
  const itemTitle = item ? pick(item.title, { language, defaultLanguage: ctx.model.defaultLanguage }).trim() : '';
  // a page's title is one text, in the default language; in another language a page about no row is titled by its
  // first content widget that has a title in that language (the heading a visitor reads), else by that text
  const localTitle = () => {
    if (language === ctx.model.defaultLanguage) return '';
    for (const link of pageWidgets) {
      const x = externalsOf.get(link.widgetId as string)?.[0];
      const w = x && rowsByModule.get(x.externalModule as string)?.get(x.externalWidgetId as string);
      const map = w?.title as Record<string, unknown> | undefined;
      if (map && typeof map === 'object' && typeof map[language] === 'string' && (map[language] as string).trim()) return (map[language] as string).trim();
    }
    return '';
  };
  const inDefault = language === ctx.model.defaultLanguage;
  const pageTitle = itemTitle || ownTitleHere || (inDefault && ownTitle) || localTitle() || ownTitle || (page.title as string) || 'Page';
  const title = siteTitle && siteTitle !== pageTitle && page.url !== '/' ? `${pageTitle} | ${siteTitle}` : siteTitle || pageTitle;
  // a page about one row is described by that row, in the page's language, as its card image is (file-storage's
  // cardText): its short description, else its subtitle, else its description
  const itemText = (field: string) => (item ? headDescription(pick(item[field], { language, defaultLanguage: ctx.model.defaultLanguage })) : '');
  const itemDescription = itemText('shortDescription') || itemText('subtitle') || itemText('description');
  if (itemDescription) {
    meta.description = itemDescription;
    meta['og:description'] = itemDescription;
    if (meta['twitter:description']) meta['twitter:description'] = itemDescription;
  }
  meta['og:title'] ??= title;
  if (meta.description) meta['og:description'] ??= meta.description;
  meta['og:locale'] ??= language === 'ru' ? 'ru_RU' : 'en_US';
  meta['og:url'] ??= `${ctx.config.publicUrl}${language === ctx.model.defaultLanguage ? '' : '/' + language}${url === '/' ? '' : encodePath(url)}` || '/';
  // a page without its own og:image uses its generated one: the page's, or the row its url names
  const images = ctx.services.fileStorage as { openGraphImageUrl?: (entity: string, id: string, language: string) => string } | undefined;
  if (!meta['og:image'] && images?.openGraphImageUrl) {
    const [key, row] = Object.entries(resolved.params)[0] ?? [];
    meta['og:image'] = row ? images.openGraphImageUrl(key.replace('.', '/'), row.id, language) : images.openGraphImageUrl('host/page', page.id, language);
    meta['og:image:width'] = '1200';
    meta['og:image:height'] = '630';
    meta['twitter:image'] ??= meta['og:image'];
  }
  // og:url is absolute: a metadata row may give a path
  if (meta['og:url'].startsWith('/')) meta['og:url'] = `${ctx.config.publicUrl}${meta['og:url']}`;

  const isBefore = (w: Row) => w.variant !== 'additional';
  const content = blocksOf(pageWidgets);
  // a page for the visitor alone (its own widgets show a variant a plugin declared personal): not for search engines
  if (content.some((b) => ctx.noindexWidgets.has(`${b.module}/${String(b.widget.variant)}`))) meta.robots = 'noindex';
  const data: PageData = {
    context: { language, languages: ctx.model.languages, defaultLanguage: ctx.model.defaultLanguage, url, params, ...(ctx.config.productName && { product: ctx.config.productName }) },
    title,
    meta,
    before: blocksOf(layoutWidgets.filter(isBefore)),
    content,
    after: blocksOf(layoutWidgets.filter((w) => !isBefore(w))),
  };
  return { data, read, used };
}

/** how many levels of relations a page expands below a widget row and below a row its url names */
const WIDGET_DEPTH = 4;
const PARAM_DEPTH = 3;

/**
 * `limit` rows from `offset` of the relation `relation` of the row `rowId` placed at `at` (reads.ts: a root, then
 * relation keys and far ends), expanded below as the page's plan there expands them and compact as the page's rows
 * are, with how many rows the relation has: GET /api/host/pages/rows, past the first page a page ships. Undefined
 * when `at` names no place in the model or the relation is none of that entity's.
 */
export async function relationRows(ctx: PluginContext, at: string, rowId: string, relation: string, offset: number, limit: number, language: string, planOf: PlanOf): Promise<{ rows: unknown[]; total: number } | undefined> {
  const [root, ...steps] = at.split('.');
  const param = root.startsWith('param:');
  let entity: Entity | undefined = ctx.model.byId[param ? root.slice('param:'.length) : `${root.slice(0, root.indexOf(':'))}/widget`];
  if (!entity || entity.access !== 'public' || (!param && !root.includes(':'))) return undefined;
  let plan = planOf(entity, root);
  let depth = param ? PARAM_DEPTH : WIDGET_DEPTH;
  for (let i = 0; i < steps.length; i += 2) {
    const link: ReturnType<typeof linksOf>[number] | undefined = linksOf(ctx.model, entity).find((l) => l.key === steps[i]);
    if (!link || link.back || steps[i + 1] !== link.end) return undefined;
    entity = link.target;
    plan = plan?.[link.key];
    depth--;
  }
  const link = linksOf(ctx.model, entity).find((l) => l.key === relation);
  if (!link || depth <= 0) return undefined;
  const db = ctx.database.primary;
  const below = plan?.[link.key];
  const { links, ends } = await ctx.repo.readLinked(db, link, [rowId], linkFields(link), below?.[FIELDS], { offset, limit });
  const expanded = new Map((await expand(ctx.repo, db, link.target, ends as Row[], link.back ? 0 : depth - 1, undefined, below, linkFields)).map((t) => [t.id, t]));
  const rows = (links as Row[]).filter((x) => expanded.has(x[link.far.name] as string)).map((x) => ({ ...x, [link.end]: expanded.get(x[link.far.name] as string) }));
  const total = (await ctx.repo.countLinked(db, link, [rowId])).get(rowId) ?? 0;
  // compact as the page's rows are: through the row that has them
  const compacted = compactRow(ctx.model, entity, { id: rowId, [relation]: rows }, language, ctx.model.defaultLanguage);
  return { rows: (compacted[relation] as unknown[] | undefined) ?? [], total };
}
