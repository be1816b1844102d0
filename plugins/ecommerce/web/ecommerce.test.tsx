import type { ReactNode } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { PageProvider, Variant, type Expanded, type PageContext } from '../../../web/storefront/context.js';
import { loadChunks, register, registered } from '../../../web/registry.js';
import { registerEcommerceWeb } from './index.js';
import { productPrices } from './parts.js';
import { formatPrice, lineTotal, orderTotals } from '../pricing.js';

afterEach(cleanup);

beforeAll(async () => {
  registerEcommerceWeb();
  register('file-storage/file/default', ({ row }: { row: Expanded }) => <img alt={String(row.alt)} src={String(row.file)} />);
  await loadChunks();
});

const usd = { id: 'usd', variant: 'default', symbol: '$' };
const eur = { id: 'eur', variant: 'default', symbol: '€' };
const priced = (id: string, number: unknown, currencies: Expanded[]) => ({
  id: `pa-${id}`, variant: 'default',
  attribute: { id, variant: 'default', number, attributesToBillingModuleCurrencies: currencies.map((c, i) => ({ id: `ac-${id}-${i}`, variant: 'default', billingModuleCurrency: c })) },
});
const doc = (text: string) => JSON.stringify({ type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text }] }] });

const product = (slug: string, en: string, ru: string, extra: Record<string, unknown> = {}): Expanded => ({
  id: `p-${slug}`, variant: 'default', slug, title: { en, ru },
  shortDescription: { en: `${en} in short`, ru: `${ru} кратко` },
  description: { en: doc(`${en} in full`), ru: doc(`${ru} подробно`) }, ...extra,
});
const landing = product('landing-template', 'Landing template', 'Шаблон лендинга', { productsToAttributes: [priced('a1', 49, [usd])] });
const shop = product('shop-template', 'Shop template', 'Шаблон магазина', {
  productsToAttributes: [priced('a2', 149, [usd, eur])],
  productsToFileStorageModuleFiles: [{ id: 'pf', variant: 'default', fileStorageModuleFile: { id: 'f1', variant: 'default', alt: 'Shop screenshot', file: '/files/shop.png' } }],
});
const hosting = product('hosting-plan', 'Hosting plan', 'Тариф хостинга');
const link = (p: Expanded, i: number) => ({ id: `wp-${p.id}`, variant: 'default', orderIndex: i, product: p });

const widget = (variant: string, extra: Record<string, unknown> = {}): Expanded => ({
  id: 'w', variant, title: { en: 'Templates and plans', ru: 'Шаблоны и тарифы' }, widgetsToProducts: [landing, shop, hosting].map(link), ...extra,
});
const store: Expanded = {
  id: 's1', variant: 'default', slug: 'main-store', title: { en: 'Studio store', ru: 'Магазин студии' }, description: { en: doc('Everything we make') },
  storesToAttributes: [
    {
      id: 'sa1', variant: 'default',
      attribute: {
        id: 'at1', variant: 'default', adminTitle: 'delivery-attr', string: { en: 'Instant download', ru: 'Мгновенная загрузка' },
        attributeKeysToAttributes: [{ id: 'ka1', variant: 'default', attributeKey: { id: 'k1', variant: 'default', adminTitle: 'delivery-key', title: { en: 'Delivery', ru: 'Доставка' } } }],
      },
    },
    { id: 'sa2', variant: 'default', attribute: { id: 'at2', variant: 'default', adminTitle: 'Support', number: 12 } },
    { id: 'sa3', variant: 'default', attribute: { id: 'at3', variant: 'default', adminTitle: 'Empty' } },
  ],
  storesToProducts: [landing, shop].map((p, i) => ({ id: `sp${i}`, variant: 'default', sku: `SKU-${i}`, product: p })),
};
const category: Expanded = { id: 'c1', variant: 'default', slug: 'templates', title: { en: 'Templates', ru: 'Шаблоны' }, description: { en: doc('Ready-made site templates') },
  categoriesToProducts: [landing, shop].map((p, i) => ({ id: `cp${i}`, variant: 'default', product: p })) };

const page = (language = 'en', params: Record<string, Expanded> = {}): PageContext => ({ language, languages: ['en', 'ru'], defaultLanguage: 'en', url: '/', params });
const at = (p: PageContext, node: ReactNode) => (
  <QueryClientProvider client={new QueryClient()}>
    <PageProvider value={p}>{node}</PageProvider>
  </QueryClientProvider>
);
const show = (row: Expanded, p = page()) => render(at(p, <Variant module="ecommerce" entity="widget" row={row} />));

describe('productPrices', () => {
  it('is one symbol+number per currency of each numeric attribute', () => {
    expect(productPrices(landing)).toEqual(['$49']);
    expect(productPrices(shop)).toEqual(['$149', '€149']);
  });
  it('skips attributes without a number or a currency, and products without attributes', () => {
    expect(productPrices(hosting)).toEqual([]);
    expect(productPrices(undefined)).toEqual([]);
    expect(productPrices(product('x', 'X', 'X', { productsToAttributes: [priced('n', null, [usd]), priced('c', 5, []), priced('z', 0, [usd])] }))).toEqual(['$0']);
  });
});

