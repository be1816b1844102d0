import { createHmac } from 'node:crypto';
import qs from 'qs';
import type { FakeRequest } from './fake-http.js';
import { runProviderCases, type PaidEvent, type ProviderKit } from './providers.case.js';

const SECRET_KEY = 'sk_test_local_fake_0123456789';
const WEBHOOK_SECRET = 'whsec_local_fake_0123456789';
let sessions = 0;

type SessionParams = { mode: string; customer_email: string; client_reference_id: string; metadata: { invoiceId: string }; success_url: string; cancel_url: string; line_items: { quantity: string; price_data: { currency: string; unit_amount: string; product_data: { name: string } } }[] };
const paramsOf = (req: FakeRequest) => qs.parse(req.body) as unknown as SessionParams;
const error = (status: number, message: string) => ({ status, body: { error: { type: 'invalid_request_error', message } } });

/**
 * Stripe's API as far as the adapter uses it: POST /v1/checkout/sessions, form-encoded, with the secret key
 * as Bearer and an Idempotency-Key; it answers a Checkout Session. Webhooks are signed as Stripe documents:
 * Stripe-Signature `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<payload>" with the endpoint secret>`.
 */
export const stripeKit: ProviderKit = {
  name: 'stripe',
  env: (apiUrl) => ({ STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_URL: apiUrl }),
  handle(req) {
    if (req.method !== 'POST' || req.path !== '/v1/checkout/sessions') return error(404, `Unrecognized request URL (${req.method}: ${req.path})`);
    if (req.headers.authorization !== `Bearer ${SECRET_KEY}`) return error(401, 'Invalid API Key provided');
    if (!req.headers['idempotency-key']) return error(400, 'an Idempotency-Key is expected');
    const p = paramsOf(req);
    if (p.mode !== 'payment' || !p.success_url || !p.cancel_url || !Array.isArray(p.line_items) || !p.line_items.length) return error(400, 'Missing required param');
    const amount = p.line_items.reduce((n, l) => n + Number(l.price_data.unit_amount) * Number(l.quantity), 0);
    const id = `cs_test_${++sessions}`;
    return {
      status: 200,
      body: {
        id, object: 'checkout.session', mode: 'payment', status: 'open', payment_status: 'unpaid', url: `https://checkout.stripe.com/c/pay/${id}`,
        amount_total: amount, currency: p.line_items[0].price_data.currency, customer_email: p.customer_email, client_reference_id: p.client_reference_id,
        metadata: p.metadata, success_url: p.success_url, cancel_url: p.cancel_url,
      },
    };
  },
  asked(req) {
    const p = paramsOf(req);
    return {
      invoiceId: p.metadata.invoiceId,
      amount: p.line_items.reduce((n, l) => n + Number(l.price_data.unit_amount) * Number(l.quantity), 0),
      currency: p.line_items[0].price_data.currency,
      email: p.customer_email,
    };
  },
  paid: (e, _at, forged) => stripeEvent(e, 'checkout.session.completed', forged),
};

export function stripeEvent(e: PaidEvent, type: string, forged = false) {
  const payload = JSON.stringify({
    id: e.eventId, object: 'event', type, api_version: '2025-01-27.acacia', created: Math.floor(Date.now() / 1000),
    data: { object: { id: e.providerId, object: 'checkout.session', payment_status: type === 'checkout.session.completed' ? 'paid' : 'unpaid', amount_total: e.amount, currency: e.currency, metadata: { invoiceId: e.invoiceId }, client_reference_id: e.invoiceId } },
  });
  const at = Math.floor(Date.now() / 1000);
  const signature = createHmac('sha256', forged ? 'whsec_someone_else' : WEBHOOK_SECRET).update(`${at}.${payload}`).digest('hex');
  return { body: payload, headers: { 'content-type': 'application/json', 'stripe-signature': `t=${at},v1=${signature}` } };
}
