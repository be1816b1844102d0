import { forwardRef, useEffect, useRef, useState, type ReactNode } from 'react';
import * as arrowRight from 'lucide-react/icons/arrow-right';
import { toast } from 'sonner';
import { targets, useHref, usePage, useT, useTitleTag, type Expanded } from './context.js';
import { countKey, LISTED, moreKey, ROWS_SHOWN, SHOWN_IN_PAGES, type Listed, type More } from './paging.js';
import { RichTextView } from '../ui/rich-text-view.js';
import { cn } from '../ui/cn.js';
import { lucideIcon } from '../ui/icon.js';
import { useWords } from './words.js';

/** the building blocks widgets of every module share: section rhythm, headers, card grids, links */

/** lucide's arrow, drawn by its shapes alone (web/ui/icon.tsx): a list page repeats it on every card */
const ArrowRight = lucideIcon(arrowRight);

/** a card of a grid (its look is `.card` in web/styles.css; `group` lets its links react to hovering the card) */
export const CARD = 'group card';

/**
 * a widget's width and vertical rhythm; its anchor (when it has one) is the section's id. `padding` replaces the
 * vertical padding (in `className` it would conflict with the default's, and cn does not resolve conflicts).
 */
export function Section({ row, children, className, padding = 'py-12 lg:py-16' }: { row: Expanded; children: ReactNode; className?: string; padding?: string }) {
  return (
    <section id={(row.anchor as string) || undefined} className={cn(padding, row.className as string, className)}>
      <div className="mx-auto max-w-7xl px-4">{children}</div>
    </section>
  );
}

/** a widget's own title (the page's h1 when the widget leads the page, useTitleTag), subtitle and description, when it has them */
export function SectionHeader({ row }: { row: Expanded }) {
  const t = useT();
  const Title = useTitleTag(row);
  const title = t(row.title);
  const subtitle = t(row.subtitle);
  const description = t(row.description);
  if (!title && !subtitle && !description) return null;
  return (
    <header className="mb-8 max-w-3xl lg:mb-12">
      {title && <Title className="section-title">{title}</Title>}
      {subtitle && <p className="mt-3 text-lg text-slate-600">{subtitle}</p>}
      {description && <RichTextView value={description} className="mt-4 text-slate-600" />}
    </header>
  );
}

/**
 * A widget drawn as its own header (title, subtitle, description) followed by what `children` adds: the
 * 'default' of module widgets whose rows are only text (billing, agent, notification) and the base of others.
 * Draws nothing when there is nothing to show.
 */
export function TextSection({ row, children }: { row: Expanded; children?: ReactNode }) {
  const t = useT();
  if (!t(row.title) && !t(row.subtitle) && !t(row.description) && !children) return null;
  return (
    <Section row={row}>
      <SectionHeader row={row} />
      {children}
    </Section>
  );
}

/**
 * A link that reads as a call to action ('More', 'Read more'; 'More' in the page's language when it has no
 * text), with an arrow that moves on hover. `label` names what it leads to (a card's title): the link's name is
 * 'More: Shop template' (aria-label; a visually hidden suffix when the visible text is not plain text), so the
 * card links of a list are told apart, and the visible text stays first in the name.
 */
export function MoreLink({ to, children, label, className }: { to: string; children?: ReactNode; label?: string; className?: string }) {
  const href = useHref();
  const w = useWords();
  const text = children ?? w('more');
  const named = label && typeof text === 'string';
  return (
    <a href={href(to)} aria-label={named ? `${text}: ${label}` : undefined} className={cn('more-link', className)}>
      {text}
      {label && !named && <span className="sr-only">: {label}</span>}
      <ArrowRight className="arrow-nudge" />
    </a>
  );
}

/** the responsive card grid: 1 column, 2 on md, 3 on lg */
/** cards in a grid: three columns on large screens, or two (spec §2: product lists) */
export const CardGrid = forwardRef<HTMLDivElement, { children: ReactNode; label?: string; columns?: 2 | 3 }>(function CardGrid({ children, label, columns = 3 }, ref) {
  return <div ref={ref} role="list" aria-label={label} data-columns={columns} className={columns === 2 ? 'grid grid-cols-1 gap-6 md:grid-cols-2' : 'grid grid-cols-1 gap-6 md:grid-cols-2 lg:grid-cols-3'}>{children}</div>;
});

export const GridItem = ({ children }: { children: ReactNode }) => <div role="listitem">{children}</div>;

/** how many cards a long list shows at first, and how many more each 'Show more' adds */
export const CARDS_SHOWN = ROWS_SHOWN;

/**
 * A long list in steps: the first CARDS_SHOWN items (the server's HTML and the first render in the browser alike),
 * then CARDS_SHOWN more at each press of the button `more` draws. The keyboard's focus moves to the first item
 * shown by a press, so that a keyboard or screen-reader user continues where the new items start.
 *
 * A list `targets` made is shown a page at a time from the server too: the page data carries its first page and how
 * many rows the relation has (plugins/host/server/reads.ts), and a press past them asks
 * `GET /api/host/pages/rows` for the next (the button says 'Loading...' meanwhile, and a failure is a toast).
 * @example const { shown, more, listRef } = useShowMore(products); <div ref={listRef}>{shown.map(…)}</div>{more}
 */