describe('money in hundredths', () => {
  const rub = { id: 'rub', slug: 'rub', symbol: '₽', title: 'Ruble' };
  it('a unit with a third decimal is charged, totalled and shown at the same hundredth, half up', () => {
    // 0.285 × 100 is 28.499999999999996 in binary: it must still be 29 hundredths, not 28
    const line = { quantity: 3, prices: [{ currency: rub, amount: 0.285 }] };
    expect(lineTotal(line)).toEqual([{ currency: rub, amount: 0.87 }]);
    expect(orderTotals([line, { quantity: 1, prices: [{ currency: rub, amount: 1.005 }] }])).toEqual([{ currency: rub, amount: 1.88 }]);
    expect(formatPrice({ currency: rub, amount: 0.285 })).toBe('₽0.29');
    expect(formatPrice({ currency: rub, amount: 19.99 })).toBe('₽19.99');
    expect(lineTotal({ quantity: 3, prices: [{ currency: rub, amount: 19.99 }] })).toEqual([{ currency: rub, amount: 59.97 }]);
  });
});

describe('ecommerce product list', () => {
  it('shows one card per product with its title, summary, price and a More link', () => {
    show(widget('product-list-default'));
    expect(screen.getByRole('heading', { level: 2, name: 'Templates and plans' })).toBeTruthy();
    const list = screen.getByRole('list');
    // spec §2: product lists use two columns on large screens (cards elsewhere keep three)
    expect(list.className).toContain('md:grid-cols-2');
    expect(list.className).not.toContain('lg:grid-cols-3');
    const cards = within(list).getAllByRole('listitem');
    expect(cards.map((c) => within(c).getByRole('heading').textContent)).toEqual(['Landing template', 'Shop template', 'Hosting plan']);
    expect(within(cards[0]).getByText('Landing template in short')).toBeTruthy();
    expect(within(cards[0]).getByText('$49')).toBeTruthy();
    expect(within(cards[1]).getByText('€149')).toBeTruthy();
    expect(within(cards[2]).queryByTestId('prices')).toBeNull();
    expect(screen.getAllByRole('link', { name: /^More/ }).map((a) => a.getAttribute('href'))).toEqual([
      '/ecommerce/products/landing-template', '/ecommerce/products/shop-template', '/ecommerce/products/hosting-plan',
    ]);
    // each card's link is named by its product, not only 'More'
    expect(screen.getAllByRole('link', { name: /^More/ }).map((a) => a.getAttribute('aria-label'))).toEqual(['More: Landing template', 'More: Shop template', 'More: Hosting plan']);
  });

  it('in Russian shows the Russian texts and prefixes the links', () => {
    show(widget('product-list-default'), page('ru'));
    expect(screen.getByRole('heading', { level: 2, name: 'Шаблоны и тарифы' })).toBeTruthy();
    expect(screen.getByText('Шаблон магазина')).toBeTruthy();
    expect(screen.getAllByRole('link', { name: /^Подробнее/ })[0].getAttribute('href')).toBe('/ru/ecommerce/products/landing-template');
  });

  it("'default' draws the product list too", () => {
    show(widget('default'));
    expect(screen.getAllByRole('link', { name: /^More/ })).toHaveLength(3);
  });
});

describe('ecommerce product overview', () => {
  it("shows the page's product (params['ecommerce.product']) with rich text, price and files", () => {
    show(widget('product-overview-default'), page('en', { 'ecommerce.product': shop }));
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Shop template');
    expect(screen.getByText('Shop template in short')).toBeTruthy();
    expect(screen.getByText('Shop template in full')).toBeTruthy();
    expect(screen.getByText('$149')).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Shop screenshot' }).getAttribute('src')).toBe('/files/shop.png');
  });

  it("falls back to the widget's first product, in the page's language", () => {
    show(widget('product-overview-default'), page('ru'));
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Шаблон лендинга');
    expect(screen.getByText('Шаблон лендинга подробно')).toBeTruthy();
  });

  it('renders nothing without a product', () => {
    const { container } = show(widget('product-overview-default', { widgetsToProducts: [] }));
    expect(container.innerHTML).toBe('');
  });
});

describe('product-list-recommendation', () => {
  const link = (p: Expanded, i: number) => ({ id: `wp${i}`, variant: 'default', product: p });
  it("lists the widget's products but the one the page is about; nothing when none is left", () => {
    const row = widget('product-list-recommendation', { title: { en: 'You may also like' }, widgetsToProducts: [landing, shop].map(link) });
    show(row, page('en', { 'ecommerce.product': shop }));
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('You may also like');
    expect(screen.getAllByRole('listitem').map((li) => within(li).getByRole('heading', { level: 3 }).textContent)).toEqual(['Landing template']);
    cleanup();
    show(row);
    expect(screen.getAllByRole('listitem')).toHaveLength(2);
    cleanup();
    const { container } = show(widget('product-list-recommendation', { widgetsToProducts: [shop].map(link) }), page('en', { 'ecommerce.product': shop }));
    expect(container.innerHTML).toBe('');
  });
});

