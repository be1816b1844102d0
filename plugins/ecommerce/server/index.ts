import type { Plugin, PluginContext } from '../../../runtime/plugin.js';
import { seedFile } from '../../../runtime/seed-file.js';
import { orderHooks } from './hooks.js';
import { Orders } from './orders.js';
import { priceHooks } from './prices.js';
import { shopRoutes } from './routes.js';

const perApp = new WeakMap<PluginContext, Orders>();
const ordersOf = (ctx: PluginContext) => {
  let o = perApp.get(ctx);
  if (!o) perApp.set(ctx, (o = new Orders(ctx)));
  return o;
};

/**
 * The ecommerce module: the catalog's demo rows, the cart and checkout (spec §7; payments through
 * ctx.services.billing), prices refused when they do not fit their currency's minor units, and the order
 * lifecycle as hooks (approval after payment, the receipt, the 'order-status-changed' mail).
 */
export const ecommerce: Plugin = {
  name: 'ecommerce',
  // the visitor's own orders and cart: pages for them alone, not for search engines
  noindexWidgets: ['ecommerce/order-list-default', 'ecommerce/cart-default'],
  routes: (app, ctx) => shopRoutes(app, ctx, ordersOf(ctx)),
  // the agent module's 'clear-old-cart-orders' job calls this: carts untouched for 30 days, never checked-out orders
  services: (ctx) => ({ ecommerce: { clearOldOrders: async ({ now }: { now: Date }) => ({ deleted: await ordersOf(ctx).clearOldCarts(new Date(now.getTime() - 30 * 86_400_000)) }) } }),
  // prices that fit their currencies' minor units (prices.ts), and the order lifecycle (hooks.ts): entities of their own
  hooks: (ctx) => ({ ...priceHooks(ctx), ...orderHooks(ctx, ordersOf(ctx)) }),
  seed: seedFile(new URL('../seed.json', import.meta.url)),
};
