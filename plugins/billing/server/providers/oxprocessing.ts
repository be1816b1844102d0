import { createHash } from 'node:crypto';
import { callProvider, decimal, minorOf, parseFields, ProviderFailed, sameText, WebhookRefused, type PaymentEvent, type PaymentProvider, type PaymentRequest } from './provider.js';

export interface OxProcessingOptions {
  merchantId: string;
  /** the password of the Webhook URL, set in the merchant account */
  webhookPassword: string;
  /** the cryptocurrency the buyer pays in, e.g. 'USDT (TRC20)' */
  coin: string;
  /** https://app.0xprocessing.com */
  apiUrl: string;
  /** accept test payments (the Test flag of the form and its callbacks) */
  test?: boolean;
}

const md5 = (s: string) => createHash('md5').update(s, 'utf8').digest('hex');

/**
 * 0xProcessing (crypto): a fixed-amount payment form in USD (`POST /Payment`, form-encoded, ReturnUrl=true
 * answers the form's address), and webhooks whose `Signature` is the MD5 of
 * "PaymentId:MerchantId:Email:Currency:<webhook password>". Prices must be in USD.
 */
export function oxProcessingProvider(options: OxProcessingOptions): PaymentProvider & { currencies: readonly string[] } {
  return {
    name: '0xprocessing',
    currencies: ['usd'],
    async createPayment(request: PaymentRequest) {
      if (request.currency !== 'usd') throw new ProviderFailed('0xprocessing', 'only USD amounts can be paid');
      const form = new URLSearchParams({
        MerchantId: options.merchantId,
        AmountUSD: decimal(request.amount, 'usd'),
        Currency: options.coin,
        Email: request.email,
        ClientId: request.subjectId,
        BillingID: request.invoiceId,
        ReturnUrl: 'true',
        SuccessUrl: request.successUrl,
        CancelUrl: request.cancelUrl,
        ...(options.test && { Test: 'true' }),
      });
      const answer = (await callProvider('0xprocessing', `${options.apiUrl.replace(/\/$/, '')}/Payment`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
      })) as Record<string, unknown>;
      const url = answer?.redirectUrl ?? answer?.RedirectUrl ?? answer?.url;
      if (typeof url !== 'string' || !/^https?:\/\//.test(url)) throw new ProviderFailed('0xprocessing', 'no payment form address in the answer');
      return { providerId: request.invoiceId, paymentUrl: url };
    },
    async parseWebhook({ body, headers }): Promise<PaymentEvent> {
      const n = parseFields(body, headers.get('content-type'));
      const [paymentId, merchantId, email, currency] = [n.PaymentId, n.MerchantId, n.Email, n.Currency].map((v) => (v === undefined || v === null ? '' : String(v)));
      if (!paymentId || merchantId !== options.merchantId) throw new WebhookRefused('the callback is not for this merchant');
      const expected = md5(`${paymentId}:${merchantId}:${email}:${currency}:${options.webhookPassword}`);
      if (!sameText(typeof n.Signature === 'string' ? n.Signature.toLowerCase() : undefined, expected)) throw new WebhookRefused('Signature does not match');
      const status = String(n.Status ?? '');
      const test = n.Test === true || n.Test === 'true';
      const outcome: PaymentEvent['outcome'] = test && !options.test ? 'ignored' : status === 'Success' ? 'paid' : status === 'Canceled' ? 'canceled' : 'ignored';
      return {
        id: `${paymentId}:${status}`,
        type: status,
        outcome,
        invoiceId: typeof n.BillingID === 'string' && n.BillingID ? n.BillingID : undefined,
        providerId: typeof n.BillingID === 'string' && n.BillingID ? n.BillingID : undefined,
        // the callback's Currency is the coin paid in; the amount it carries is always in USD
        amount: minorOf(n.AmountUSD, 'usd'),
        currency: 'usd',
      };
    },
  };
}
