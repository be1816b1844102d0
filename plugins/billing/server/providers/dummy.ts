import { hmac, parseJson, sameText, WebhookRefused, type PaymentEvent, type PaymentProvider, type PaymentRequest } from './provider.js';

export const DUMMY_SIGNATURE_HEADER = 'x-dummy-signature';
/** the path of the dummy provider's payment page (a page of this server: see ../dummy-page.ts) */
export const dummyPagePath = (invoiceId: string) => `/billing/dummy/checkout/${invoiceId}`;
const TOLERANCE_S = 300;

export interface DummyEvent {
  id: string;
  type: 'payment.succeeded' | 'payment.canceled';
  invoiceId: string;
  /** minor units of the currency (minorDigits) */
  amount: number;
  /** ISO 4217 code (the billing currency's slug) */
  currency: string;
}

/**
 * The offline provider: its payment page is served by this server and, once the buyer confirms,
 * delivers a webhook signed like Stripe's (`t=<seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`) with
 * a secret only this server knows. It moves no money: production enables it only on purpose.
 */
export function dummyProvider(secret: string): PaymentProvider & {
  pageToken(invoiceId: string): string;
  sign(body: string, at?: number): string;
} {
  const pageToken = (invoiceId: string) => hmac('sha256', secret, `page:${invoiceId}`).digest('base64url');
  const sign = (body: string, at = Math.floor(Date.now() / 1000)) => `t=${at},v1=${hmac('sha256', secret, `${at}.${body}`).digest('hex')}`;
  return {
    name: 'dummy',
    pageToken,
    sign,
    async createPayment(request: PaymentRequest) {
      return { providerId: `dummy_${request.invoiceId}`, paymentUrl: `${dummyPagePath(request.invoiceId)}?token=${pageToken(request.invoiceId)}` };
    },
    async parseWebhook({ body, headers }): Promise<PaymentEvent> {
      const header = headers.get(DUMMY_SIGNATURE_HEADER);
      if (!header) throw new WebhookRefused('no signature');
      const parts = Object.fromEntries(header.split(',').map((p) => p.split('=', 2) as [string, string]));
      const at = Number(parts.t);
      if (!Number.isInteger(at) || Math.abs(Date.now() / 1000 - at) > TOLERANCE_S) throw new WebhookRefused('the signature is too old');
      if (!sameText(parts.v1, hmac('sha256', secret, `${at}.${body}`).digest('hex'))) throw new WebhookRefused('the signature does not match');
      const e = parseJson(body) as Partial<DummyEvent>;
      if (typeof e.id !== 'string' || typeof e.invoiceId !== 'string') throw new WebhookRefused('the event has no id or invoice');
      return {
        id: e.id,
        type: String(e.type),
        outcome: e.type === 'payment.succeeded' ? 'paid' : e.type === 'payment.canceled' ? 'canceled' : 'ignored',
        invoiceId: e.invoiceId,
        providerId: `dummy_${e.invoiceId}`,
        amount: typeof e.amount === 'number' ? e.amount : undefined,
        currency: typeof e.currency === 'string' && e.currency ? e.currency.toLowerCase() : undefined,
      };
    },
  };
}
