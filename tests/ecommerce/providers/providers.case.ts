import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { DIALECTS } from '../../helpers/databases.js';
import type { ProviderName } from '../../../plugins/billing/server/providers/provider.js';
import type { Config } from '../../../runtime/config.js';
import { bootShop, makeCatalog, shopPath, type Catalog, type Shop } from '../support.js';
import { startFake, type Fake, type FakeAnswer, type FakeRequest } from './fake-http.js';

/** a payment the provider should report as paid */
export interface PaidEvent {
  eventId: string;
  invoiceId: string;
  providerId: string;
  /** minor units */
  amount: number;
  currency: string;
  email: string;
}

export interface SignedWebhook {
  body: string;
  headers: Record<string, string>;
}

/** what a provider's test file gives the shared suite: a fake of its API and its way of signing webhooks */
export interface ProviderKit {
  name: ProviderName;
  /** the currency its payments are made in (default usd) */
  currency?: 'usd' | 'rub';
  /** answers the provider's API as the provider does, checking credentials and signatures; none when it has no API */
  handle?: (req: FakeRequest) => FakeAnswer;
  /** the settings that switch it on, pointing at the fake */
  env(apiUrl: string): Record<string, string>;
  /** the create request read back: what the provider was asked to collect */
  asked?(req: FakeRequest): { invoiceId: string; amount: number; currency: string; email: string };
  /** a 'paid' webhook signed as the provider signs it; `forged` signs with a wrong secret */
  paid(event: PaidEvent, at: { url: string; config: Config }, forged?: boolean): SignedWebhook;
  /** the same webhook with its content changed after signing (default: a space appended to the body) */
  tamper?(webhook: SignedWebhook): SignedWebhook;
  /** the same webhook without its signature (default: without the signature headers) */
  unsign?(webhook: SignedWebhook): SignedWebhook;
  /** false when its webhooks do not say which currency was paid (default: they do, from PaidEvent.currency) */
  webhookCurrency?: boolean;
}

let events = 0;

/**
 * The one suite every payment provider passes, on every database, through the whole app: checkout asks
 * the provider (a local fake of its API) for a payment, its signed webhook approves the order once, a
 * forged, tampered or unsigned webhook changes nothing, and a provider failure writes nothing.
 */
