import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { LinkRuleContext, type LinkRule } from '../ui/rich-text-view.js';
import { resolveVariant } from './variants.js';
import { isSafeLink } from '../../engine/links.js';
import { LISTED, type Listed } from './paging.js';

/** a row as a page receives it: its fields plus, per relation it owns, the relation rows with their far end attached */
export type Expanded = Record<string, unknown> & { id: string; variant: string };

/** what every storefront component knows about the page it is on */
export interface PageContext {
  /** the page's language ('en', 'ru', …) */
  language: string;
  languages: string[];
  defaultLanguage: string;
  /** the requested path without the language prefix, e.g. /blog/articles/hello */
  url: string;
  /** rows named by the url's entity segments, e.g. params['blog.article'] for /blog/articles/[blog.article.slug] */
  params: Record<string, Expanded>;
  /** the product (site) name the spec's `{product}` variant names hold (PRODUCT_NAME); see variants.ts */
  product?: string;
}

const Ctx = createContext<PageContext>({ language: 'en', languages: ['en'], defaultLanguage: 'en', url: '/', params: {} });

export function PageProvider({ value, children }: { value: PageContext; children: ReactNode }) {
  // rich text writes its internal links as every other link of the page: with the page's language prefix
  const { language, languages, defaultLanguage } = value;
  const links = useMemo<LinkRule>(
    () => ({ key: `${language}|${defaultLanguage}|${languages.join(',')}`, href: (url) => localizedHref(url, { language, languages, defaultLanguage }) }),
    [language, defaultLanguage, languages],
  );
  return (
    <Ctx.Provider value={value}>
      <LinkRuleContext.Provider value={links}>{children}</LinkRuleContext.Provider>
    </Ctx.Provider>
  );
}

export const usePage = () => useContext(Ctx);

/** a language map in the page's language, falling back to the default language, then to any */
export function pick(map: unknown, page: Pick<PageContext, 'language' | 'defaultLanguage'>): string {
  if (typeof map === 'string') return map;
  if (!map || typeof map !== 'object') return '';
  const m = map as Record<string, string>;
  return m[page.language] || m[page.defaultLanguage] || Object.values(m).find(Boolean) || '';
}

/** `t(row.title)`: pick() bound to the current page */
export function useT() {
  const page = usePage();
  return (map: unknown) => pick(map, page);
}

/** external: contains ':' or starts with http (spec §2); these open in a new tab from buttons */
export const isExternal = (url: string) => url.includes(':') || url.startsWith('http');

/** internal links get the language prefix unless they already have one */
export function localizedHref(url: string, page: Pick<PageContext, 'language' | 'languages' | 'defaultLanguage'>): string {
  if (!url || isExternal(url) || url.startsWith('#')) return url;
  const path = url.startsWith('/') ? url : `/${url}`;
  const first = path.split('/')[1];
  if (page.languages.includes(first)) return path;
  return page.language === page.defaultLanguage ? path : `/${page.language}${path === '/' ? '' : path}`;
}

export function useHref() {
  const page = usePage();
  return (url: string) => localizedHref(url, page);
}

/**
 * `link(url)` for a url stored in content (buttons, slides, logotypes). A url outside the allow-list of link
 * targets (javascript:, data:, //host, …) gives no link at all: stored urls are checked on write and again
 * here, on render.
 */
export function useLink() {
  const page = usePage();
  return (url: string): string | undefined => (url && isSafeLink(url) ? localizedHref(url, page) : undefined);
}

/** the relation rows of an expanded row, in orderIndex order, e.g. related(widget, 'widgetsToSliders') */
export function related(row: Expanded | undefined, relation: string): Expanded[] {
  const list = row?.[relation];
  return Array.isArray(list) ? (list as Expanded[]) : [];
}

/** the far ends of a relation, e.g. targets(widget, 'widgetsToSliders', 'slider') */
export function targets(row: Expanded | undefined, relation: string, end: string): Expanded[] {
  const rows = related(row, relation);
  const out = rows.map((r) => r[end] as Expanded).filter(Boolean);
  if (row) Object.defineProperty(out, LISTED, { value: { row, relation, end, rows } satisfies Listed });
  return out;
}

const LeadCtx = createContext<string | undefined>(undefined);

/** marks the widget row `id` as the one that leads the page's content (PageView: the content's first block) */
export function LeadBlock({ id, children }: { id?: string; children: ReactNode }) {
  return <LeadCtx.Provider value={id}>{children}</LeadCtx.Provider>;
}

/**
 * The element of a widget's own title: 'h1' for the widget that leads the page's content, so a page made of
 * widgets that title themselves (sign-in, members, orders) has exactly one h1 without a heading widget; 'h2'
 * everywhere else (rows nested in it included). Widgets about a row draw its h1 themselves and do not ask.
 * @example const Title = useTitleTag(row); <Title className="section-title">{t(row.title)}</Title>
 */
export function useTitleTag(row: Expanded): 'h1' | 'h2' {
  const lead = useContext(LeadCtx);
  return lead !== undefined && lead === row.id ? 'h1' : 'h2';
}

/**
 * Renders a row through the registry by '<module>/<entity>/<row.variant>' (a spelled-out `{product}` name
 * resolves too, see variants.ts); an unknown variant renders nothing (spec §8), or `fallback` when given.
 * @example <Variant module="ecommerce" entity="product" row={p} variant="default" fallback={<RowCard row={p} />} />
 */
export function Variant({ module, entity, row, variant, fallback = null }: { module: string; entity: string; row: Expanded; variant?: string; fallback?: ReactNode }) {
  const { product } = usePage();
  const Component = resolveVariant(module, entity, variant ?? row.variant, product);
  return Component ? <Component row={row} /> : <>{fallback}</>;
}
