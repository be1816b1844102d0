import type Stripe from 'stripe';
import { minorDigits, ProviderFailed, WebhookRefused, type PaymentEvent, type PaymentProvider, type PaymentRequest } from './provider.js';

export interface StripeOptions {
  secretKey: string;
  webhookSecret: string;
  /** another API address (a local fake in tests): http://127.0.0.1:12111 */
  apiUrl?: string;
}

/**
 * Stripe's own minor units (docs.stripe.com/currencies): its zero-decimal and three-decimal currencies; every
 * other one is two-decimal in its API — also ISK and HUF, whose ISO 4217 / CLDR minor unit is 0 but which Stripe
 * still takes in hundredths, and IDR, PKR, COP… that the runtime's Intl data counts without decimals.
 */
const STRIPE_ZERO_DECIMAL = new Set(['bif', 'clp', 'djf', 'gnf', 'jpy', 'kmf', 'krw', 'mga', 'pyg', 'rwf', 'ugx', 'vnd', 'vuv', 'xaf', 'xof', 'xpf']);
const STRIPE_THREE_DECIMAL = new Set(['bhd', 'jod', 'kwd', 'omr', 'tnd']);
const stripeDigits = (currency: string) => (STRIPE_ZERO_DECIMAL.has(currency.toLowerCase()) ? 0 : STRIPE_THREE_DECIMAL.has(currency.toLowerCase()) ? 3 : 2);
/** minor units of the currency (minorDigits) → Stripe's amount, and back; the same number wherever both agree (USD, JPY, KWD…) */
const shift = (n: number, digits: number) => Math.round(digits >= 0 ? n * 10 ** digits : n / 10 ** -digits);
export const toStripeAmount = (minor: number, currency: string) => shift(minor, stripeDigits(currency) - minorDigits(currency));
export const fromStripeAmount = (amount: number, currency: string) => shift(amount, minorDigits(currency) - stripeDigits(currency));

/** what each Checkout Session event means for the invoice */
function outcomeOf(type: string, session: Stripe.Checkout.Session): PaymentEvent['outcome'] {
  if (type === 'checkout.session.completed') return session.payment_status === 'unpaid' ? 'ignored' : 'paid';
  if (type === 'checkout.session.async_payment_succeeded') return 'paid';
  if (type === 'checkout.session.async_payment_failed') return 'failed';
  if (type === 'checkout.session.expired') return 'canceled';
  return 'ignored';
}

/**
 * Stripe Checkout: a Checkout Session per invoice (line items priced inline, the invoice id in
 * metadata and client_reference_id, the invoice id as idempotency key), and webhooks verified with
 * the endpoint's signing secret (Stripe-Signature, 5 minutes tolerance) by the Stripe library.
 */
export function stripeProvider(options: StripeOptions): PaymentProvider {
  const api = options.apiUrl ? new URL(options.apiUrl) : undefined;
  // the Stripe library is loaded on the first payment or webhook, not at start
  let made: Promise<Stripe> | undefined;
  const client = () => (made ??= import('stripe').then(({ default: StripeClient }) => new StripeClient(options.secretKey, {
    telemetry: false,
    maxNetworkRetries: 1,
    timeout: 20_000,
    ...(api && { host: api.hostname, port: api.port || (api.protocol === 'https:' ? 443 : 80), protocol: api.protocol.replace(':', '') as 'http' | 'https' }),
  })));
  return {
    name: 'stripe',
    async createPayment(request: PaymentRequest) {
      let session: Stripe.Checkout.Session;
      try {
        session = await (await client()).checkout.sessions.create(
          {
            mode: 'payment',
            customer_email: request.email,
            client_reference_id: request.invoiceId,
            metadata: { invoiceId: request.invoiceId, subjectId: request.subjectId },
            line_items: request.lines.map((l) => ({
              quantity: l.quantity,
              price_data: { currency: request.currency, unit_amount: toStripeAmount(l.unitAmount, request.currency), product_data: { name: l.title } },
            })),
            success_url: request.successUrl,
            cancel_url: request.cancelUrl,
          },
          { idempotencyKey: `invoice-${request.invoiceId}` },
        );
      } catch (e) {
        throw new ProviderFailed('stripe', (e as Error).message);
      }
      if (!session.url) throw new ProviderFailed('stripe', 'the Checkout Session has no url');
      return { providerId: session.id, paymentUrl: session.url };
    },
    async parseWebhook({ body, headers }): Promise<PaymentEvent> {
      const signature = headers.get('stripe-signature');
      if (!signature) throw new WebhookRefused('no Stripe-Signature');
      let event: Stripe.Event;
      const stripe = await client();
      try {
        event = stripe.webhooks.constructEvent(body, signature, options.webhookSecret);
      } catch (e) {
        throw new WebhookRefused((e as Error).message);
      }
      if (!event.type.startsWith('checkout.session.')) return { id: event.id, type: event.type, outcome: 'ignored' };
      const session = event.data.object as Stripe.Checkout.Session;
      return {
        id: event.id,
        type: event.type,
        outcome: outcomeOf(event.type, session),
        invoiceId: session.metadata?.invoiceId ?? session.client_reference_id ?? undefined,
        providerId: session.id,
        amount: typeof session.amount_total === 'number' && session.currency ? fromStripeAmount(session.amount_total, session.currency) : (session.amount_total ?? undefined),
        currency: session.currency ? session.currency.toLowerCase() : undefined,
      };
    },
  };
}
