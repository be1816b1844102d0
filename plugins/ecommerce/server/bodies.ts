import type { Context } from 'hono';
import { UUID_PATTERN, UUID_RE } from '../../../engine/fields/index.js';
import { readBody, readOptionalBody } from '../../../runtime/crud/body.js';
import { bodyValidator } from '../../../runtime/crud/validate.js';
import { badRequest } from '../../../runtime/http/errors.js';
import { isProviderName, PROVIDER_NAMES, type ProviderName } from '../../billing/server/providers/provider.js';

/**
 * The shop's request bodies (spec §5, §7), checked in two steps: first the rules whose messages the
 * spec fixes ('productId is required', 'orderId is required', 'Invalid provider', quantity a positive
 * integer), then the whole body against its JSON Schema (unknown fields, email, ids), each error naming
 * its field and rule.
 */

export const MAX_QUANTITY = 10_000;
const uuid = { type: 'string', pattern: UUID_PATTERN };
const quantity = { type: 'integer', minimum: 1, maximum: MAX_QUANTITY };
const idRef = { type: 'object', additionalProperties: false, required: ['id'], properties: { id: uuid } };
const optional = (s: object) => ({ anyOf: [s, { type: 'null' }] });
const payment = {
  provider: { type: 'string' },
  email: { type: 'string', format: 'email', maxLength: 320 },
  comment: optional({ type: 'string', maxLength: 2000 }),
  // the buyer's language, for the pages the payment returns to: one of the configured languages (checked by the routes)
  language: optional({ type: 'string', maxLength: 35 }),
};

type Data = Record<string, unknown>;
const blank = (v: unknown) => v === undefined || v === null || v === '';

const fail = (field: string, rule: string, message: string) => badRequest(message, [{ field, rule, message }]);

function requireText(data: Data, field: string, message = `${field} is required`) {
  if (blank(data[field])) throw fail(field, 'required', message);
}

function positiveInteger(value: unknown, field: string) {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw fail(field, 'positive-integer', `${field} must be a positive integer`);
  atMostMaxQuantity(value, field);
}

/**
 * A line's quantity is at most MAX_QUANTITY, however it is reached: given at once, or `held` already in the
 * cart plus `value` added to it (a 400 naming the field and the rule 'maximum').
 */
export function atMostMaxQuantity(value: number, field = 'quantity', held = 0) {
  if (held + value <= MAX_QUANTITY) return;
  const message = `${field} must be at most ${MAX_QUANTITY}`;
  throw fail(field, 'maximum', held ? `${message}: the cart has ${held} of this product already, ${Math.max(0, MAX_QUANTITY - held)} more can be added` : message);
}

/** the provider named, or the default one; anything else is 'Invalid provider' */
function providerOf(data: Data, fallback: ProviderName | undefined): ProviderName {
  const value = blank(data.provider) ? fallback : data.provider;
  if (!isProviderName(value)) throw badRequest('Invalid provider', [{ field: 'provider', rule: 'enum', message: `Invalid provider: one of ${PROVIDER_NAMES.join(', ')}` }]);
  return value;
}

/** the body's data object: {"data": {...}}; an empty DELETE has none */
export async function dataOf(c: Context, optionalBody = false): Promise<Data | undefined> {
  const { data } = await (optionalBody ? readOptionalBody(c) : readBody(c));
  if (data === undefined || data === null) {
    if (optionalBody) return undefined;
    throw badRequest('Data is undefined');
  }
  if (typeof data !== 'object' || Array.isArray(data)) throw fail('data', 'type', 'data must be an object');
  return data as Data;
}

const addToCartBody = bodyValidator<{ productId: string; quantity?: number; storeId?: string | null; billingModule?: { currency?: { id?: string } } }>({
  type: 'object',
  additionalProperties: false,
  required: ['productId'],
  // billingModule.currency: the currency the client shows; the cart keeps prices in every currency, so it only is checked
  properties: { productId: uuid, quantity, storeId: optional(uuid), billingModule: { type: 'object', additionalProperties: false, properties: { currency: { type: 'object', additionalProperties: false, properties: { id: uuid } } } } },
});

/** POST …/ecommerce-module/orders: { productId, quantity = 1, storeId? } */
export function addToCartInput(data: Data) {
  requireText(data, 'productId', 'productId is required');
  positiveInteger(data.quantity, 'quantity');
  const body = addToCartBody(data);
  return { productId: body.productId.toLowerCase(), quantity: body.quantity ?? 1, storeId: body.storeId?.toLowerCase() ?? undefined };
}

const linesBody = (withQuantity: boolean) =>
  bodyValidator<{ ordersToProducts: { id: string; quantity?: number }[] }>({
    type: 'object',
    additionalProperties: false,
    required: ['ordersToProducts'],
    properties: {
      ordersToProducts: {
        type: 'array',
        minItems: 1,
        maxItems: 500,
        items: { type: 'object', additionalProperties: false, required: withQuantity ? ['id', 'quantity'] : ['id'], properties: { id: uuid, quantity } },
      },
    },
  });
const updateLines = linesBody(true);
const removeLines = linesBody(false);

