import type { Context, Hono } from 'hono';
import { and, eq } from 'drizzle-orm';
import { isPrivileged } from '../../../runtime/http/access.js';
import { HttpError, badRequest, notFound } from '../../../runtime/http/errors.js';
import { readQuery } from '../../../runtime/http/query-params.js';
import type { PluginContext } from '../../../runtime/plugin.js';
import type { Drizzle } from '../../../runtime/db/index.js';
import type { BillingService } from '../../billing/server/index.js';
import { lockRow } from '../../../runtime/db/lock.js';
import { lineTotal, orderQuantity, orderTotals, priceIn } from '../pricing.js';
import { addToCartInput, dataOf, linesInput, orderCheckoutInput, ordersCheckoutInput, pathId, productCheckoutInput, quantityInput } from './bodies.js';
import { checkoutOrders } from './checkout.js';
import { languageOfUrl } from '../../../runtime/http/language.js';
import { NO_PRICE, Orders } from './orders.js';
import type { Limit } from '../../../runtime/http/rate-limit.js';

const SUBJECT = '/api/rbac/subjects/:id/ecommerce-module';

/**
 * Checkouts per subject (every checkout route together): each one makes an order, a payment intent and an invoice,
 * opens a payment at the provider, mails the buyer's verified addresses and adds to the admins' order digest. A buyer
 * checks out a few times; a script looping it made rows and provider payments without bound. The system and admins
 * are not counted.
 */
export const CHECKOUT_LIMIT: Limit = { points: 20, duration: 600 };
/**
 * Checkouts per client address, whichever subject makes them (F06): registration makes a fresh subject, with a fresh
 * budget, 30 times a minute, so one address looping fresh accounts was bounded by nothing. Counted before the
 * per-subject limit, so that a spent address costs no subject its budget.
 */
export const CHECKOUT_ADDRESS_LIMIT: Limit = { points: 30, duration: 600 };

/**
 * The shop's routes (spec §7). Under /api/rbac/subjects/{id}/ecommerce-module a subject acts for itself
 * (the system and admins for anyone); every order id is checked against the model's ownership. Route
 * permissions are rows: members get these through rbac's 'Signed in: Cart and checkout' and the
 * ecommerce defaults.
 */