export function useShowMore<T>(items: T[], step = CARDS_SHOWN) {
  const w = useWords();
  const page = usePage();
  const listed = (items as { [LISTED]?: Listed })[LISTED];
  // on the server, the relation's watched rows note that they are shown a page at a time
  (listed?.rows as { [SHOWN_IN_PAGES]?: () => void } | undefined)?.[SHOWN_IN_PAGES]?.();
  const paged = listed?.row[moreKey(listed.relation)] as More | undefined;
  // how many rows the relation has: as the page data says (in the browser), or as the assembly counted them where it
  // read only the first (on the server)
  const counted = listed?.row[countKey(listed.relation)];
  const rowsTotal = paged?.total ?? (typeof counted === 'number' ? counted : undefined);
  const [count, setCount] = useState(step);
  // rows fetched past those the page shipped: the relation's rows (for the next offset) and their far ends
  const [fetched, setFetched] = useState<{ rows: number; items: T[] }>({ rows: 0, items: [] });
  const [loading, setLoading] = useState(false);
  const listRef = useRef<HTMLDivElement>(null);
  const focusFrom = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (focusFrom.current === undefined) return;
    // the list's items by place (a list drawn in several parts, a masonry's batches, holds them a level deeper)
    const item = listRef.current?.querySelectorAll<HTMLElement>('[role="listitem"]')[focusFrom.current];
    focusFrom.current = undefined;
    const target = item?.querySelector<HTMLElement>('a[href], button') ?? item;
    target?.focus();
  }, [count]);
  const all = fetched.items.length ? [...items, ...fetched.items] : items;
  const shippedRows = listed ? listed.rows.length + fetched.rows : 0;
  // the relation's rows not yet here (a row whose far end is not public has no item, as in the first page)
  const total = rowsTotal !== undefined && listed ? all.length + Math.max(0, rowsTotal - shippedRows) : items.length;
  const left = total - count;
  const next = async () => {
    const want = count + step;
    if (want > all.length && paged && listed && shippedRows < paged.total) {
      setLoading(true);
      try {
        const query = new URLSearchParams({ url: page.language === page.defaultLanguage ? page.url : `/${page.language}${page.url}`, at: paged.at, row: listed.row.id, relation: listed.relation, offset: String(shippedRows), limit: String(Math.min(100, Math.max(step, want - all.length))) });
        const res = await fetch(`/api/host/pages/rows?${query}`, { credentials: 'same-origin', headers: { accept: 'application/json' } });
        if (!res.ok) throw new Error(String(res.status));
        const { data } = (await res.json()) as { data: { rows: Expanded[] } };
        setFetched((f) => ({ rows: f.rows + data.rows.length, items: [...f.items, ...(data.rows.map((r) => r[listed.end]).filter(Boolean) as T[])] }));
      } catch (e) {
        toast.error(e instanceof TypeError ? w('unreachable') : w('serverError'));
        return;
      } finally {
        setLoading(false);
      }
    }
    focusFrom.current = count;
    setCount(want);
  };
  const more =
    left > 0 ? (
      <div className="mt-8 flex justify-center">
        <button
          type="button"
          aria-busy={loading || undefined}
          disabled={loading}
          className="inline-flex min-h-10 items-center rounded-md border border-slate-300 bg-white px-5 text-sm font-semibold text-slate-800 shadow-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 disabled:opacity-70"
          onClick={() => void next()}
        >
          {loading ? w('loading') : w('showMore', { count: Math.min(step, left), total: left })}
        </button>
      </div>
    ) : null;
  return { shown: all.length > count ? all.slice(0, count) : all, more, listRef, step };
}

/** the row the page is about (params['blog.article'], …) if there is one, else the widget's first */
export function usePageRow(param: string, widget: Expanded, relation: string, end: string): Expanded | undefined {
  const { params } = usePage();
  return params[param] ?? targets(widget, relation, end)[0];
}

/**
 * Cards in a grid, CARDS_SHOWN at a time with 'Show N more of M' (useShowMore): a category's products or articles,
 * a widget's cards.
 * @example <ShownCards items={products} label="Products" card={(p) => <ProductCard product={p} />} />
 */
export function ShownCards({ items, label, columns, card, empty }: { items: Expanded[]; label?: string; columns?: 2 | 3; card: (item: Expanded) => ReactNode; empty?: string }) {
  const { shown, more, listRef } = useShowMore(items);
  const w = useWords();
  // an empty list says so ('No found items', spec §8, or the list's own words): a category or store page with
  // nothing in it would otherwise end at its title
  if (!items.length) return <p className="text-slate-600">{empty ?? w('noFoundItems')}</p>;
  return (
    <>
      <CardGrid ref={listRef} label={label} columns={columns}>
        {shown.map((item) => (
          <GridItem key={item.id}>{card(item)}</GridItem>
        ))}
      </CardGrid>
      {more}
    </>
  );
}

/**
 * A widget that lists the far ends of one of its relations as cards: its header, then one card each.
 * @example <CardListSection row={row} relation="widgetsToArticles" end="article" label="Articles" card={(a) => <ArticleCard article={a} />} />
 */
export function CardListSection({ row, relation, end, label, card, empty }: { row: Expanded; relation: string; end: string; label: string; card: (item: Expanded) => ReactNode; empty?: string }) {
  const t = useT();
  const items = targets(row, relation, end);
  return (
    <Section row={row}>
      <SectionHeader row={row} />
      {/* an empty list says so under its heading (ShownCards) */}
      <ShownCards items={items} label={t(row.title) || label} card={card} empty={empty} />
    </Section>
  );
}
