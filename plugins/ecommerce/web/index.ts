import type { ComponentType } from 'react';
import { createElement } from 'react';
import { register } from '../../../web/registry.js';
import type { Expanded } from '../../../web/storefront/context.js';
import { ProductListDefault, ProductListRecommendation, ProductOverview, ProductOverviewDefault } from './products.js';
import { CategoryListDefault, CategoryOverviewDefault, StoreListDefault, StoreOverviewDefault, StoreProductListDefault } from './catalog.js';
import { CartWidget } from './cart.js';
import { OrderListDefault } from './orders.js';
import { OrderCard } from './order-card.js';
import type { Order } from './shop-api.js';
import { ProductCart } from './product-cart.js';
import { ProductCurrencyToggleGroup, ProductPrice } from './currency.js';
import { ProductCard } from './parts.js';

export { productPrices } from './parts.js';

/** the ecommerce widget's public variants (schemas/ecommerce/widget.json) */
export const ECOMMERCE_WIDGET_VARIANTS: Record<string, ComponentType<{ row: Expanded }>> = {
  default: ProductListDefault,
  'product-list-default': ProductListDefault,
  'product-overview-default': ProductOverviewDefault,
  'product-list-recommendation': ProductListRecommendation,
  'category-list-default': CategoryListDefault,
  'category-overview-default': CategoryOverviewDefault,
  'store-list-default': StoreListDefault,
  'store-overview-default': StoreOverviewDefault,
  'store-product-list-default': StoreProductListDefault,
  'order-list-default': OrderListDefault,
  'cart-default': CartWidget,
};

/** the product's own variants (schemas/ecommerce/product.json): the overview and its parts */
export const ECOMMERCE_PRODUCT_VARIANTS: Record<string, ComponentType<{ row: Expanded }>> = {
  // the card product lists draw (title, subtitle, prices, link)
  default: ({ row }) => createElement(ProductCard, { product: row }),
  'overview-default': ProductOverview,
  'price-default': ({ row }) => createElement(ProductPrice, { row, className: 'text-3xl' }),
  'currency-toggle-group-default': ProductCurrencyToggleGroup,
  'cart-default': ProductCart,
};

/** the ecommerce module's web variants */
export function registerEcommerceWeb() {
  for (const [variant, component] of Object.entries(ECOMMERCE_WIDGET_VARIANTS)) register(`ecommerce/widget/${variant}`, component);
  for (const [variant, component] of Object.entries(ECOMMERCE_PRODUCT_VARIANTS)) register(`ecommerce/product/${variant}`, component);
  // an order as the shop's routes answer it (with its lines and prices): the order card 'Order #{id}'
  register('ecommerce/order/default', ({ row }: { row: Expanded }) => createElement(OrderCard, { order: row as unknown as Order }));
}
