import { and, asc, eq, gte, inArray, lt, notInArray, type SQL } from 'drizzle-orm';
import type { Drizzle } from '../../../runtime/db/index.js';
import { Policy } from '../../../runtime/crud/policy.js';
import { HttpError, badRequest, notFound } from '../../../runtime/http/errors.js';
import type { PluginContext } from '../../../runtime/plugin.js';
import { lockRow } from '../../../runtime/db/lock.js';
import { lineTotal, orderQuantity, orderTotals, productPriceList, type Currency, type Price } from '../pricing.js';
import { atMostMaxQuantity } from './bodies.js';

type Row = Record<string, unknown>;

export const NO_PRICE = "Product doesn't have price attributes connected to billing module currency.";

export interface OrderLineView {
  id: string;
  orderId: string;
  productId: string;
  quantity: number;
  product: { id: string; slug: string; title: unknown; adminTitle: string; type: string };
  /** unit prices per currency, and prices × quantity */
  prices: Price[];
  totals: Price[];
}

/** an order as the shop's routes answer it: its lines with products and prices, totals per currency, its invoices */
export interface OrderView {
  id: string;
  variant: string;
  status: string;
  type: string;
  receipt: string;
  comment: string | null;
  createdAt: unknown;
  updatedAt: unknown;
  ordersToProducts: OrderLineView[];
  totals: Price[];
  quantity: number;
  /** the currency it was checked out in */
  currency: Currency | null;
  invoices: { id: string; status: string; provider: string; amount: number; paymentUrl: string | null; email: string | null }[];
}

/** an order may change while it is the subject's cart: type cart, status new */
export const isCart = (order: Row) => order.type === 'cart' && order.status === 'new';

/**
 * The ecommerce module's reads and cart writes over the model's tables. Ownership comes from the model
 * (orders are owned through rbac/subjects-to-ecommerce-module-orders; see runtime/crud/policy.ts): a
 * subject's order is one `policy.ownedWhere` says it owns. Every write runs through ctx.repo (hooks run)
 * inside a transaction that first locks the subject, so one subject's cart changes run one at a time.
 */
export class Orders {
  readonly policy: Policy;
  private t: Record<string, Drizzle>;

  constructor(readonly ctx: PluginContext) {
    this.policy = new Policy(ctx.model, ctx.database, (c, m, p) => ctx.permits(c, m, p));
    this.t = ctx.database.tables;
  }

  entity(id: string) {
    return this.ctx.model.byId[id];
  }

  /** one transaction holding the subject: its cart changes and checkouts run one after the other */
  forSubject<T>(subjectId: string, fn: (tx: Drizzle) => Promise<T>): Promise<T> {
    return this.ctx.repo.transaction(async (tx) => {
      await lockRow(this.ctx.database, tx, 'rbac/subject', subjectId);
      return fn(tx);
    });
  }

  /** the unit prices of products, per currency: attributes whose key is of type 'price' (shared extraction) */
  async pricesOf(productIds: string[], db: Drizzle = this.ctx.database.db): Promise<Map<string, Price[]>> {
    const out = new Map<string, Price[]>();
    if (!productIds.length) return out;
    const t = this.t;
    const [pta, a, aka, k, ac, c] = [t['ecommerce/products-to-attributes'], t['ecommerce/attribute'], t['ecommerce/attribute-keys-to-attributes'], t['ecommerce/attribute-key'], t['ecommerce/attributes-to-billing-module-currencies'], t['billing/currency']];
    const rows: { productId: string; number: number | null; currency: Currency }[] = await db
      .select({ productId: pta.productId, number: a.number, currency: { id: c.id, slug: c.slug, symbol: c.symbol, title: c.title, isDefault: c.isDefault } })
      .from(pta)
      .innerJoin(a, eq(a.id, pta.attributeId))
      .innerJoin(aka, eq(aka.attributeId, a.id))
      .innerJoin(k, and(eq(k.id, aka.attributeKeyId), eq(k.type, 'price')))
      .innerJoin(ac, eq(ac.attributeId, a.id))
      .innerJoin(c, eq(c.id, ac.billingModuleCurrencyId))
      .where(inArray(pta.productId, [...new Set(productIds)]))
      .orderBy(asc(pta.orderIndex), asc(pta.createdAt), asc(ac.orderIndex), asc(ac.createdAt));
    const expanded = new Map<string, { productsToAttributes: unknown[] }>();
    for (const r of rows) {
      const p = expanded.get(r.productId) ?? { productsToAttributes: [] };
      p.productsToAttributes.push({ attribute: { number: r.number, attributesToBillingModuleCurrencies: [{ billingModuleCurrency: { ...r.currency, isDefault: Boolean(r.currency.isDefault) } }] } });
      expanded.set(r.productId, p);
    }
    for (const id of productIds) out.set(id, productPriceList(expanded.get(id)));
    return out;
  }

