import { createHash } from 'node:crypto';
import type { FakeRequest } from './fake-http.js';
import { runProviderCases, type ProviderKit, type SignedWebhook } from './providers.case.js';

const [MERCHANT, PASSWORD, COIN] = ['0xmerchant42', 'webhook-password-0123', 'USDT (TRC20)'];
const md5 = (s: string) => createHash('md5').update(s).digest('hex');
let forms = 0;
let payments = 5000;
const formOf = (req: FakeRequest) => Object.fromEntries(new URLSearchParams(req.body));

/**
 * 0xProcessing: the fixed-amount payment form (POST /Payment, form-encoded, ReturnUrl=true answers its
 * address); webhooks carry Signature = MD5("PaymentId:MerchantId:Email:Currency:<webhook password>").
 */
const kit: ProviderKit = {
  name: '0xprocessing',
  currency: 'usd',
  env: (apiUrl) => ({ OXPROCESSING_MERCHANT_ID: MERCHANT, OXPROCESSING_WEBHOOK_PASSWORD: PASSWORD, OXPROCESSING_API_URL: apiUrl, OXPROCESSING_COIN: COIN }),
  handle(req) {
    if (req.method !== 'POST' || req.path !== '/Payment') return { status: 404, body: { error: 'not found' } };
    const f = formOf(req);
    if (f.MerchantId !== MERCHANT) return { status: 400, body: { error: 'unknown merchant' } };
    if (!f.Email || !f.ClientId || !f.Currency || !(Number(f.AmountUSD) > 0) || f.ReturnUrl !== 'true') return { status: 400, body: { error: 'missing fields' } };
    return { status: 200, body: { redirectUrl: `https://app.0xprocessing.example/Payment/Pay/${++forms}` } };
  },
  asked(req) {
    const f = formOf(req);
    return { invoiceId: f.BillingID, amount: Math.round(Number(f.AmountUSD) * 100), currency: 'usd', email: f.Email };
  },
  paid(e, _at, forged) {
    const id = ++payments;
    const fields = { PaymentId: id, MerchantId: MERCHANT, Email: e.email, Currency: COIN, Status: 'Success', BillingID: e.invoiceId, AmountUSD: e.amount / 100, Amount: e.amount / 100, Insufficient: false };
    const Signature = md5(`${id}:${MERCHANT}:${e.email}:${COIN}:${forged ? 'guessed' : PASSWORD}`);
    return { body: JSON.stringify({ ...fields, Signature }), headers: { 'content-type': 'application/json' } };
  },
  // the signature covers PaymentId, MerchantId, Email and Currency: tampering with one of them is what it catches
  tamper: (w: SignedWebhook) => ({ ...w, body: w.body.replace(/"PaymentId":(\d+)/, (_, n) => `"PaymentId":${Number(n) + 1}`) }),
  // its signature travels in the body
  unsign: (w: SignedWebhook) => ({ ...w, body: JSON.stringify({ ...JSON.parse(w.body), Signature: undefined }) }),
  // its callbacks name the coin paid in; their amount is always AmountUSD
  webhookCurrency: false,
};

runProviderCases(kit);
