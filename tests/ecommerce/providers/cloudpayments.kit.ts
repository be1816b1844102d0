import { createHmac } from 'node:crypto';
import type { FakeRequest } from './fake-http.js';
import { runProviderCases, type ProviderKit } from './providers.case.js';

/**
 * CloudPayments and TipTopPay speak one protocol: POST /orders/create with HTTP Basic (Public ID : API
 * secret) answers { Success, Model: { Id, Url } }; Pay notifications are form-encoded and signed in
 * Content-HMAC (base64 HMAC-SHA256 of the raw body with the API secret).
 */
export function cloudPaymentsKit(name: 'cloudpayments' | 'tiptoppay', prefix: 'CLOUDPAYMENTS' | 'TIPTOPPAY'): ProviderKit {
  const [publicId, secret] = [`pk_${name}_test`, `${name}-api-secret-0123`];
  let orders = 0;
  let transactions = 1000;
  const bodyOf = (req: FakeRequest) => JSON.parse(req.body) as { Amount: number; Currency: string; InvoiceId: string; Email: string; SuccessRedirectUrl: string };
  return {
    name,
    currency: 'rub',
    env: (apiUrl) => ({ [`${prefix}_PUBLIC_ID`]: publicId, [`${prefix}_API_SECRET`]: secret, [`${prefix}_API_URL`]: apiUrl }),
    handle(req) {
      if (req.method !== 'POST' || req.path !== '/orders/create') return { status: 404, body: { Success: false, Message: 'Not found' } };
      if (req.headers.authorization !== `Basic ${Buffer.from(`${publicId}:${secret}`).toString('base64')}`) return { status: 401, body: { Success: false, Message: 'Unauthorized' } };
      const b = bodyOf(req);
      if (!(b.Amount > 0) || !b.Currency || !b.InvoiceId) return { status: 200, body: { Success: false, Message: 'Amount, Currency and InvoiceId are required' } };
      const id = `${name}-order-${++orders}`;
      return { status: 200, body: { Success: true, Message: null, Model: { Id: id, Number: orders, Amount: b.Amount, Currency: b.Currency, Url: `https://orders.${name}.example/d/${id}` } } };
    },
    asked(req) {
      const b = bodyOf(req);
      return { invoiceId: b.InvoiceId, amount: Math.round(b.Amount * 100), currency: b.Currency.toLowerCase(), email: b.Email };
    },
    paid(e, _at, forged) {
      const body = new URLSearchParams({
        TransactionId: String(++transactions), Amount: (e.amount / 100).toFixed(2), Currency: e.currency.toUpperCase(), InvoiceId: e.invoiceId,
        Email: e.email, Status: 'Completed', OperationType: 'Payment', TestMode: '1',
      }).toString();
      const hmac = createHmac('sha256', forged ? 'someone-elses-secret' : secret).update(body).digest('base64');
      return { body, headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-hmac': hmac } };
    },
  };
}
