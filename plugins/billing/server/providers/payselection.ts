import { randomUUID } from 'node:crypto';
import { callProvider, decimal, hmac, minorOf, parseJson, ProviderFailed, sameText, WebhookRefused, type PaymentEvent, type PaymentProvider, type PaymentRequest } from './provider.js';

export interface PayselectionOptions {
  siteId: string;
  secretKey: string;
  /** the web-payments API: https://webform.payselection.com */
  apiUrl: string;
}

const CREATE_PATH = '/webpayments/create';

/**
 * Payselection (and its international account, the same protocol with its own site): a payment link
 * from `POST /webpayments/create`, signed in `X-REQUEST-SIGNATURE` as hex HMAC-SHA256 with the site's
 * secret key of "POST\n<path>\n<X-SITE-ID>\n<X-REQUEST-ID>\n<body>"; webhooks signed in
 * `X-WEBHOOK-SIGNATURE` as hex HMAC-SHA256 of "POST\n<notification url>\n<X-SITE-ID>\n<body>".
 */
export function payselectionProvider(name: 'payselection' | 'payselection-international', options: PayselectionOptions): PaymentProvider {
  return {
    name,
    async createPayment(request: PaymentRequest) {
      const requestId = randomUUID();
      const body = JSON.stringify({
        MetaData: { PaymentType: 'Pay' },
        PaymentRequest: {
          OrderId: request.invoiceId,
          Amount: decimal(request.amount, request.currency),
          Currency: request.currency.toUpperCase(),
          Description: request.description,
          ExtraData: { SuccessUrl: request.successUrl, CancelUrl: request.cancelUrl, DeclineUrl: request.cancelUrl, WebhookUrl: request.webhookUrl },
        },
        CustomerInfo: { Email: request.email },
      });
      const signature = hmac('sha256', options.secretKey, `POST\n${CREATE_PATH}\n${options.siteId}\n${requestId}\n${body}`).digest('hex');
      const answer = await callProvider(name, `${options.apiUrl.replace(/\/$/, '')}${CREATE_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-site-id': options.siteId, 'x-request-id': requestId, 'x-request-signature': signature },
        body,
      });
      const url = typeof answer === 'string' ? answer : (answer as { Url?: string; url?: string })?.Url ?? (answer as { url?: string })?.url;
      if (typeof url !== 'string' || !/^https?:\/\//.test(url)) throw new ProviderFailed(name, 'no payment link in the answer');
      return { providerId: request.invoiceId, paymentUrl: url };
    },
    async parseWebhook({ body, headers, url }): Promise<PaymentEvent> {
      const siteId = headers.get('x-site-id');
      if (siteId !== options.siteId) throw new WebhookRefused('X-SITE-ID is not this site');
      const expected = hmac('sha256', options.secretKey, `POST\n${url}\n${siteId}\n${body}`).digest('hex');
      if (!sameText(headers.get('x-webhook-signature')?.toLowerCase(), expected)) throw new WebhookRefused('X-WEBHOOK-SIGNATURE does not match');
      const n = parseJson(body);
      const event = String(n.Event ?? '');
      const transaction = String(n.TransactionId ?? '');
      if (!event || !transaction) throw new WebhookRefused('the notification has no Event or TransactionId');
      const currency = typeof n.Currency === 'string' && n.Currency ? n.Currency.toLowerCase() : undefined;
      return {
        id: `${transaction}:${event}`,
        type: event,
        outcome: event === 'Payment' ? 'paid' : event === 'Fail' ? 'failed' : 'ignored',
        invoiceId: typeof n.OrderId === 'string' ? n.OrderId : undefined,
        providerId: typeof n.OrderId === 'string' ? n.OrderId : undefined,
        amount: minorOf(n.Amount, currency ?? ''),
        currency,
      };
    },
  };
}
