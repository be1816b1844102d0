/**
 * Money in a currency's own minor units, shared by the shop's prices and totals (plugins/ecommerce/pricing.ts) and
 * the amounts sent to payment providers (plugins/billing/server/providers/provider.ts). No Node API: the browser
 * uses it too (Intl is in both).
 */

/**
 * A major amount in units of 10^-digits, rounded half up through a fixed decimal first, since the binary product can
 * fall just short of the half (0.285 × 100 is 28.499999999999996): 0.285, 2 → 29; 1.005, 2 → 101; 1000, 0 → 1000.
 */
export const roundHalfUp = (amount: number, digits: number) => Math.round(Number((amount * 10 ** digits).toFixed(6)));

const digitsOf = new Map<string, number>();

/**
 * How many digits a currency's minor unit has, from its ISO 4217 code (any case; a billing/currency's slug), as the
 * runtime's Intl data says: USD 2, RUB 2, JPY 0, KRW 0, KWD 3. A code Intl does not take (a custom currency, 'usdt')
 * counts 2. The one definition of a currency's digits: the shop's totals, what it shows, the prices it accepts and
 * every amount sent to or read from a provider go through it.
 */
export function minorDigits(code: string): number {
  const key = String(code ?? '').trim().toUpperCase();
  const known = digitsOf.get(key);
  if (known !== undefined) return known;
  let digits = 2;
  try {
    digits = new Intl.NumberFormat('en', { style: 'currency', currency: key }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    /* not an ISO code: two digits */
  }
  // only well-formed codes are kept, so that odd strings from webhooks cannot grow the map
  if (/^[A-Z]{3}$/.test(key)) digitsOf.set(key, digits);
  return digits;
}

/** a major amount in minor units of the currency, half up: 49.5 USD → 4950, 1.005 USD → 101, 0.5 JPY → 1, 1.2345 KWD → 1235 */
export const toMinorUnits = (amount: number, code: string) => roundHalfUp(amount, minorDigits(code));

/** minor units of the currency as a major amount: 4950 USD → 49.5, 1 JPY → 1, 1235 KWD → 1.235 */
export const fromMinorUnits = (minor: number, code: string) => minor / 10 ** minorDigits(code);

/**
 * How many decimal places a number is written with, read from its shortest decimal form (the one JSON carries and
 * `String` gives back), so that binary noise does not count: 0.29 → 2 (though 0.29 × 100 is 28.999999999999996),
 * 1.005 → 3, 1e-7 → 7, 1200 → 0. Infinity for a number that is not finite.
 */
export function decimalPlaces(amount: number): number {
  if (!Number.isFinite(amount)) return Infinity;
  const [mantissa, exponent = '0'] = String(Math.abs(amount)).split('e');
  const fraction = mantissa.split('.')[1]?.length ?? 0;
  return Math.max(0, fraction - Number(exponent));
}

/** whether a major amount is a whole number of the currency's minor units: 49.5 USD and 1.005 KWD are, 0.5 JPY and 1.005 USD are not */
export const fitsMinorUnits = (amount: number, code: string) => decimalPlaces(amount) <= minorDigits(code);

/**
 * What a price that does not fit its currency must be, in words: 'must be a whole amount in JPY (0 decimal places)',
 * 'must have at most 2 decimal places in USD'.
 */
export function minorUnitsRule(code: string): string {
  const digits = minorDigits(code);
  const name = String(code ?? '').trim().toUpperCase();
  return digits === 0 ? `must be a whole amount in ${name} (0 decimal places)` : `must have at most ${digits} decimal place${digits === 1 ? '' : 's'} in ${name}`;
}
