import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { UUID_RE } from '../../../engine/fields/index.js';
import type { Drizzle } from '../../../runtime/db/index.js';
import { HttpError, badRequest, fromDatabaseError } from '../../../runtime/http/errors.js';
import type { PluginContext } from '../../../runtime/plugin.js';
import { lockRow } from '../../../runtime/db/lock.js';
import { fromMinorUnits } from '../../../runtime/money.js';
import { ProviderFailed, toMinor, WebhookRefused, type PaymentEvent, type ProviderName, type ProviderRegistry, type WebhookRequest } from './providers/index.js';
import { GROUPED_TEXT_MAX } from '../../../engine/json-schema.js';

type Row = Record<string, unknown>;

/** what to bill: the amounts in major units (49.5), the currency a billing/currency row */
export interface InvoiceInput {
  subjectId: string;
  provider: ProviderName;
  email: string;
  comment?: string;
  currency: { id: string; slug: string };
  amount: number;
  type?: 'one_off' | 'subscription';
  description: string;
  lines: { title: string; quantity: number; unitAmount: number }[];
  /** paths on this site the buyer comes back to */
  successPath: string;
  cancelPath: string;
}

/**
 * What became of a webhook, also kept in billing/webhook-event.outcome: the event's own outcome when applied;
 * 'unknown-invoice', 'not-open', 'currency-mismatch' (a paid event in another currency than the invoice's) or
 * 'amount-mismatch' when nothing was applied. A duplicate answers the outcome stored for its first delivery.
 */
export interface WebhookResult {
  duplicate: boolean;
  outcome: PaymentEvent['outcome'] | 'unknown-invoice' | 'amount-mismatch' | 'currency-mismatch' | 'not-open';
  invoiceId?: string;
  acknowledgement: Record<string, unknown>;
}

/**
 * The billing module's service (ctx.services.billing): invoices with their payment intents, made
 * inside the caller's transaction, and verified, idempotent webhooks. A paid invoice marks its payment
 * intents succeeded; modules react to that with hooks (the ecommerce module approves the orders).
 */
export interface BillingService {
  readonly providers: ProviderRegistry;
  /** the webhook address of a provider, to register with it */
  webhookUrl(provider: ProviderName): string;
  /**
   * Inside `tx`: a payment intent owned by the subject, in the currency, and its open invoice with the
   * provider's payment url. A provider failure throws (502) and the caller's transaction rolls back.
   */
  createInvoice(input: InvoiceInput, tx: Drizzle): Promise<{ invoice: Row; paymentIntent: Row }>;
  /** verifies a provider's webhook and applies it once: the same event again changes nothing */
  handleWebhook(provider: string, request: WebhookRequest): Promise<WebhookResult>;
}

