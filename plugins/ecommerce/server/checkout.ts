import { desc } from 'drizzle-orm';
import type { Drizzle } from '../../../runtime/db/index.js';
import { HttpError, badRequest } from '../../../runtime/http/errors.js';
import type { BillingService } from '../../billing/server/index.js';
import type { ProviderName } from '../../billing/server/providers/provider.js';
import { orderTotals, priceIn, type Currency } from '../pricing.js';
import { NO_PRICE, Orders, type OrderView } from './orders.js';
import { pathIn, type Languages } from '../../../runtime/http/language.js';

/** where the buyer lands after paying or canceling: the orders page (host seed) */
export const ORDERS_PAGE = '/ecommerce/orders';

/** the orders page in a language: '/ecommerce/orders' in the default language, '/ru/ecommerce/orders' in another configured one */
export const ordersPageIn = (language: string | undefined, langs: Languages): string => pathIn(language, ORDERS_PAGE, langs);

export interface CheckoutInput {
  provider: ProviderName;
  email: string;
  comment?: string;
  /** the billing currency; the default currency when left out */
  currencyId?: string;
  /** the buyer's language (a configured one): the payment sends the buyer back to the orders page in it */
  language?: string;
}

export interface CheckoutResult {
  ecommerceModule: { orders: OrderView[] };
  billingModule: { currency: Currency; invoices: Record<string, unknown>[]; paymentIntents: Record<string, unknown>[] };
}

/**
 * Checkout (spec §4, §7): inside the subject's transaction, the carts named become history orders in
 * status paying, priced in one currency, with one payment intent and one open invoice holding the
 * provider's payment url. Anything refused — another subject's order, an order that is no longer a
 * cart, a product without a price in the currency, the provider's failure — writes nothing. Concurrent
 * checkouts of the same cart run one after the other: the second finds no cart and is refused (409).
 */
export async function checkoutOrders(orders: Orders, subjectId: string, orderIds: string[], input: CheckoutInput, tx: Drizzle): Promise<CheckoutResult> {
  const { ctx } = orders;
  const billing = ctx.services.billing as BillingService | undefined;
  if (!billing) throw new HttpError(503, 'Payments are not available: the billing module is not installed');
  const currency = await currencyOf(orders, input.currencyId, tx);
  const ids = [...new Set(orderIds)];
  for (const id of ids) Orders.assertCart(await orders.ownOrder(subjectId, id, tx));
  const views = await orders.views(ids, tx);
  const lines = views.flatMap((v) => v.ordersToProducts);
  for (const v of views) if (!v.ordersToProducts.length) throw badRequest(`Order ${v.id} has no products`, [{ field: 'ecommerceModule.orders', rule: 'empty', message: `order ${v.id} has no products` }]);
  const unpriced = lines.find((l) => !priceIn(l.prices, currency.id));
  if (unpriced) throw badRequest(NO_PRICE, [{ field: 'productId', rule: 'price', message: `${NO_PRICE} (${unpriced.product.slug}, ${currency.slug})` }]);

  const total = priceIn(orderTotals(lines.map((l) => ({ quantity: l.quantity, prices: [priceIn(l.prices, currency.id)!] }))), currency.id)!;
  const order = orders.entity('ecommerce/order');
  const back = ordersPageIn(input.language, ctx.model);
  // each line keeps the unit prices it is invoiced at: a price changed or removed later changes no checked-out order,
  // its receipt or its mails (written while the order is still a cart, whose lines may change)
  const line = orders.entity('ecommerce/orders-to-products');
  for (const l of lines) await ctx.repo.update(line, l.id, { prices: l.prices }, tx);
  for (const id of ids) {
    await ctx.repo.update(order, id, { status: 'paying', type: 'history', ...(input.comment && { comment: input.comment }) }, tx);
    await ctx.repo.create(orders.entity('ecommerce/orders-to-billing-module-currencies'), { orderId: id, billingModuleCurrencyId: currency.id }, tx);
  }
  const { invoice, paymentIntent } = await billing.createInvoice(
    {
      subjectId,
      provider: input.provider,
      email: input.email,
      comment: input.comment,
      currency: { id: currency.id, slug: String(currency.slug) },
      amount: total.amount,
      type: lines.every((l) => l.product.type === 'subscription') ? 'subscription' : 'one_off',
      description: ids.length === 1 ? `Order #${ids[0]}` : `Orders ${ids.map((id) => `#${id}`).join(', ')}`,
      lines: lines.map((l) => ({ title: titleOf(l.product), quantity: l.quantity, unitAmount: priceIn(l.prices, currency.id)!.amount })),
      successPath: `${back}?order=${ids[0]}`,
      cancelPath: `${back}?order=${ids[0]}&payment=canceled`,
    },
    tx,
  );
  for (const id of ids) await ctx.repo.create(orders.entity('ecommerce/orders-to-billing-module-payment-intents'), { orderId: id, billingModulePaymentIntentId: paymentIntent.id }, tx);
  return { ecommerceModule: { orders: await orders.views(ids, tx) }, billingModule: { currency, invoices: [invoice], paymentIntents: [paymentIntent] } };
}

/** a product's name for an invoice line or a mail: its title in `language` (English by default), else its English one, else its admin title */
export function titleOf(product: { title: unknown; adminTitle: string; slug: string }, language = 'en'): string {
  const title = product.title as Record<string, string> | null;
  return (title && (title[language] || title.en || Object.values(title).find(Boolean))) || product.adminTitle || product.slug;
}

/** the named currency (400 naming the field when there is none), or the default one */
async function currencyOf(orders: Orders, id: string | undefined, tx: Drizzle): Promise<Currency> {
  const entity = orders.entity('billing/currency');
  if (id) {
    const row = await orders.ctx.repo.get(entity, id, tx);
    if (!row) throw badRequest(`billingModule.currency.id: no billing/currency with id ${id}`, [{ field: 'billingModule.currency.id', rule: 'reference', message: `no billing/currency with id ${id}` }]);
    return row as unknown as Currency;
  }
  const c = orders.ctx.database.tables['billing/currency'];
  const [row] = await tx.select().from(c).orderBy(desc(c.isDefault), c.createdAt).limit(1);
  if (!row) throw badRequest('billingModule.currency.id is required: no default currency is set', [{ field: 'billingModule.currency.id', rule: 'required', message: 'billingModule.currency.id is required' }]);
  return row as Currency;
}
