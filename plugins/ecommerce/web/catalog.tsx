import { CardListSection } from '../../../web/storefront/blocks.js';
import { targets, useT, type Expanded } from '../../../web/storefront/context.js';
import {
  attributeValue, CARD, CARD_DESCRIPTION, CardGrid, categoryPath, Description, GridItem, Heading, MoreLink, ProductGrid, ProductMasonry, Section, SectionHeader,
  storePath, usePageRow,
} from './parts.js';
import { useWords } from '../../../web/storefront/words.js';
import { useEcommerceWords } from './words.js';

/** a category as a card: title, short description and 'More' */
function CategoryCard({ category }: { category: Expanded }) {
  const t = useT();
  const subtitle = t(category.subtitle);
  const title = t(category.title) || String(category.slug ?? '');
  return (
    <article className={CARD}>
      <h3 className="card-title">{title}</h3>
      {subtitle ? <p className="mt-2 text-slate-600">{subtitle}</p> : <Description value={category.description} look={CARD_DESCRIPTION} className="mt-2 line-clamp-4" />}
      <div className="mt-auto pt-6">
        <MoreLink to={categoryPath(category)} label={title} />
      </div>
    </article>
  );
}

/** 'category-list-default': the widget's categories as cards */
export function CategoryListDefault({ row }: { row: Expanded }) {
  const w = useWords();
  return <CardListSection row={row} relation="widgetsToCategories" end="category" label={w('categories')} card={(c) => <CategoryCard category={c} />} />;
}

/** 'category-overview-default': the page's category or the widget's first, with its products */
export function CategoryOverviewDefault({ row }: { row: Expanded }) {
  const t = useT();
  const w = useWords();
  const category = usePageRow('ecommerce.category', row, 'widgetsToCategories', 'category');
  if (!category) return null;
  const products = targets(category, 'categoriesToProducts', 'product');
  return (
    <Section row={row}>
      <Heading row={category} lead={category.subtitle} />
      <Description value={category.description} className="mt-4 max-w-3xl" />
      <div className="mt-10">
        <ProductMasonry products={products} label={t(category.title) || w('products')} />
      </div>
    </Section>
  );
}

/**
 * a store's attributes as key/value pairs: the key is the title of the attribute's key (spec §2; the relation
 * attribute-keys-to-attributes is expanded back from the attribute), else the attribute's own name
 */
export function StoreAttributes({ store }: { store: Expanded }) {
  const t = useT();
  const w = useWords();
  const pairs = targets(store, 'storesToAttributes', 'attribute')
    .map((a) => ({ id: a.id, key: t(targets(a, 'attributeKeysToAttributes', 'attributeKey')[0]?.title) || String(a.adminTitle ?? a.slug ?? ''), value: attributeValue(a, t, { yes: w('yes'), no: w('no') }) }))
    .filter((p) => p.key && p.value);
  if (!pairs.length) return null;
  return (
    <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm">
      {pairs.map((p) => (
        <div key={p.id} className="contents">
          <dt className="font-medium text-slate-500">{p.key}</dt>
          <dd className="text-slate-900">{p.value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** a store as a card: title, attributes, description and 'More' */
function StoreCard({ store }: { store: Expanded }) {
  const t = useT();
  const title = t(store.title) || String(store.slug ?? '');
  return (
    <article className={CARD}>
      <h3 className="card-title">{title}</h3>
      <StoreAttributes store={store} />
      <Description value={store.description} look={CARD_DESCRIPTION} className="mt-4" />
      <div className="mt-auto pt-6">
        <MoreLink to={storePath(store)} label={title} />
      </div>
    </article>
  );
}

/** 'store-list-default': the widget's stores as cards */
export function StoreListDefault({ row }: { row: Expanded }) {
  const w = useEcommerceWords();
  return <CardListSection row={row} relation="widgetsToStores" end="store" label={w('stores')} card={(s) => <StoreCard store={s} />} />;
}

const useStore = (row: Expanded) => usePageRow('ecommerce.store', row, 'widgetsToStores', 'store');

/** 'store-overview-default': the page's store or the widget's first, with its products */
export function StoreOverviewDefault({ row }: { row: Expanded }) {
  const t = useT();
  const w = useWords();
  const store = useStore(row);
  if (!store) return null;
  return (
    <Section row={row}>
      <Heading row={store} lead={store.shortDescription} />
      <StoreAttributes store={store} />
      <Description value={store.description} className="mt-6 max-w-3xl" />
      <div className="mt-10">
        <ProductGrid products={targets(store, 'storesToProducts', 'product')} label={t(store.title) || w('products')} />
      </div>
    </Section>
  );
}

/** 'store-product-list-default': the store's products only */
export function StoreProductListDefault({ row }: { row: Expanded }) {
  const t = useT();
  const w = useWords();
  const store = useStore(row);
  if (!store) return null;
  return (
    <Section row={row}>
      <SectionHeader row={row} />
      <ProductGrid products={targets(store, 'storesToProducts', 'product')} label={t(store.title) || w('products')} />
    </Section>
  );
}