export function shopRoutes(app: Hono, ctx: PluginContext, orders: Orders) {
  const subjectEntity = ctx.model.byId['rbac/subject'];
  const orderEntity = ctx.model.byId['ecommerce/order'];
  const lineEntity = ctx.model.byId['ecommerce/orders-to-products'];
  const o = ctx.database.tables['ecommerce/order'];
  const defaultProvider = () => (ctx.services.billing as BillingService | undefined)?.providers.defaultProvider;
  const checkoutLimit = ctx.rateLimit('checkout', CHECKOUT_LIMIT);
  const checkoutAddressLimit = ctx.rateLimit('checkout-address', CHECKOUT_ADDRESS_LIMIT);
  /**
   * counts a checkout of the client address and of the subject (not the system's nor an admin's), before its body is
   * read or anything written
   */
  const countCheckout = async (c: Context, subjectId: string) => {
    if (await ctx.privileged(c)) return;
    await checkoutAddressLimit(c);
    await checkoutLimit(c, subjectId);
  };

  /** the subject a route acts for: the caller itself, or any existing subject for the system and admins */
  async function subjectOf(c: Context): Promise<string> {
    const id = pathId(c, 'id');
    const caller = await ctx.caller(c);
    if (isPrivileged(caller)) {
      if (!(await ctx.repo.get(subjectEntity, id))) throw notFound(subjectEntity, id);
      return id;
    }
    if (caller.kind !== 'subject') throw new HttpError(401, 'Not authorized');
    if (caller.subjectId !== id) throw new HttpError(403, "Not authorized: these are another account's orders");
    return id;
  }

  /**
   * The buyer's language, which the payment's return pages keep: the body's `language` (400 unless a configured one),
   * else the language of the page the checkout was sent from (the Referer's first path segment), else the default.
   */
  function buyerLanguage(c: Context, given: string | undefined): string {
    const { languages, defaultLanguage } = ctx.model;
    if (given !== undefined) {
      if (!languages.includes(given)) throw badRequest(`language must be one of: ${languages.join(', ')}`, [{ field: 'language', rule: 'enum', message: `language must be one of: ${languages.join(', ')}` }]);
      return given;
    }
    return languageOfUrl(c.req.header('referer'), ctx.model) ?? defaultLanguage;
  }

  const cartLines = async (subjectId: string) => {
    const ids = await orders.idsOf(subjectId, and(eq(o.type, 'cart'), eq(o.status, 'new')));
    return (await orders.views(ids)).flatMap((v) => v.ordersToProducts);
  };

  /**
   * GET …/orders: the subject's cart orders (type cart, status new), [] when none — as the reference client reads
   * it; `?type=history` the checked-out ones, `?type=all` every order; with lines, prices and invoices, newest first
   */
  app.get(`${SUBJECT}/orders`, async (c) => {
    const subjectId = await subjectOf(c);
    const { type } = readQuery(c.req.query(), { type: { kind: 'oneOf', values: ['cart', 'history', 'all'], fallback: 'cart' } });
    const where = type === 'all' ? undefined : type === 'cart' ? and(eq(o.type, 'cart'), eq(o.status, 'new')) : eq(o.type, 'history');
    return c.json({ data: await orders.views(await orders.idsOf(subjectId, where)) });
  });

  /** GET …/orders/total: the cart per currency — [{ billingModuleCurrency, total, orders: [{ …order, total }] }] */
  app.get(`${SUBJECT}/orders/total`, async (c) => {
    const subjectId = await subjectOf(c);
    const views = await orders.views(await orders.idsOf(subjectId, and(eq(o.type, 'cart'), eq(o.status, 'new'))));
    const totals = orderTotals(views.flatMap((v) => v.ordersToProducts));
    return c.json({
      data: totals.map((t) => ({
        billingModuleCurrency: t.currency,
        total: t.amount,
        orders: views.map((v) => ({ ...v, total: v.totals.find((x) => x.currency.id === t.currency.id)?.amount ?? 0 })),
      })),
    });
  });

  /** GET …/orders/quantity: how many items are in the cart */
  app.get(`${SUBJECT}/orders/quantity`, async (c) => c.json({ data: orderQuantity(await cartLines(await subjectOf(c))) }));

  /** POST …/orders { productId, quantity, storeId? }: into the cart, made when there is none */
  app.post(`${SUBJECT}/orders`, async (c) => {
    const subjectId = await subjectOf(c);
    const input = addToCartInput((await dataOf(c))!);
    const { view, created } = await orders.forSubject(subjectId, async (tx) => {
      const { orderId, created } = await orders.addToCart(subjectId, input, tx);
      return { view: (await orders.views([orderId], tx))[0], created };
    });
    return c.json({ data: view }, created ? 201 : 200);
  });

  /** POST …/orders/checkout { provider, email, billingModule.currency.id, ecommerceModule.orders[].id } */
  app.post(`${SUBJECT}/orders/checkout`, async (c) => {
    const subjectId = await subjectOf(c);
    await countCheckout(c, subjectId);
    const body = ordersCheckoutInput((await dataOf(c))!, defaultProvider());
    const input = { ...body, language: buyerLanguage(c, body.language) };
    const result = await orders.forSubject(subjectId, (tx) => checkoutOrders(orders, subjectId, input.orderIds, input, tx));
    return c.json({ data: result }, 201);
  });

  /** PATCH …/orders/{orderId} { ordersToProducts: [{ id, quantity }] }: sets quantities of the cart's lines */
  app.patch(`${SUBJECT}/orders/:orderId`, async (c) => {
    const subjectId = await subjectOf(c);
    const orderId = pathId(c, 'orderId');
    const items = linesInput((await dataOf(c))!, 'update') as { id: string; quantity: number }[];
    const view = await orders.forSubject(subjectId, async (tx) => {
      Orders.assertCart(await orders.ownOrder(subjectId, orderId, tx));
      await orders.setQuantities(orderId, items, tx);
      return (await orders.views([orderId], tx))[0];
    });
    return c.json({ data: view });
  });

  /** DELETE …/orders/{orderId} { ordersToProducts: [{ id, quantity? }] }: takes items out; without a body, the whole cart */
  app.delete(`${SUBJECT}/orders/:orderId`, async (c) => {
    const subjectId = await subjectOf(c);
    const orderId = pathId(c, 'orderId');
    const data = await dataOf(c, true);
    const items = data ? linesInput(data, 'remove') : undefined;
    const answer = await orders.forSubject(subjectId, async (tx) => {
      Orders.assertCart(await orders.ownOrder(subjectId, orderId, tx));
      if (!items) {
        await ctx.repo.delete(orderEntity, orderId, tx);
        return { id: orderId, deleted: true };
      }
      await orders.removeQuantities(orderId, items, tx);
      return (await orders.views([orderId], tx))[0];
    });
    return c.json({ data: answer });
  });

  /** POST …/orders/{orderId}/checkout { provider, email, billingModule.currency.id? } */
  app.post(`${SUBJECT}/orders/:orderId/checkout`, async (c) => {
    const subjectId = await subjectOf(c);
    await countCheckout(c, subjectId);
    const orderId = pathId(c, 'orderId', 'orderId');
    const body = orderCheckoutInput((await dataOf(c))!, defaultProvider());
    const input = { ...body, language: buyerLanguage(c, body.language) };
    const result = await orders.forSubject(subjectId, (tx) => checkoutOrders(orders, subjectId, [orderId], input, tx));
    return c.json({ data: result }, 201);
  });

  /** POST …/products/{productId}/checkout { provider, email, quantity?, storeId?, billingModule.currency.id? }: an order of its own, checked out at once */
  app.post(`${SUBJECT}/products/:productId/checkout`, async (c) => {
    const subjectId = await subjectOf(c);
    await countCheckout(c, subjectId);
    const productId = pathId(c, 'productId');
    const body = productCheckoutInput((await dataOf(c))!, defaultProvider());
    const input = { ...body, language: buyerLanguage(c, body.language) };
    const result = await orders.forSubject(subjectId, async (tx) => {
      const product = ctx.model.byId['ecommerce/product'];
      if (!(await ctx.repo.get(product, productId, tx))) throw notFound(product, productId);
      // the same store rule as an add to the cart: a store named must exist and sell the product
      const storeId = await orders.storeOf(productId, input.storeId, tx);
      const order = await ctx.repo.create(orderEntity, {}, tx, '', undefined, { linkTo: subjectId });
      await ctx.repo.create(lineEntity, { orderId: order.id, productId, quantity: input.quantity }, tx);
      await orders.linkStore(order.id as string, storeId, tx);
      return checkoutOrders(orders, subjectId, [order.id as string], input, tx);
    });
    return c.json({ data: result }, 201);
  });

  /** an order the caller may see: any for the system and admins, its own for a subject */
  async function visibleOrder(c: Context, id: string, tx?: Drizzle) {
    const row = await ctx.repo.get(orderEntity, id, tx);
    if (!row) throw notFound(orderEntity, id);
    const caller = await ctx.caller(c);
    if (isPrivileged(caller)) return row;
    if (caller.kind !== 'subject' || !(await orders.policy.ownsStored(orderEntity, caller.subjectId!, id, tx ?? ctx.database.db))) throw new HttpError(403, 'Not authorized: this order belongs to another account');
    return row;
  }

  /** GET /api/ecommerce/orders/{id}/checkout-attributes/{billingModuleCurrencyId}: each line's price attribute in that currency */
  app.get('/api/ecommerce/orders/:id/checkout-attributes/:currencyId', async (c) => {
    const id = pathId(c, 'id');
    const currencyId = pathId(c, 'currencyId', 'billingModuleCurrencyId');
    await visibleOrder(c, id);
    const currencyEntity = ctx.model.byId['billing/currency'];
    const currency = await ctx.repo.get(currencyEntity, currencyId);
    if (!currency) throw notFound(currencyEntity, currencyId);
    const [view] = await orders.views([id]);
    const lines = view.ordersToProducts.map((l) => ({ line: l, price: priceIn(l.prices, currencyId) }));
    if (lines.some((l) => !l.price)) throw badRequest(NO_PRICE, [{ field: 'billingModuleCurrencyId', rule: 'price', message: NO_PRICE }]);
    const priced = lines.map(({ line, price }) => ({ id: line.id, productId: line.productId, quantity: line.quantity, price: price!.amount, total: lineTotal({ quantity: line.quantity, prices: [price!] })[0].amount }));
    const total = orderTotals(lines.map(({ line, price }) => ({ quantity: line.quantity, prices: [price!] })))[0]?.amount ?? 0;
    // { amount, type, interval? } as the reference client reads it: a subscription when any product is one
    const subscription = view.ordersToProducts.some((l) => (l as { product?: { type?: string } }).product?.type === 'subscription');
    return c.json({ data: { amount: total, type: subscription ? 'subscription' : 'one_off', ...(subscription && { interval: 'month' }), billingModuleCurrency: currency, ordersToProducts: priced, total } });
  });

  /** GET /api/ecommerce/orders/{id}/total: totals per currency */
  app.get('/api/ecommerce/orders/:id/total', async (c) => {
    const id = pathId(c, 'id');
    await visibleOrder(c, id);
    const [view] = await orders.views([id]);
    const totals = view.totals;
    // { total, billingModuleCurrency } in the order's currency (once checked out) or the default one; every currency in `totals`
    const main = totals.find((t) => t.currency.id === view.currency?.id) ?? totals.find((t) => t.currency.isDefault) ?? totals[0];
    return c.json({ data: { total: main?.amount ?? 0, billingModuleCurrency: main?.currency ?? null, totals } });
  });

  /** GET /api/ecommerce/orders/{id}/quantity */
  app.get('/api/ecommerce/orders/:id/quantity', async (c) => {
    const id = pathId(c, 'id');
    await visibleOrder(c, id);
    return c.json({ data: (await orders.views([id]))[0].quantity });
  });

  /** PATCH /api/ecommerce/orders/{id}/orders-to-products/{lineId} { quantity }: an owner's cart, or any order for an admin */
  app.patch('/api/ecommerce/orders/:id/orders-to-products/:lineId', async (c) => {
    const id = pathId(c, 'id');
    const lineId = pathId(c, 'lineId', 'orderToProductId');
    const quantity = quantityInput((await dataOf(c))!);
    const caller = await ctx.caller(c);
    const change = async (tx: Drizzle) => {
      const order = await visibleOrder(c, id, tx);
      if (!isPrivileged(caller)) Orders.assertCart(order);
      // the line is named by the path: one that is not this order's is not found
      const line = await ctx.repo.get(lineEntity, lineId, tx);
      if (!line || line.orderId !== id) throw new HttpError(404, `No line ${lineId} in order ${id}`);
      await orders.setQuantities(id, [{ id: lineId, quantity }], tx);
      return (await orders.views([id], tx))[0];
    };
    const view =
      caller.kind === 'subject' && !isPrivileged(caller)
        ? await orders.forSubject(caller.subjectId!, change)
        : await ctx.repo.transaction(async (tx) => {
            await lockRow(ctx.database, tx, orderEntity.id, id);
            return change(tx);
          });
    return c.json({ data: view });
  });

  /** GET /api/ecommerce/orders-to-products/{id}/total: the line's price × quantity per currency */
  app.get('/api/ecommerce/orders-to-products/:id/total', async (c) => {
    const id = pathId(c, 'id');
    const line = await ctx.repo.get(lineEntity, id);
    if (!line) throw notFound(lineEntity, id);
    await visibleOrder(c, line.orderId as string);
    const prices = (await orders.unitPrices([line as { id: string; productId: string; prices?: unknown }])).get(id) ?? [];
    return c.json({ data: lineTotal({ quantity: line.quantity as number, prices }) });
  });

  /** POST /api/ecommerce/orders/clear-old-orders { olderThanDays = 30 } (admins): removes abandoned carts */
  app.post('/api/ecommerce/orders/clear-old-orders', async (c) => {
    if (!(await ctx.privileged(c))) throw new HttpError(403, 'Not authorized');
    const data = (await dataOf(c, true)) ?? {};
    const days = data.olderThanDays ?? 30;
    if (typeof days !== 'number' || !Number.isInteger(days) || days < 0 || days > 3650) throw badRequest('olderThanDays must be a whole number of days from 0 to 3650', [{ field: 'olderThanDays', rule: 'integer', message: 'olderThanDays must be an integer from 0 to 3650' }]);
    const unknown = Object.keys(data).filter((k) => k !== 'olderThanDays');
    if (unknown.length) throw badRequest(`${unknown[0]} is not an allowed field`, unknown.map((field) => ({ field, rule: 'unknown', message: `${field} is not an allowed field` })));
    const deleted = await orders.clearOldCarts(new Date(Date.now() - days * 86_400_000));
    return c.json({ data: { ok: true, deleted } });
  });

}
