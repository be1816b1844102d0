import type { ComponentType } from 'react';
import { register } from '../../../web/registry.js';
import type { Expanded } from '../../../web/storefront/context.js';
import { ProductListDefault, ProductOverviewDefault } from './products.js';
import { CategoryListDefault, CategoryOverviewDefault, StoreListDefault, StoreOverviewDefault, StoreProductListDefault } from './catalog.js';

export { productPrices } from './parts.js';

/** the ecommerce widget's public catalog variants (schemas/ecommerce/widget.json; no cart or orders yet) */
export const ECOMMERCE_WIDGET_VARIANTS: Record<string, ComponentType<{ row: Expanded }>> = {
  default: ProductListDefault,
  'product-list-default': ProductListDefault,
  'product-overview-default': ProductOverviewDefault,
  'category-list-default': CategoryListDefault,
  'category-overview-default': CategoryOverviewDefault,
  'store-list-default': StoreListDefault,
  'store-overview-default': StoreOverviewDefault,
  'store-product-list-default': StoreProductListDefault,
};

/** the ecommerce module's web variants */
export function registerEcommerceWeb() {
  for (const [variant, component] of Object.entries(ECOMMERCE_WIDGET_VARIANTS)) register(`ecommerce/widget/${variant}`, component);
}