export function billingService(ctx: PluginContext, providers: ProviderRegistry): BillingService {
  const e = (id: string) => ctx.model.byId[id];
  const [intent, invoice, event] = [e('billing/payment-intent'), e('billing/invoice'), e('billing/webhook-event')];
  const t = ctx.database.tables;
  const absolute = (path: string) => new URL(path, ctx.config.publicUrl + '/').toString();

  async function intentsOf(tx: Drizzle, invoiceId: string): Promise<string[]> {
    const links = t['billing/payment-intents-to-invoices'];
    const rows: { id: string }[] = await tx.select({ id: links.paymentIntentId }).from(links).where(eq(links.invoiceId, invoiceId));
    return rows.map((r) => r.id);
  }

  /** the invoice's currency code (its payment intents' currency slug), lower case; undefined when it has none */
  async function currencyOf(tx: Drizzle, invoiceId: string): Promise<string | undefined> {
    const links = t['billing/payment-intents-to-invoices'];
    const toCurrency = t['billing/payment-intents-to-currencies'];
    const currencies = t['billing/currency'];
    const [row]: { slug: unknown }[] = await tx
      .select({ slug: currencies.slug })
      .from(links)
      .innerJoin(toCurrency, eq(toCurrency.paymentIntentId, links.paymentIntentId))
      .innerJoin(currencies, eq(currencies.id, toCurrency.currencyId))
      .where(eq(links.invoiceId, invoiceId))
      .limit(1);
    return typeof row?.slug === 'string' && row.slug ? row.slug.toLowerCase() : undefined;
  }

  async function findInvoice(tx: Drizzle, provider: ProviderName, ev: PaymentEvent): Promise<Row | undefined> {
    const inv = t['billing/invoice'];
    if (ev.invoiceId && UUID_RE.test(ev.invoiceId)) {
      const [row] = await tx.select().from(inv).where(and(eq(inv.id, ev.invoiceId.toLowerCase()), eq(inv.provider, provider))).limit(1);
      if (row) return row;
    }
    if (ev.providerId) {
      const [row] = await tx.select().from(inv).where(and(eq(inv.providerId, ev.providerId), eq(inv.provider, provider))).limit(1);
      return row;
    }
    return undefined;
  }

  /** moves an open invoice and its payment intents to the event's outcome; anything else stays */
  async function apply(tx: Drizzle, provider: ProviderName, ev: PaymentEvent): Promise<{ outcome: WebhookResult['outcome']; invoiceId?: string }> {
    const found = await findInvoice(tx, provider, ev);
    if (!found) return { outcome: ev.outcome === 'ignored' ? 'ignored' : 'unknown-invoice' };
    const id = found.id as string;
    if (ev.outcome === 'ignored') return { outcome: 'ignored', invoiceId: id };
    await lockRow(ctx.database, tx, invoice.id, id);
    const current = await ctx.repo.getOrThrow(invoice, id, tx);
    if (current.status !== 'open') return { outcome: 'not-open', invoiceId: id };
    if (ev.outcome === 'paid') {
      const currency = await currencyOf(tx, id);
      const evCurrency = ev.currency?.toLowerCase();
      // a paid event is applied only in the invoice's currency, and for its amount in that currency's minor units
      if (currency && evCurrency && evCurrency !== currency) return { outcome: 'currency-mismatch', invoiceId: id };
      if (ev.amount !== undefined && ev.amount !== toMinor(Number(current.amount), currency ?? evCurrency ?? '')) return { outcome: 'amount-mismatch', invoiceId: id };
    }
    const status = { paid: ['paid', 'succeeded'], failed: ['failed', 'failed'], canceled: ['canceled', 'canceled'] }[ev.outcome];
    await ctx.repo.update(invoice, id, { status: status[0] }, tx);
    for (const intentId of await intentsOf(tx, id)) await ctx.repo.update(intent, intentId, { status: status[1] }, tx);
    return { outcome: ev.outcome, invoiceId: id };
  }

  return {
    providers,
    webhookUrl: (provider) => absolute(`/api/billing/webhooks/${provider}`),

    async createInvoice(input, tx) {
      const provider = providers.get(input.provider);
      if (!provider) throw new HttpError(400, `Payment provider '${input.provider}' is not switched on`, [{ field: 'provider', rule: 'enabled', message: `provider must be one of: ${providers.enabled.join(', ')}` }]);
      if (provider.currencies && !provider.currencies.includes(input.currency.slug)) {
        throw new HttpError(400, `${input.provider} takes only ${provider.currencies.join(', ').toUpperCase()}`, [{ field: 'billingModule.currency.id', rule: 'provider', message: `${input.provider} takes only ${provider.currencies.join(', ').toUpperCase()}` }]);
      }
      // the invoice and its payment intent hold what the provider is asked for: the amount in whole minor units of the
      // currency, rounded half up as the shop rounds its totals (runtime/money.ts)
      const minor = toMinor(input.amount, input.currency.slug);
      const amount = fromMinorUnits(minor, input.currency.slug);
      const paymentIntent = await ctx.repo.create(intent, { status: 'open', amount, type: input.type ?? 'one_off' }, tx);
      await ctx.repo.create(e('rbac/subjects-to-billing-module-payment-intents'), { subjectId: input.subjectId, billingModulePaymentIntentId: paymentIntent.id }, tx);
      await ctx.repo.create(e('billing/payment-intents-to-currencies'), { paymentIntentId: paymentIntent.id, currencyId: input.currency.id }, tx);
      const invoiceId = randomUUID();
      const [successUrl, cancelUrl] = [absolute(input.successPath), absolute(input.cancelPath)];
      let created;
      try {
        created = await provider.createPayment({
          invoiceId,
          amount: minor,
          currency: input.currency.slug,
          description: input.description,
          email: input.email,
          subjectId: input.subjectId,
          lines: input.lines.map((l) => ({ title: l.title, quantity: l.quantity, unitAmount: toMinor(l.unitAmount, input.currency.slug) })),
          successUrl,
          cancelUrl,
          webhookUrl: absolute(`/api/billing/webhooks/${input.provider}`),
        });
      } catch (err) {
        if (!(err instanceof ProviderFailed)) throw err;
        ctx.log.warn({ provider: input.provider, invoice: invoiceId, reason: err.message }, 'payment provider refused the payment');
        throw new HttpError(502, `The payment provider could not start the payment (${err.message}); nothing was charged, try again`);
      }
      const row = await ctx.repo.create(
        invoice,
        { status: 'open', provider: input.provider, amount, email: input.email, comment: input.comment, paymentUrl: created.paymentUrl, providerId: created.providerId, successUrl, cancelUrl },
        tx,
        '',
        invoiceId,
      );
      await ctx.repo.create(e('billing/payment-intents-to-invoices'), { paymentIntentId: paymentIntent.id, invoiceId }, tx);
      return { invoice: row, paymentIntent };
    },

    async handleWebhook(name, request) {
      const provider = providers.get(name as ProviderName);
      if (!provider) throw new HttpError(404, `No payment provider '${name.slice(0, 40)}' is switched on`);
      const acknowledgement = provider.acknowledgement ?? { received: true };
      let ev: PaymentEvent;
      try {
        ev = await provider.parseWebhook(request);
      } catch (err) {
        if (!(err instanceof WebhookRefused)) throw err;
        ctx.log.warn({ provider: provider.name, reason: err.message }, 'webhook refused');
        throw new HttpError(400, `Webhook refused: ${err.message}`);
      }
      const ws = t['billing/webhook-event'];
      /** the answer to an event already handled: the outcome stored for its first delivery (not this delivery's own) */
      const stored = async (db: Drizzle): Promise<WebhookResult | undefined> => {
        const [seen]: { outcome: unknown; invoiceId: unknown }[] = await db
          .select({ outcome: ws.outcome, invoiceId: ws.invoiceId })
          .from(ws)
          .where(and(eq(ws.provider, provider.name), eq(ws.eventId, ev.id)))
          .limit(1);
        if (!seen) return undefined;
        const outcome = typeof seen.outcome === 'string' && seen.outcome !== 'received' ? (seen.outcome as WebhookResult['outcome']) : ev.outcome;
        return { duplicate: true, outcome, ...(typeof seen.invoiceId === 'string' && { invoiceId: seen.invoiceId }), acknowledgement };
      };
      // an event id is kept in a unique index (provider, eventId): no provider's ids come near its bound
      if (ev.id.length > GROUPED_TEXT_MAX) throw badRequest(`Webhook refused: the event id is longer than ${GROUPED_TEXT_MAX} characters`, [{ field: 'id', rule: 'maxLength', message: `id must be at most ${GROUPED_TEXT_MAX} characters` }]);
      try {
        return await ctx.database.transaction(async (tx) => {
          const seen = await stored(tx);
          if (seen) return seen;
          // the event's row first: a concurrent delivery of the same event waits on its unique key, then fails as a duplicate
          const row = await ctx.repo.create(event, { provider: provider.name, eventId: ev.id, type: ev.type.slice(0, 200), outcome: 'received' }, tx);
          const result = await apply(tx, provider.name, ev);
          await ctx.repo.update(event, row.id as string, { outcome: result.outcome, ...(result.invoiceId && { invoiceId: result.invoiceId }) }, tx);
          if (result.outcome === 'amount-mismatch' || result.outcome === 'currency-mismatch' || result.outcome === 'unknown-invoice') ctx.log.warn({ provider: provider.name, event: ev.id, outcome: result.outcome }, 'webhook not applied');
          return { duplicate: false, ...result, acknowledgement };
        });
      } catch (err) {
        // a concurrent delivery of the same event stored it first: answer what it stored
        if (fromDatabaseError(err)?.status === 409) return (await stored(ctx.database.db)) ?? { duplicate: true, outcome: ev.outcome, acknowledgement };
        throw err;
      }
    },
  };
}
