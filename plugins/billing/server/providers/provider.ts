import { minorDigits, toMinorUnits } from '../../../../runtime/money.js';
import { createHmac, timingSafeEqual } from 'node:crypto';

/** the payment providers an invoice may name (schemas/billing/invoice.json, spec §5) */
export const PROVIDER_NAMES = ['stripe', '0xprocessing', 'payselection', 'payselection-international', 'cloudpayments', 'tiptoppay', 'dummy'] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];
export const isProviderName = (v: unknown): v is ProviderName => typeof v === 'string' && (PROVIDER_NAMES as readonly string[]).includes(v);

/**
 * what a provider is asked to collect: one invoice, its amount in minor units of its currency, as many
 * digits as `minorDigits(currency)` says (cents for USD, kopecks for RUB, yen for JPY, fils for KWD)
 */
export interface PaymentRequest {
  invoiceId: string;
  /** the whole amount, in minor units of `currency` (minorDigits) */
  amount: number;
  /** ISO 4217 code, lower case (a billing currency's slug) */
  currency: string;
  description: string;
  email: string;
  subjectId: string;
  lines: { title: string; quantity: number; /** minor units of `currency` */ unitAmount: number }[];
  /** absolute urls the provider sends the buyer back to, and the one it notifies */
  successUrl: string;
  cancelUrl: string;
  webhookUrl: string;
}

/** the provider's answer: its id for the payment and where the buyer pays */
export interface CreatedPayment {
  providerId: string;
  paymentUrl: string;
}

/** what a verified webhook says happened */
export interface PaymentEvent {
  /** the provider's id of this event: the same event delivered twice has the same id */
  id: string;
  /** the provider's own name for it, e.g. checkout.session.completed */
  type: string;
  outcome: 'paid' | 'failed' | 'canceled' | 'ignored';
  /** our invoice id, when the event carries it */
  invoiceId?: string;
  /** the provider's payment id (CreatedPayment.providerId), when the event carries it */
  providerId?: string;
  /** minor units of the event's currency (minorDigits), when the event carries it */
  amount?: number;
  /** ISO 4217 code, lower case, when the event carries it: a paid event in another currency than the invoice's is not applied */
  currency?: string;
}

/** a webhook as it arrived: the raw body (signatures are over the exact bytes) and its headers */
export interface WebhookRequest {
  body: string;
  headers: Headers;
  /** the public url the provider posted to (some providers sign it) */
  url: string;
}

/**
 * One payment provider: create a payment for an invoice, and verify and read its webhooks.
 * Every implementation passes tests/ecommerce/providers.case.ts.
 * @example
 * const { paymentUrl } = await provider.createPayment(request);
 * const event = await provider.parseWebhook({ body, headers, url }); // throws WebhookRefused when forged
 */
export interface PaymentProvider {
  readonly name: ProviderName;
  createPayment(request: PaymentRequest): Promise<CreatedPayment>;
  /** verifies the signature and reads the event; throws WebhookRefused when it is not the provider's */
  parseWebhook(request: WebhookRequest): Promise<PaymentEvent>;
  /** the body the provider expects in answer to a webhook (default { received: true }) */
  readonly acknowledgement?: Record<string, unknown>;
  /** the only currencies (ISO codes, lower case) it takes, when it is limited */
  readonly currencies?: readonly string[];
}

/** a webhook that is not verifiably the provider's: refused with 400 and nothing changes */
export class WebhookRefused extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'WebhookRefused';
  }
}

/** a provider refused or failed to create a payment: the checkout answers 502 and writes nothing */
export class ProviderFailed extends Error {
  constructor(provider: ProviderName, reason: string) {
    super(`${provider}: ${reason}`);
    this.name = 'ProviderFailed';
  }
}

export const hmac = (algorithm: 'sha256' | 'sha512', key: string | Buffer, data: string) => createHmac(algorithm, key).update(data, 'utf8');

/** constant-time comparison of two strings (false when lengths differ) */
export function sameText(a: string | null | undefined, b: string): boolean {
  if (typeof a !== 'string') return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * How many digits a currency's minor unit has (USD 2, JPY 0, KWD 3, an unknown code 2): runtime/money.ts, the one
 * definition the shop's prices and totals share. Every amount sent to or read from a provider goes through it
 * (toMinor, decimal, minorOf).
 */
export { minorDigits };

/** a major amount in minor units of the currency, half up (through a fixed decimal: 1.005 USD → 101): 49.5 USD → 4950, 1000 JPY → 1000 */
export const toMinor = (amount: number, currency: string) => toMinorUnits(amount, currency);
/** minor units as the decimal string of a major amount: 4900 USD → '49.00', 1000 JPY → '1000', 1235 KWD → '1.235' */
export const decimal = (minor: number, currency: string) => {
  const digits = minorDigits(currency);
  return (minor / 10 ** digits).toFixed(digits);
};
/** a major amount as a provider sends it (number or decimal string) in minor units of the currency: '49.5' USD → 4950; undefined when there is none */
export const minorOf = (amount: unknown, currency: string) =>
  typeof amount === 'number' || (typeof amount === 'string' && amount.trim() !== '') ? toMinor(Number(amount), currency) : undefined;

/** a JSON body, or a refusal naming what was wrong */
export function parseJson(body: string): Record<string, unknown> {
  try {
    const v = JSON.parse(body) as unknown;
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    /* refused below */
  }
  throw new WebhookRefused('the body is not a JSON object');
}

/** a JSON or form-encoded body as fields */
export function parseFields(body: string, contentType: string | null): Record<string, unknown> {
  if ((contentType ?? '').includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(body));
  return parseJson(body);
}

/** fetch with a time limit, answering JSON or throwing ProviderFailed */
export async function callProvider(provider: ProviderName, url: string, init: RequestInit & { timeoutMs?: number }): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(init.timeoutMs ?? 20_000) });
  } catch (e) {
    throw new ProviderFailed(provider, `could not be reached (${(e as Error).message})`);
  }
  const text = await res.text();
  if (!res.ok) throw new ProviderFailed(provider, `answered ${res.status}`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ProviderFailed(provider, 'answered something that is not JSON');
  }
}
