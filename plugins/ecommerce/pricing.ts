/**
 * Prices and order totals, shared by the server (which charges them) and the browser (which shows
 * them): one module, imported by both. Amounts are major units (49.5); sums are made in the minor units
 * of each price's currency (cents, kopecks, whole yen, fils: `minorDigits` of runtime/money.ts, which the
 * payment providers are paid in too) so that 0.1 × 3 is 0.3, and what is shown, totalled, invoiced and
 * charged is the same amount.
 */

import { fromMinorUnits, minorDigits, toMinorUnits } from '../../runtime/money.js';

export interface Currency {
  id: string;
  slug?: string | null;
  symbol?: string | null;
  title?: unknown;
  isDefault?: boolean | null;
}

/** an amount in one currency */
export interface Price {
  currency: Currency;
  amount: number;
}

/** anything with a quantity and the unit prices of its product: an order line */
export interface PricedLine {
  quantity: number;
  prices: Price[];
}

/** the shape of a product as page data and the server's reads give it (productsToAttributes → attribute → currencies) */
export type ProductLike = { productsToAttributes?: unknown } | Record<string, unknown>;

type Loose = Record<string, unknown>;
const list = (v: unknown): Loose[] => (Array.isArray(v) ? (v.filter((x) => x && typeof x === 'object') as Loose[]) : []);

/** how many digits the minor unit of a price's currency has, from its slug (an ISO code): USD 2, JPY 0, KWD 3, unknown 2 */
export const digitsOf = (currency: Pick<Currency, 'slug'>) => minorDigits(String(currency.slug ?? ''));
/** a major amount in minor units of the currency, rounded half up as the providers are asked (runtime/money.ts): 0.285 USD → 29, 0.5 JPY → 1, 0.0005 KWD → 1 */
export const toMinor = (amount: number, currency: Pick<Currency, 'slug'>) => toMinorUnits(amount, String(currency.slug ?? ''));
/** minor units of the currency as a major amount: 29 USD → 0.29, 1 JPY → 1, 1 KWD → 0.001 */
export const fromMinor = (minor: number, currency: Pick<Currency, 'slug'>) => fromMinorUnits(minor, String(currency.slug ?? ''));
/** a major amount as it is charged: rounded half up to the currency's minor unit (0.285 USD → 0.29, 0.5 JPY → 1) */
export const charged = (price: Price) => fromMinor(toMinor(price.amount, price.currency), price.currency);

/**
 * A product's unit prices, one per currency: each attribute with a number, in each currency it is linked
 * to (attributesToBillingModuleCurrencies); the first attribute wins when two name the same currency.
 * The server reads only attributes whose key is of type 'price'; page data carries the same shape.
 */
export function productPriceList(product: ProductLike | undefined | null): Price[] {
  const prices: Price[] = [];
  const seen = new Set<string>();
  for (const link of list((product as { productsToAttributes?: unknown } | null | undefined)?.productsToAttributes)) {
    const attribute = link.attribute as Loose | undefined;
    if (!attribute || typeof attribute.number !== 'number' || !Number.isFinite(attribute.number)) continue;
    for (const toCurrency of list(attribute.attributesToBillingModuleCurrencies)) {
      const currency = toCurrency.billingModuleCurrency as Currency | undefined;
      if (!currency?.id || seen.has(currency.id)) continue;
      seen.add(currency.id);
      prices.push({ currency, amount: attribute.number });
    }
  }
  return prices;
}

/** the price in one currency, if there is one */
export const priceIn = (prices: Price[], currencyId: string | undefined) => prices.find((p) => p.currency.id === currencyId);

/** a line's total per currency: unit price (rounded to the currency's minor unit, as it is charged) × quantity */
export function lineTotal(line: PricedLine): Price[] {
  return line.prices.map((p) => ({ currency: p.currency, amount: fromMinor(toMinor(p.amount, p.currency) * line.quantity, p.currency) }));
}

/**
 * An order's totals per currency (spec §7: sum of each price times quantity). A currency counts only
 * when every line has a price in it: a total that leaves out a product would undercharge.
 */
export function orderTotals(lines: PricedLine[]): Price[] {
  if (!lines.length) return [];
  const sums = new Map<string, { currency: Currency; minor: number; lines: number }>();
  for (const line of lines) {
    for (const p of lineTotal(line)) {
      const sum = sums.get(p.currency.id) ?? { currency: p.currency, minor: 0, lines: 0 };
      sum.minor += toMinor(p.amount, p.currency);
      sum.lines += 1;
      sums.set(p.currency.id, sum);
    }
  }
  return [...sums.values()].filter((s) => s.lines === lines.length).map((s) => ({ currency: s.currency, amount: fromMinor(s.minor, s.currency) }));
}

/** how many items: the sum of the lines' quantities */
export const orderQuantity = (lines: { quantity: number }[]) => lines.reduce((n, l) => n + l.quantity, 0);

/**
 * The amount as it is charged, with all the currency's digits: '49.50' USD, '1000' JPY, '1.500' KWD; a unit of 0.285 USD
 * reads '0.29' and one of 0.5 JPY '1', the amounts the totals are made of and the provider is asked for.
 */
export const decimalText = (price: Price) => charged(price).toFixed(digitsOf(price.currency));

/** '$49', '$49.50', '₽3900', '¥1000', 'KD1.500', or 'USD 49' for a currency without a symbol: whole amounts without decimals */
export function formatPrice(price: Price): string {
  // in the minor units the totals are made of (toMinor), so that a unit of 0.285 USD reads as the 0.29 it is charged at
  const major = charged(price);
  const amount = Number.isInteger(major) ? String(major) : decimalText(price);
  if (price.currency.symbol) return `${price.currency.symbol}${amount}`;
  return `${String(price.currency.slug ?? '').toUpperCase()} ${amount}`.trim();
}
