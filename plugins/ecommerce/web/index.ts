import { createElement } from 'react';
import { registerLazy } from '../../../web/registry.js';
import type { Expanded } from '../../../web/storefront/context.js';
import type { Order } from './shop-api.js';

type Row = { row: Expanded };

/** the ecommerce module's web variants: the widget's public ones (schemas/ecommerce/widget.json), the product's, the order's */
export function registerEcommerceWeb() {
  const widget = (variant: string) => `ecommerce/widget/${variant}`;
  registerLazy('plugins/ecommerce/web/products', () => import('./products.js'), {
    [widget('default')]: 'ProductListDefault',
    [widget('product-list-default')]: 'ProductListDefault',
    [widget('product-overview-default')]: 'ProductOverviewDefault',
    [widget('product-list-recommendation')]: 'ProductListRecommendation',
    // the product's overview and its parts
    'ecommerce/product/overview-default': 'ProductOverview',
  });
  registerLazy('plugins/ecommerce/web/catalog', () => import('./catalog.js'), {
    [widget('category-list-default')]: 'CategoryListDefault',
    [widget('category-overview-default')]: 'CategoryOverviewDefault',
    [widget('store-list-default')]: 'StoreListDefault',
    [widget('store-overview-default')]: 'StoreOverviewDefault',
    [widget('store-product-list-default')]: 'StoreProductListDefault',
  });
  registerLazy('plugins/ecommerce/web/orders', () => import('./orders.js'), { [widget('order-list-default')]: 'OrderListDefault' });
  registerLazy('plugins/ecommerce/web/cart', () => import('./cart.js'), { [widget('cart-default')]: 'CartWidget' });
  // the card product lists draw (title, subtitle, prices, link)
  registerLazy('plugins/ecommerce/web/parts', () => import('./parts.js'), {
    'ecommerce/product/default': (m) => ({ row }: Row) => createElement(m.ProductCard, { product: row }),
  });
  registerLazy('plugins/ecommerce/web/currency', () => import('./currency.js'), {
    'ecommerce/product/price-default': (m) => ({ row }: Row) => createElement(m.ProductPrice, { row, className: 'text-3xl' }),
    'ecommerce/product/currency-toggle-group-default': 'ProductCurrencyToggleGroup',
  });
  registerLazy('plugins/ecommerce/web/product-cart', () => import('./product-cart.js'), { 'ecommerce/product/cart-default': 'ProductCart' });
  // an order as the shop's routes answer it (with its lines and prices): the order card 'Order #{id}'
  registerLazy('plugins/ecommerce/web/order-card', () => import('./order-card.js'), {
    'ecommerce/order/default': (m) => ({ row }: Row) => createElement(m.OrderCard, { order: row as unknown as Order }),
  });
}
