import { callProvider, decimal, hmac, minorOf, parseFields, ProviderFailed, sameText, WebhookRefused, type PaymentEvent, type PaymentProvider, type PaymentRequest } from './provider.js';

export interface CloudPaymentsOptions {
  publicId: string;
  apiSecret: string;
  /** https://api.cloudpayments.ru (CloudPayments) or https://api.tiptoppay.kz (TipTopPay) */
  apiUrl: string;
}

/**
 * CloudPayments and TipTopPay (the same protocol): a payment link from `POST /orders/create` (HTTP
 * Basic with the Public ID and the API secret), and Pay / Fail notifications whose raw body is signed in
 * the `Content-HMAC` header: base64 HMAC-SHA256 with the API secret. They expect `{"code":0}` back.
 */
export function cloudPaymentsProvider(name: 'cloudpayments' | 'tiptoppay', options: CloudPaymentsOptions): PaymentProvider {
  const auth = `Basic ${Buffer.from(`${options.publicId}:${options.apiSecret}`).toString('base64')}`;
  return {
    name,
    acknowledgement: { code: 0 },
    async createPayment(request: PaymentRequest) {
      const answer = (await callProvider(name, `${options.apiUrl.replace(/\/$/, '')}/orders/create`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify({
          Amount: Number(decimal(request.amount, request.currency)),
          Currency: request.currency.toUpperCase(),
          Description: request.description,
          Email: request.email,
          InvoiceId: request.invoiceId,
          AccountId: request.subjectId,
          SendEmail: false,
          SuccessRedirectUrl: request.successUrl,
          FailRedirectUrl: request.cancelUrl,
        }),
      })) as { Success?: boolean; Message?: string; Model?: { Id?: string; Url?: string } };
      if (!answer?.Success || !answer.Model?.Url || !answer.Model.Id) throw new ProviderFailed(name, answer?.Message || 'no payment link in the answer');
      return { providerId: String(answer.Model.Id), paymentUrl: answer.Model.Url };
    },
    async parseWebhook({ body, headers }): Promise<PaymentEvent> {
      const expected = hmac('sha256', options.apiSecret, body).digest('base64');
      if (!sameText(headers.get('content-hmac'), expected)) throw new WebhookRefused('Content-HMAC does not match');
      const n = parseFields(body, headers.get('content-type'));
      const transaction = String(n.TransactionId ?? '');
      if (!transaction) throw new WebhookRefused('the notification has no TransactionId');
      const status = typeof n.Status === 'string' ? n.Status : undefined;
      // a Pay notification carries Status Completed (or Authorized for two-step payments); a Fail one a ReasonCode and no Status
      const outcome: PaymentEvent['outcome'] = status === 'Completed' ? 'paid' : !status && n.ReasonCode !== undefined ? 'failed' : 'ignored';
      const type = status ?? 'Fail';
      const currency = typeof n.Currency === 'string' && n.Currency ? n.Currency.toLowerCase() : undefined;
      return {
        id: `${transaction}:${type}`,
        type,
        outcome,
        invoiceId: typeof n.InvoiceId === 'string' && n.InvoiceId ? n.InvoiceId : undefined,
        amount: minorOf(n.Amount, currency ?? ''),
        currency,
      };
    },
  };
}
