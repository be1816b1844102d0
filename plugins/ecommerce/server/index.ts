import type { Plugin, PluginContext } from '../../../runtime/plugin.js';
import { seedFile } from '../../../runtime/seed-file.js';
import { orderHooks } from './hooks.js';
import { Orders } from './orders.js';
import { shopRoutes } from './routes.js';

const perApp = new WeakMap<PluginContext, Orders>();
const ordersOf = (ctx: PluginContext) => {
  let o = perApp.get(ctx);
  if (!o) perApp.set(ctx, (o = new Orders(ctx)));
  return o;
};

/**
 * The ecommerce module: the catalog's demo rows, the cart and checkout (spec §7; payments through
 * ctx.services.billing), and the order lifecycle as hooks (approval after payment, the receipt, the
 * 'order-status-changed' mail).
 */
export const ecommerce: Plugin = {
  name: 'ecommerce',
  routes: (app, ctx) => shopRoutes(app, ctx, ordersOf(ctx)),
  // the agent module's 'clear-old-cart-orders' job calls this: carts untouched for 30 days, never checked-out orders
  services: (ctx) => ({ ecommerce: { clearOldOrders: async ({ now }: { now: Date }) => ({ deleted: await ordersOf(ctx).clearOldCarts(new Date(now.getTime() - 30 * 86_400_000)) }) } }),
  hooks: (ctx) => orderHooks(ctx, ordersOf(ctx)),
  seed: seedFile(new URL('../seed.json', import.meta.url)),
};
