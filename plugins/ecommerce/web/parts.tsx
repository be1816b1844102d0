import type { ReactNode } from 'react';
import { RichTextView } from '../../../web/ui/rich-text-view.js';
import { cn } from '../../../web/ui/cn.js';
import { CARD, CardGrid, GridItem, MoreLink, Section, SectionHeader, ShownCards, usePageRow, useShowMore } from '../../../web/storefront/blocks.js';
import { targets, useT, type Expanded } from '../../../web/storefront/context.js';
import { formatPrice, productPriceList } from '../pricing.js';
import { useWords } from '../../../web/storefront/words.js';

export { CARD, CardGrid, GridItem, MoreLink, Section, SectionHeader, usePageRow };

/** the catalog's page paths (spec §2) */
export const productPath = (p: Expanded) => `/ecommerce/products/${String(p.slug ?? '')}`;
export const categoryPath = (c: Expanded) => `/ecommerce/categories/${String(c.slug ?? '')}`;
export const storePath = (s: Expanded) => `/ecommerce/stores/${String(s.slug ?? '')}`;

/** a product's prices as text, one per currency ('$49', '₽3900'): the shared pricing functions, as the server charges them */
export function productPrices(product: Expanded | undefined): string[] {
  return productPriceList(product).map(formatPrice);
}

/** an attribute's value as text: its localized string, number (with currency), yes/no or date */
export function attributeValue(attribute: Expanded, t: (m: unknown) => string, words = { yes: 'Yes', no: 'No' }): string {
  const text = t(attribute.string);
  if (text) return text;
  if (typeof attribute.number === 'number') {
    const symbol = targets(attribute, 'attributesToBillingModuleCurrencies', 'billingModuleCurrency')[0]?.symbol;
    return `${typeof symbol === 'string' ? symbol : ''}${attribute.number}`;
  }
  if (typeof attribute.boolean === 'boolean') return attribute.boolean ? words.yes : words.no;
  const date = attribute.datetime ?? attribute.date;
  return typeof date === 'string' ? date.slice(0, 10) : '';
}

/** a product's prices as badges-like text, nothing when it has none */
export function Prices({ product, className }: { product: Expanded; className?: string }) {
  const prices = productPrices(product);
  if (!prices.length) return null;
  return (
    <p className={cn('prices', className)} data-testid="prices">
      {prices.map((p, i) => (
        <span key={`${p}-${i}`}>{p}</span>
      ))}
    </p>
  );
}

/** a product as a card: title, short description, price and 'More' */
export function ProductCard({ product, className }: { product: Expanded; className?: string }) {
  const t = useT();
  const title = t(product.title) || String(product.slug ?? '');
  const summary = t(product.shortDescription);
  return (
    <article className={cn(CARD, className)}>
      <h3 className="card-title">{title}</h3>
      {summary && <p className="mt-2 text-slate-600">{summary}</p>}
      <div className="mt-auto flex items-end justify-between gap-4 pt-6">
        <Prices product={product} className="text-lg" />
        <MoreLink to={productPath(product)} label={title} />
      </div>
    </article>
  );
}

/**
 * products as a masonry-ish grid (CSS columns) of cards. Each batch 'Show more' adds is a masonry of its own below the
 * last: CSS columns balance every card of one box, so cards added to the same box moved the ones already seen from
 * column to column (a reader lost their place, and the new cards were spread among the old instead of after them).
 */
export function ProductMasonry({ products, label }: { products: Expanded[]; label: string }) {
  const { shown, more, listRef, step } = useShowMore(products);
  const w = useWords();
  // an empty category says so, as every card list does (ShownCards)
  if (!products.length) return <p className="text-slate-600">{w('noFoundItems')}</p>;
  const batches: Expanded[][] = [];
  for (let at = 0; at < shown.length; at += step) batches.push(shown.slice(at, at + step));
  return (
    <>
      <div ref={listRef} role="list" aria-label={label}>
        {batches.map((batch, i) => (
          <div key={i} role="none" className="columns-1 gap-6 md:columns-2 lg:columns-3">
            {batch.map((p) => (
              <div role="listitem" key={p.id} className="mb-6 break-inside-avoid">
                <ProductCard product={p} />
              </div>
            ))}
          </div>
        ))}
      </div>
      {more}
    </>
  );
}

/** products as the card grid (three columns), or a product list's two columns on large screens (spec §2) */
export function ProductGrid({ products, label, columns = 3 }: { products: Expanded[]; label: string; columns?: 2 | 3 }) {
  return <ShownCards items={products} label={label} columns={columns} card={(p) => <ProductCard product={p} />} />;
}

/** a page heading: h1 title and a lead paragraph */
export function Heading({ row, lead }: { row: Expanded; lead?: unknown }) {
  const t = useT();
  const text = t(lead);
  return (
    <header>
      <h1 className="text-4xl font-bold tracking-tight text-slate-900 lg:text-5xl">{t(row.title) || String(row.slug ?? '')}</h1>
      {text && <p className="mt-4 max-w-3xl text-xl text-slate-600">{text}</p>}
    </header>
  );
}

/** the look of a description: large, on a page about the row */
const DESCRIPTION = 'text-lg leading-relaxed text-slate-700';
/** a card's: the size and colour of the card's other text */
export const CARD_DESCRIPTION = 'text-base leading-relaxed text-slate-600';

/**
 * a rich-text description in the page's language. `look` replaces its size and colour (cn joins classes without
 * resolving conflicts, so a second text size in `className` would not reliably win); `className` adds the rest.
 */
export function Description({ value, look = DESCRIPTION, className }: { value: unknown; look?: string; className?: string }) {
  const t = useT();
  const text = t(value);
  return text ? <RichTextView value={text} className={cn(look, className)} /> : null;
}

