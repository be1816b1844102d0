import { targets, useT, Variant, type Expanded } from '../../../web/storefront/context.js';
import { Description, Heading, Prices, ProductGrid, Section, SectionHeader, usePageRow } from './parts.js';

/** 'product-list-default' (and 'default'): the widget's title, then its products as cards */
export function ProductListDefault({ row }: { row: Expanded }) {
  const t = useT();
  const products = targets(row, 'widgetsToProducts', 'product');
  return (
    <Section row={row}>
      <SectionHeader row={row} />
      <ProductGrid products={products} label={t(row.title) || 'Products'} />
    </Section>
  );
}

/** 'product-overview-default': the page's product (params['ecommerce.product']) or the widget's first, in full */
export function ProductOverviewDefault({ row }: { row: Expanded }) {
  const product = usePageRow('ecommerce.product', row, 'widgetsToProducts', 'product');
  if (!product) return null;
  const files = targets(product, 'productsToFileStorageModuleFiles', 'fileStorageModuleFile');
  return (
    <Section row={row}>
      <article className="mx-auto max-w-3xl">
        <div className="border-b border-slate-200 pb-8">
          <Heading row={product} lead={product.shortDescription} />
          <Prices product={product} className="mt-6 text-3xl" />
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
    </Section>
  );
}