/** PATCH (quantities required) and DELETE (quantities optional) …/orders/{orderId}: { ordersToProducts: [{ id, quantity }] } */
export function linesInput(data: Data, mode: 'update' | 'remove') {
  const items = Array.isArray(data.ordersToProducts) ? (data.ordersToProducts as unknown[]) : [];
  items.forEach((it, i) => {
    if (!it || typeof it !== 'object') return;
    const item = it as Data;
    if (blank(item.id)) throw fail(`ordersToProducts[${i}].id`, 'required', 'id is required');
    positiveInteger(item.quantity, `ordersToProducts[${i}].quantity`);
  });
  const body = (mode === 'update' ? updateLines : removeLines)(data);
  const lines = body.ordersToProducts.map((it) => ({ id: it.id.toLowerCase(), quantity: it.quantity }));
  // a line set twice in one change would keep whichever came last: which one the client meant is not known
  const twice = mode === 'update' ? lines.findIndex((it, i) => lines.findIndex((o) => o.id === it.id) !== i) : -1;
  if (twice >= 0) throw fail(`ordersToProducts[${twice}].id`, 'unique', `line ${lines[twice].id} is named more than once`);
  return lines;
}

const quantityBody = bodyValidator<{ quantity: number }>({ type: 'object', additionalProperties: false, required: ['quantity'], properties: { quantity } });

/** PATCH /api/ecommerce/orders/{id}/orders-to-products/{lineId}: { quantity } */
export function quantityInput(data: Data) {
  positiveInteger(data.quantity, 'quantity');
  return quantityBody(data).quantity;
}

/** billingModule: { currency: { id? } } — the currency may be left out (the default currency), as the reference client sends it */
const currencyRef = { type: 'object', additionalProperties: false, properties: { currency: { type: 'object', additionalProperties: false, properties: { id: uuid } } } };
// spec §5 reads the currency as required in one form and optional in another: both readings are accepted
const ordersCheckout = bodyValidator<{ email: string; comment?: string | null; language?: string | null; billingModule?: { currency?: { id?: string } }; ecommerceModule: { orders: { id: string }[] } }>({
  type: 'object',
  additionalProperties: false,
  required: ['email', 'ecommerceModule'],
  properties: {
    ...payment,
    billingModule: currencyRef,
    ecommerceModule: { type: 'object', additionalProperties: false, required: ['orders'], properties: { orders: { type: 'array', minItems: 1, maxItems: 50, items: idRef } } },
  },
});
const oneCheckout = bodyValidator<{ email: string; comment?: string | null; language?: string | null; billingModule?: { currency?: { id: string } } }>({
  type: 'object',
  additionalProperties: false,
  required: ['email'],
  properties: { ...payment, billingModule: currencyRef },
});
const productCheckout = bodyValidator<{ email: string; comment?: string | null; language?: string | null; quantity?: number; storeId?: string | null; billingModule?: { currency?: { id: string } } }>({
  type: 'object',
  additionalProperties: false,
  required: ['email'],
  properties: { ...payment, quantity, storeId: optional(uuid), billingModule: currencyRef },
});

const currencyIdOf = (b: { billingModule?: { currency?: { id?: string } } }) => b.billingModule?.currency?.id?.toLowerCase();
const common = (b: { email: string; comment?: string | null; language?: string | null }) => ({ email: b.email.trim(), ...(b.comment && { comment: b.comment }), ...(b.language && { language: b.language }) });

/** POST …/ecommerce-module/orders/checkout: provider, email, billingModule.currency.id, ecommerceModule.orders[].id */
export function ordersCheckoutInput(data: Data, defaultProvider: ProviderName | undefined) {
  const provider = providerOf(data, defaultProvider);
  const orders = (data.ecommerceModule as Data | undefined)?.orders;
  if (Array.isArray(orders) && orders.some((o) => typeof o === 'string')) {
    throw fail('ecommerceModule.orders', 'type', 'ecommerceModule.orders must be a list of objects with the order id: [{"id": "…"}]');
  }
  if (!Array.isArray(orders) || !orders.length || orders.some((o) => !o || typeof o !== 'object' || blank((o as Data).id))) throw fail('ecommerceModule.orders', 'required', 'orderId is required');
  const body = ordersCheckout({ ...data, provider });
  return { provider, ...common(body), currencyId: currencyIdOf(body), orderIds: body.ecommerceModule.orders.map((o) => o.id.toLowerCase()) };
}

/** POST …/orders/{orderId}/checkout: provider, email, billingModule.currency.id (optional: the default currency) */
export function orderCheckoutInput(data: Data, defaultProvider: ProviderName | undefined) {
  const provider = providerOf(data, defaultProvider);
  const body = oneCheckout({ ...data, provider });
  return { provider, ...common(body), currencyId: currencyIdOf(body) };
}

/** POST …/products/{productId}/checkout: the same, plus quantity (1) and storeId */
export function productCheckoutInput(data: Data, defaultProvider: ProviderName | undefined) {
  const provider = providerOf(data, defaultProvider);
  positiveInteger(data.quantity, 'quantity');
  const body = productCheckout({ ...data, provider });
  return { provider, ...common(body), currencyId: currencyIdOf(body), quantity: body.quantity ?? 1, storeId: body.storeId?.toLowerCase() ?? undefined };
}

/** a path id: 'orderId is required' when blank, 400 when not a UUID */
export function pathId(c: Context, name: string, label = name): string {
  const value = (c.req.param(name) ?? '').trim().toLowerCase();
  if (!value) throw fail(label, 'required', `${label} is required`);
  if (!UUID_RE.test(value)) throw fail(label, 'format', `${label} must be a UUID`);
  return value;
}