  /**
   * The unit prices of order lines, by line id: a checked-out line's kept prices (`prices`, written by checkoutOrders:
   * what it was invoiced at), else today's prices of its product; today's are read only for lines that need them.
   */
  async unitPrices(lines: { id: string; productId: string; prices?: unknown }[], db: Drizzle = this.ctx.database.db): Promise<Map<string, Price[]>> {
    const today = await this.pricesOf(lines.filter((l) => !Array.isArray(l.prices)).map((l) => l.productId), db);
    return new Map(lines.map((l) => [l.id, Array.isArray(l.prices) ? (l.prices as Price[]) : (today.get(l.productId) ?? [])]));
  }

  /** orders with their lines, prices, totals, currency and invoices, in the order of `ids` */
  async views(ids: string[], db: Drizzle = this.ctx.database.db): Promise<OrderView[]> {
    if (!ids.length) return [];
    const t = this.t;
    const [o, otp, p] = [t['ecommerce/order'], t['ecommerce/orders-to-products'], t['ecommerce/product']];
    const orders: Row[] = await db.select().from(o).where(inArray(o.id, ids));
    const lines: Row[] = await db
      .select({ id: otp.id, orderId: otp.orderId, productId: otp.productId, quantity: otp.quantity, prices: otp.prices, product: { id: p.id, slug: p.slug, title: p.title, adminTitle: p.adminTitle, type: p.type } })
      .from(otp)
      .innerJoin(p, eq(p.id, otp.productId))
      .where(inArray(otp.orderId, ids))
      .orderBy(asc(otp.orderIndex), asc(otp.createdAt), asc(otp.id));
    const prices = await this.unitPrices(lines as { id: string; productId: string; prices?: unknown }[], db);
    const [oc, cur] = [t['ecommerce/orders-to-billing-module-currencies'], t['billing/currency']];
    const currencies: { orderId: string; currency: Currency }[] = await db
      .select({ orderId: oc.orderId, currency: { id: cur.id, slug: cur.slug, symbol: cur.symbol, title: cur.title } })
      .from(oc)
      .innerJoin(cur, eq(cur.id, oc.billingModuleCurrencyId))
      .where(inArray(oc.orderId, ids));
    const [opi, pii, inv] = [t['ecommerce/orders-to-billing-module-payment-intents'], t['billing/payment-intents-to-invoices'], t['billing/invoice']];
    const invoices: Row[] = await db
      .select({ orderId: opi.orderId, id: inv.id, status: inv.status, provider: inv.provider, amount: inv.amount, paymentUrl: inv.paymentUrl, email: inv.email, createdAt: inv.createdAt })
      .from(opi)
      .innerJoin(pii, eq(pii.paymentIntentId, opi.billingModulePaymentIntentId))
      .innerJoin(inv, eq(inv.id, pii.invoiceId))
      .where(inArray(opi.orderId, ids))
      .orderBy(asc(inv.createdAt));
    const byId = new Map(orders.map((r) => [r.id as string, r]));
    return ids.filter((id) => byId.has(id)).map((id) => {
      const order = byId.get(id)!;
      const own = lines
        .filter((l) => l.orderId === id)
        .map((l) => {
          const line = { ...(l as unknown as OrderLineView), prices: prices.get(l.id as string) ?? [] };
          return { ...line, totals: lineTotal(line) };
        });
      return {
        id,
        variant: order.variant as string,
        status: order.status as string,
        type: order.type as string,
        receipt: (order.receipt as string) ?? '',
        comment: (order.comment as string | null) ?? null,
        createdAt: order.createdAt,
        updatedAt: order.updatedAt,
        ordersToProducts: own,
        totals: orderTotals(own),
        quantity: orderQuantity(own),
        currency: currencies.find((c) => c.orderId === id)?.currency ?? null,
        invoices: invoices.filter((i) => i.orderId === id).map(({ orderId: _, createdAt: __, ...rest }) => ({ ...rest, amount: Number(rest.amount) })) as OrderView['invoices'],
      };
    });
  }

