import { targets, usePage, useT, Variant, type Expanded } from '../../../web/storefront/context.js';
import { SelectedCurrency } from './currency.js';
import { Description, Heading, ProductGrid, Section, SectionHeader, usePageRow } from './parts.js';
import { useWords } from '../../../web/storefront/words.js';

/** 'product-list-default' (and 'default'): the widget's title, then its products as cards */
export function ProductListDefault({ row }: { row: Expanded }) {
  const t = useT();
  const w = useWords();
  const products = targets(row, 'widgetsToProducts', 'product');
  return (
    <Section row={row}>
      <SectionHeader row={row} />
      <ProductGrid products={products} label={t(row.title) || w('products')} columns={2} />
    </Section>
  );
}

/**
 * 'product-list-recommendation' (spec: product-list-{product}-recommendation): the widget's products as
 * recommendations, leaving out the product the page is about, so that a product page can suggest the others.
 * Draws nothing when no other product is left.
 */
export function ProductListRecommendation({ row }: { row: Expanded }) {
  const t = useT();
  const { params } = usePage();
  const w = useWords();
  const current = params['ecommerce.product']?.id;
  const products = targets(row, 'widgetsToProducts', 'product').filter((p) => p.id !== current);
  if (!products.length) return null;
  return (
    <Section row={row}>
      <SectionHeader row={row} />
      <ProductGrid products={products} label={t(row.title) || w('products')} columns={2} />
    </Section>
  );
}

/**
 * product 'overview-default': the product in full — title, its price in the chosen currency with the
 * currency toggle group, the cart actions, the description and its files — each part its own variant.
 */
export function ProductOverview({ row: product }: { row: Expanded }) {
  const files = targets(product, 'productsToFileStorageModuleFiles', 'fileStorageModuleFile');
  const part = (variant: string) => <Variant module="ecommerce" entity="product" variant={variant} row={product} />;
  return (
    <SelectedCurrency product={product}>
      <article className="mx-auto max-w-3xl">
        <div className="border-b border-slate-200 pb-8">
          <Heading row={product} lead={product.shortDescription} />
          <div className="mt-6 flex flex-wrap items-center justify-between gap-4">
            {part('price-default')}
            {part('currency-toggle-group-default')}
          </div>
          <div className="mt-6">{part('cart-default')}</div>
        </div>
        <Description value={product.description} className="mt-8" />
        {files.length > 0 && (
          <div className="mt-10 grid grid-cols-1 gap-6 sm:grid-cols-2">
            {files.map((f) => (
              <Variant key={f.id} module="file-storage" entity="file" row={f} />
            ))}
          </div>
        )}
      </article>
    </SelectedCurrency>
  );
}

/** 'product-overview-default': the page's product (params['ecommerce.product']) or the widget's first, in full */
export function ProductOverviewDefault({ row }: { row: Expanded }) {
  const product = usePageRow('ecommerce.product', row, 'widgetsToProducts', 'product');
  if (!product) return null;
  return (
    <Section row={row}>
      <Variant module="ecommerce" entity="product" variant="overview-default" row={product} />
    </Section>
  );
}