describe('ecommerce categories and stores', () => {
  it('category list links each category; category overview lists its products', () => {
    show(widget('category-list-default', { widgetsToCategories: [{ id: 'wc', variant: 'default', category }] }), page('ru'));
    expect(screen.getByRole('heading', { level: 3, name: 'Шаблоны' })).toBeTruthy();
    expect(screen.getByRole('link', { name: /^Подробнее/ }).getAttribute('href')).toBe('/ru/ecommerce/categories/templates');
    cleanup();
    show(widget('category-overview-default'), page('en', { 'ecommerce.category': category }));
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Templates');
    expect(screen.getByText('Ready-made site templates')).toBeTruthy();
    expect(screen.getByRole('list').firstElementChild!.className).toContain('lg:columns-3');
    expect(screen.getAllByRole('listitem')).toHaveLength(2);
  });

  it('a long category shows its products in steps of 24: Show more adds the next and moves the focus to the first of them', async () => {
    const many = Array.from({ length: 30 }, (_, i) => product(`p${i}`, `Product ${i}`, `Товар ${i}`));
    const big = { ...category, categoriesToProducts: many.map((p, i) => ({ id: `cp${i}`, variant: 'default', product: p })) };
    show(widget('category-overview-default'), page('en', { 'ecommerce.category': big }));
    expect(screen.getAllByRole('listitem')).toHaveLength(24);
    expect(screen.queryByText('Product 24')).toBeNull();
    const more = screen.getByRole('button', { name: 'Show 6 more of 6' });
    const firstBox = screen.getByRole('list').firstElementChild!;
    await userEvent.setup().click(more);
    expect(screen.getAllByRole('listitem')).toHaveLength(30);
    // the masonry's new cards are a box of their own after the first: the 24 seen stay in their columns
    const boxes = [...screen.getByRole('list').children];
    expect(boxes.map((b) => b.querySelectorAll('[role="listitem"]').length)).toEqual([24, 6]);
    expect(boxes[0]).toBe(firstBox);
    expect(boxes[1].className).toContain('lg:columns-3');
    expect(screen.queryByRole('button', { name: /^Show/ })).toBeNull();
    expect(document.activeElement?.closest('[role="listitem"]')?.textContent).toContain('Product 24');
  });

  it("a card's description (a category without a subtitle, a store) has one text size and one colour, the card's", () => {
    // cn joins without resolving conflicts: 'text-lg … text-base' on one element drew the larger size
    show(widget('category-list-default', { widgetsToCategories: [{ id: 'wc', variant: 'default', category }] }));
    show(widget('store-list-default', { widgetsToStores: [{ id: 'ws', variant: 'default', store }] }));
    for (const text of ['Ready-made site templates', 'Everything we make']) {
      const classes = screen.getByText(text).parentElement!.className.split(' ');
      expect(classes.filter((c) => /^text-(xs|sm|base|lg|\d?xl)$/.test(c)), text).toEqual(['text-base']);
      expect(classes.filter((c) => /^text-slate-\d+$/.test(c)), text).toEqual(['text-slate-600']);
    }
  });

  it('store cards show attribute key/value pairs, the description and More', () => {
    show(widget('store-list-default', { widgetsToStores: [{ id: 'ws', variant: 'default', store }] }), page('ru'));
    const card = screen.getByRole('listitem');
    expect(within(card).getByRole('heading', { level: 3 }).textContent).toBe('Магазин студии');
    const terms = card.querySelectorAll('dt');
    const values = card.querySelectorAll('dd');
    // the key's title in the page's language, not its adminTitle; an attribute without a key shows its own name
    expect([...terms].map((d) => d.textContent)).toEqual(['Доставка', 'Support']);
    expect([...values].map((d) => d.textContent)).toEqual(['Мгновенная загрузка', '12']);
    expect(within(card).getByText('Everything we make')).toBeTruthy();
    expect(within(card).getByRole('link', { name: /^Подробнее/ }).getAttribute('href')).toBe('/ru/ecommerce/stores/main-store');
  });

  it("store overview and store product list show the page's store products", () => {
    show(widget('store-overview-default'), page('en', { 'ecommerce.store': store }));
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Studio store');
    expect(screen.getAllByRole('listitem').map((c) => within(c).getByRole('heading').textContent)).toEqual(['Landing template', 'Shop template']);
    cleanup();
    show(widget('store-product-list-default', { widgetsToStores: [{ id: 'ws', variant: 'default', store }] }));
    expect(screen.getAllByRole('link', { name: /^More/ })).toHaveLength(2);
  });

  it('registers every catalog variant', () => {
    for (const v of ['default', 'product-list-default', 'product-overview-default', 'category-list-default', 'category-overview-default', 'store-list-default', 'store-overview-default', 'store-product-list-default']) {
      expect(registered()).toContain(`ecommerce/widget/${v}`);
    }
  });
});