export function runProviderCases(kit: ProviderKit) {
  for (const d of DIALECTS) {
    describe(`${kit.name} provider on ${d.name}`, () => {
      let fake: Fake | undefined;
      let t: Shop;
      let c: Catalog;
      let buyer: Awaited<ReturnType<Shop['register']>>;
      beforeAll(async () => {
        fake = kit.handle ? await startFake(kit.handle) : undefined;
        t = await bootShop(await d.make(), { env: kit.env(fake?.url ?? '') });
        c = await makeCatalog(t);
        buyer = await t.register(`${kit.name}-buyer@example.com`);
      });
      afterAll(async () => {
        await t?.close();
        await fake?.close();
      });

      const currency = () => (kit.currency === 'rub' ? c.rub : c.usd);
      const url = () => `${t.config.publicUrl}/api/billing/webhooks/${kit.name}`;
      const deliver = (w: SignedWebhook) => t.anon('POST', `/api/billing/webhooks/${kit.name}`, w.body, w.headers);
      const count = async (path: string) => (await t.call('GET', `${path}/count`)).body.data as number;

      async function checkout() {
        const cart = (await buyer.call('POST', shopPath(buyer.id, '/orders'), { data: { productId: c.book.id, quantity: 2 } })).body.data;
        const r = await buyer.call('POST', shopPath(buyer.id, '/orders/checkout'), {
          data: { provider: kit.name, email: `${kit.name}-buyer@example.com`, billingModule: { currency: { id: currency().id } }, ecommerceModule: { orders: [{ id: cart.id }] } },
        });
        return { r, cart };
      }

      const paidEvent = (invoice: Record<string, any>): PaidEvent => ({
        eventId: `evt-${kit.name}-${++events}`,
        invoiceId: invoice.id,
        providerId: invoice.providerId,
        amount: Math.round(invoice.amount * 100),
        currency: currency().slug,
        email: `${kit.name}-buyer@example.com`,
      });

      it('is switched on by its settings', async () => {
        expect((await t.anon('GET', '/api/billing/providers')).body.data.providers).toContain(kit.name);
      });

      it('creates the payment with the provider: invoice, amount, currency and email; answers its payment url', async () => {
        const { r } = await checkout();
        expect(r.status).toBe(201);
        const invoice = r.body.data.billingModule.invoices[0];
        const expected = kit.currency === 'rub' ? 1980 : 25;
        expect(invoice).toMatchObject({ provider: kit.name, status: 'open', amount: expected });
        expect(invoice.paymentUrl).toMatch(kit.handle ? /^https:\/\// : /^\//);
        const full = await t.call('GET', `/api/billing/invoices/${invoice.id}`);
        expect(full.body.data.providerId).toBeTruthy();
        if (fake && kit.asked) {
          expect(kit.asked(fake.requests.at(-1)!)).toEqual({ invoiceId: invoice.id, amount: Math.round(expected * 100), currency: currency().slug, email: `${kit.name}-buyer@example.com` });
        }
      });

      it('a signed webhook marks the invoice paid and approves the order, once', async () => {
        const { r, cart } = await checkout();
        const invoice = (await t.call('GET', `/api/billing/invoices/${r.body.data.billingModule.invoices[0].id}`)).body.data;
        const webhook = kit.paid(paidEvent(invoice), { url: url(), config: t.config });
        const before = await count('/api/billing/webhook-events');
        const first = await deliver(webhook);
        expect(first.status).toBe(200);
        expect((await t.call('GET', `/api/billing/invoices/${invoice.id}`)).body.data.status).toBe('paid');
        expect((await t.call('GET', `/api/ecommerce/orders/${cart.id}`)).body.data.status).toBe('approving');
        const again = await deliver(webhook);
        expect(again.status).toBe(200);
        expect(await count('/api/billing/webhook-events')).toBe(before + 1);
      });

      it('a forged, a tampered and an unsigned webhook are refused and change nothing', async () => {
        const { r, cart } = await checkout();
        const invoice = (await t.call('GET', `/api/billing/invoices/${r.body.data.billingModule.invoices[0].id}`)).body.data;
        const event = paidEvent(invoice);
        const good = kit.paid(event, { url: url(), config: t.config });
        const tampered = kit.tamper ? kit.tamper(good) : { ...good, body: `${good.body} ` };
        const unsigned = kit.unsign ? kit.unsign(good) : { body: good.body, headers: { 'content-type': good.headers['content-type'] ?? 'application/json' } };
        const before = await count('/api/billing/webhook-events');
        for (const w of [kit.paid(event, { url: url(), config: t.config }, true), tampered, unsigned]) {
          const answer = await deliver(w);
          expect(answer.status).toBe(400);
          expect(answer.body.message).toMatch(/^Webhook refused/);
        }
        expect(await count('/api/billing/webhook-events')).toBe(before);
        expect((await t.call('GET', `/api/billing/invoices/${invoice.id}`)).body.data.status).toBe('open');
        expect((await t.call('GET', `/api/ecommerce/orders/${cart.id}`)).body.data.status).toBe('paying');
      });

      it.runIf(kit.webhookCurrency !== false)('a signed paid webhook in another currency than the invoice\'s is recorded and changes nothing, also when delivered again', async () => {
        const { r, cart } = await checkout();
        const invoice = (await t.call('GET', `/api/billing/invoices/${r.body.data.billingModule.invoices[0].id}`)).body.data;
        // the right number, in the other currency of the catalog
        const webhook = kit.paid({ ...paidEvent(invoice), currency: currency() === c.usd ? c.rub.slug : c.usd.slug }, { url: url(), config: t.config });
        const before = await count('/api/billing/webhook-events');
        for (const duplicate of [false, true]) {
          const answer = await deliver(webhook);
          expect(answer.status).toBe(200);
          if (answer.body.data) expect(answer.body.data).toMatchObject({ duplicate, outcome: 'currency-mismatch' });
        }
        expect(await count('/api/billing/webhook-events')).toBe(before + 1);
        const events = (await t.call('GET', `/api/billing/webhook-events?filters[and][0][column]=invoiceId&filters[and][0][method]=eq&filters[and][0][value]=${invoice.id}`)).body.data;
        expect(events.map((e: Record<string, unknown>) => e.outcome)).toEqual(['currency-mismatch']);
        expect((await t.call('GET', `/api/billing/invoices/${invoice.id}`)).body.data.status).toBe('open');
        expect((await t.call('GET', `/api/ecommerce/orders/${cart.id}`)).body.data.status).toBe('paying');
      });

      it.runIf(!!kit.handle)('a provider that fails writes nothing: 502, and the cart stays a cart', async () => {
        const before = [await count('/api/billing/invoices'), await count('/api/billing/payment-intents')];
        fake!.failNext();
        const { r, cart } = await checkout();
        expect(r.status).toBe(502);
        expect(r.body.message).toMatch(/nothing was charged/);
        expect((await t.call('GET', `/api/ecommerce/orders/${cart.id}`)).body.data).toMatchObject({ status: 'new', type: 'cart' });
        expect([await count('/api/billing/invoices'), await count('/api/billing/payment-intents')]).toEqual(before);
        // and once the provider is back, the next try goes through
        fake!.recover();
        await buyer.call('DELETE', shopPath(buyer.id, `/orders/${cart.id}`));
        expect((await checkout()).r.status).toBe(201);
      });
    });
  }
}
