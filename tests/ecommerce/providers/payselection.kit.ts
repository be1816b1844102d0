import { createHmac } from 'node:crypto';
import type { FakeRequest } from './fake-http.js';
import type { ProviderKit } from './providers.case.js';

const hex = (key: string, text: string) => createHmac('sha256', key).update(text).digest('hex');

/**
 * Payselection (and its international account): POST /webpayments/create with X-SITE-ID, X-REQUEST-ID and
 * X-REQUEST-SIGNATURE (hex HMAC-SHA256 of "POST\n/webpayments/create\n<site>\n<request id>\n<body>") answers
 * the payment link; webhooks carry X-SITE-ID and X-WEBHOOK-SIGNATURE (hex HMAC-SHA256 of
 * "POST\n<notification url>\n<site>\n<body>").
 */
export function payselectionKit(name: 'payselection' | 'payselection-international', prefix: 'PAYSELECTION' | 'PAYSELECTION_INTERNATIONAL'): ProviderKit {
  const [siteId, secret] = [`${name === 'payselection' ? '21' : '42'}044`, `${name}-secret-key-0123`];
  let links = 0;
  let transactions = 0;
  const bodyOf = (req: FakeRequest) => JSON.parse(req.body) as { PaymentRequest: { OrderId: string; Amount: string; Currency: string }; CustomerInfo: { Email: string } };
  return {
    name,
    currency: name === 'payselection' ? 'rub' : 'usd',
    env: (apiUrl) => ({ [`${prefix}_SITE_ID`]: siteId, [`${prefix}_SECRET_KEY`]: secret, [`${prefix}_API_URL`]: apiUrl }),
    handle(req) {
      if (req.method !== 'POST' || req.path !== '/webpayments/create') return { status: 404, body: { Code: 'NotFound' } };
      const requestId = String(req.headers['x-request-id'] ?? '');
      if (req.headers['x-site-id'] !== siteId || !requestId) return { status: 401, body: { Code: 'Unauthorized' } };
      if (req.headers['x-request-signature'] !== hex(secret, `POST\n/webpayments/create\n${siteId}\n${requestId}\n${req.body}`)) return { status: 401, body: { Code: 'InvalidSignature' } };
      const b = bodyOf(req);
      if (!/^\d+\.\d{2}$/.test(b.PaymentRequest.Amount)) return { status: 400, body: { Code: 'InvalidAmount' } };
      return { status: 201, body: `https://webform.payselection.example/pay/${++links}` };
    },
    asked(req) {
      const b = bodyOf(req);
      return { invoiceId: b.PaymentRequest.OrderId, amount: Math.round(Number(b.PaymentRequest.Amount) * 100), currency: b.PaymentRequest.Currency.toLowerCase(), email: b.CustomerInfo.Email };
    },
    paid(e, at, forged) {
      const body = JSON.stringify({ Event: 'Payment', TransactionId: `PS${++transactions}`, OrderId: e.invoiceId, Amount: (e.amount / 100).toFixed(2), Currency: e.currency.toUpperCase(), DateTime: '01.12.2026 10:00:00', IsTest: 1 });
      return { body, headers: { 'content-type': 'application/json', 'x-site-id': siteId, 'x-webhook-signature': hex(forged ? 'not-the-key' : secret, `POST\n${at.url}\n${siteId}\n${body}`) } };
    },
  };
}