  /** the subject's orders (newest first), optionally of one type */
  async idsOf(subjectId: string, where?: SQL, db: Drizzle = this.ctx.database.db): Promise<string[]> {
    const o = this.t['ecommerce/order'];
    const rows: { id: string }[] = await db
      .select({ id: o.id })
      .from(o)
      .where(and(this.policy.ownedWhere(this.entity('ecommerce/order'), subjectId, db), where))
      .orderBy(asc(o.createdAt), asc(o.id));
    return rows.map((r) => r.id).reverse();
  }

  /** the subject's cart: its oldest order of type cart and status new */
  async cartOf(subjectId: string, db: Drizzle = this.ctx.database.db): Promise<string | undefined> {
    const o = this.t['ecommerce/order'];
    const ids = await this.idsOf(subjectId, and(eq(o.type, 'cart'), eq(o.status, 'new')), db);
    return ids[ids.length - 1];
  }

  /** the order, when the subject owns it; 404 when there is none, 403 when it is someone else's */
  async ownOrder(subjectId: string, orderId: string, tx: Drizzle): Promise<Row> {
    const entity = this.entity('ecommerce/order');
    const row = await this.ctx.repo.get(entity, orderId, tx);
    if (!row) throw notFound(entity, orderId);
    if (!(await this.policy.ownsStored(entity, subjectId, orderId, tx))) throw new HttpError(403, 'Not authorized: this order belongs to another account');
    return row;
  }

  /** the order must still be a cart to be changed */
  static assertCart(order: Row) {
    if (!isCart(order)) throw new HttpError(409, `Order ${order.id} is ${order.status}: only a cart (type cart, status new) can be changed`);
  }

  /** adds `quantity` of a product to the subject's cart, making the cart when there is none */
  async addToCart(subjectId: string, input: { productId: string; quantity: number; storeId?: string }, tx: Drizzle): Promise<{ orderId: string; created: boolean }> {
    const product = this.entity('ecommerce/product');
    if (!(await this.ctx.repo.get(product, input.productId, tx))) throw notFound(product, input.productId);
    if (!(await this.pricesOf([input.productId], tx)).get(input.productId)?.length) throw badRequest(NO_PRICE, [{ field: 'productId', rule: 'price', message: NO_PRICE }]);
    const storeId = await this.storeOf(input.productId, input.storeId, tx);
    const order = this.entity('ecommerce/order');
    const lineEntity = this.entity('ecommerce/orders-to-products');
    const cart = await this.cartOf(subjectId, tx);
    const orderId = cart ?? ((await this.ctx.repo.create(order, {}, tx, '', undefined, { linkTo: subjectId })).id as string);
    const otp = this.t['ecommerce/orders-to-products'];
    const [line] = await tx.select({ id: otp.id, quantity: otp.quantity }).from(otp).where(and(eq(otp.orderId, orderId), eq(otp.productId, input.productId))).limit(1);
    if (line) {
      // what the line holds plus what is added stays within the cap of a single add (under the subject's lock)
      atMostMaxQuantity(input.quantity, 'quantity', line.quantity);
      await this.ctx.repo.update(lineEntity, line.id, { quantity: line.quantity + input.quantity }, tx);
    } else await this.ctx.repo.create(lineEntity, { orderId, productId: input.productId, quantity: input.quantity }, tx);
    await this.linkStore(orderId, storeId, tx);
    return { orderId, created: !cart };
  }

  /**
   * The store a product is bought from: the one named (which must exist and sell it), else the one store selling it;
   * with several, the client must say which (the reference client's message). Undefined when no store sells it.
   */
  async storeOf(productId: string, storeId: string | undefined, tx: Drizzle): Promise<string | undefined> {
    if (storeId) {
      await this.assertSold(storeId, productId, tx);
      return storeId;
    }
    const sp = this.t['ecommerce/stores-to-products'];
    const stores: { storeId: string }[] = await tx.select({ storeId: sp.storeId }).from(sp).where(eq(sp.productId, productId)).limit(2);
    const distinct = [...new Set(stores.map((x) => x.storeId))];
    if (distinct.length > 1) throw badRequest("Multiple stores found. Pass 'data.storeId'", [{ field: 'storeId', rule: 'required', message: "Multiple stores found. Pass 'data.storeId'" }]);
    return distinct[0];
  }

  /** which store an order is for (ecommerce/stores-to-orders), once per store */
  async linkStore(orderId: string, storeId: string | undefined, tx: Drizzle) {
    if (!storeId) return;
    const so = this.t['ecommerce/stores-to-orders'];
    const [linked] = await tx.select({ id: so.id }).from(so).where(and(eq(so.storeId, storeId), eq(so.orderId, orderId))).limit(1);
    if (!linked) await this.ctx.repo.create(this.entity('ecommerce/stores-to-orders'), { storeId, orderId }, tx);
  }

  private async assertSold(storeId: string, productId: string, tx: Drizzle) {
    const store = this.entity('ecommerce/store');
    if (!(await this.ctx.repo.get(store, storeId, tx))) throw badRequest(`storeId: no ecommerce/store with id ${storeId}`, [{ field: 'storeId', rule: 'reference', message: `no ecommerce/store with id ${storeId}` }]);
    const sp = this.t['ecommerce/stores-to-products'];
    const [sold] = await tx.select({ id: sp.id }).from(sp).where(and(eq(sp.storeId, storeId), eq(sp.productId, productId))).limit(1);
    if (!sold) throw badRequest('storeId: this store does not sell the product', [{ field: 'storeId', rule: 'store', message: 'this store does not sell the product' }]);
  }

  /** the order's lines named by `items`, each checked to belong to it */
  async linesOf(orderId: string, items: { id: string }[], tx: Drizzle): Promise<Map<string, Row>> {
    const otp = this.t['ecommerce/orders-to-products'];
    const rows: Row[] = items.length ? await tx.select().from(otp).where(and(eq(otp.orderId, orderId), inArray(otp.id, items.map((i) => i.id)))) : [];
    const found = new Map(rows.map((r) => [r.id as string, r]));
    const missing = items.map((it, i) => ({ it, i })).filter(({ it }) => !found.has(it.id));
    if (missing.length) {
      throw badRequest(`No line ${missing[0].it.id} in order ${orderId}`, missing.map(({ it, i }) => ({ field: `ordersToProducts[${i}].id`, rule: 'reference', message: `no line ${it.id} in order ${orderId}` })));
    }
    return found;
  }

  /** sets the quantities of lines of a cart */
  async setQuantities(orderId: string, items: { id: string; quantity: number }[], tx: Drizzle) {
    await this.linesOf(orderId, items, tx);
    for (const it of items) await this.ctx.repo.update(this.entity('ecommerce/orders-to-products'), it.id, { quantity: it.quantity }, tx);
  }

  /** takes `quantity` (all when left out) of each line out of a cart; a line left with none is removed */
  async removeQuantities(orderId: string, items: { id: string; quantity?: number }[], tx: Drizzle) {
    const lines = await this.linesOf(orderId, items, tx);
    const entity = this.entity('ecommerce/orders-to-products');
    for (const it of items) {
      const line = lines.get(it.id);
      if (!line) continue; // named twice: already removed
      const left = (line.quantity as number) - (it.quantity ?? (line.quantity as number));
      if (left > 0) {
        await this.ctx.repo.update(entity, it.id, { quantity: left }, tx);
        line.quantity = left;
      } else {
        await this.ctx.repo.delete(entity, it.id, tx);
        lines.delete(it.id);
      }
    }
  }

  /** carts (type cart, status new) neither changed nor given a line since `before`, with their lines; the number removed */
  async clearOldCarts(before: Date): Promise<number> {
    const [o, otp] = [this.t['ecommerce/order'], this.t['ecommerce/orders-to-products']];
    const order = this.entity('ecommerce/order');
    return this.ctx.repo.transaction(async (tx) => {
      const recent = tx.select({ id: otp.orderId }).from(otp).where(gte(otp.updatedAt, before));
      const old: { id: string }[] = await tx.select({ id: o.id }).from(o).where(and(eq(o.type, 'cart'), eq(o.status, 'new'), lt(o.updatedAt, before), notInArray(o.id, recent)));
      for (const { id } of old) await this.ctx.repo.delete(order, id, tx);
      return old.length;
    });
  }
}
