import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import qs from 'qs';
import { sqliteDatabase } from '../../helpers/databases.js';
import { bootShop, makeCatalog, shopPath, type Catalog, type Shop } from '../support.js';
import { startFake, type Fake } from './fake-http.js';
import { runProviderCases } from './providers.case.js';
import { stripeEvent, stripeKit } from './stripe.kit.js';

runProviderCases(stripeKit);

/** what is Stripe's own: line items priced inline, one idempotency key per invoice, the session's other events */
describe('stripe adapter against the local fake', () => {
  let fake: Fake;
  let t: Shop;
  let c: Catalog;
  beforeAll(async () => {
    fake = await startFake(stripeKit.handle!);
    t = await bootShop(sqliteDatabase(), { env: stripeKit.env(fake.url) });
    c = await makeCatalog(t);
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  async function checkout(email: string) {
    const m = await t.register(email);
    await m.call('POST', shopPath(m.id, '/orders'), { data: { productId: c.book.id, quantity: 3 } });
    const cart = (await m.call('POST', shopPath(m.id, '/orders'), { data: { productId: c.pen.id, quantity: 2 } })).body.data;
    const r = await m.call('POST', shopPath(m.id, `/orders/${cart.id}/checkout`), { data: { provider: 'stripe', email, billingModule: { currency: { id: c.usd.id } } } });
    return { cart, invoice: (await t.call('GET', `/api/billing/invoices/${r.body.data.billingModule.invoices[0].id}`)).body.data };
  }

  it('sends one line item per product with its unit amount in cents, the return urls and the invoice as idempotency key', async () => {
    const { cart, invoice } = await checkout('stripe-lines@example.com');
    const req = fake.requests.at(-1)!;
    expect(req.headers['idempotency-key']).toBe(`invoice-${invoice.id}`);
    const p = qs.parse(req.body) as Record<string, any>;
    expect(p.line_items.map((l: any) => [l.price_data.product_data.name, l.price_data.unit_amount, l.quantity])).toEqual([
      [c.book.title.en, '1250', '3'],
      [c.pen.title.en, '10', '2'],
    ]);
    expect(p.success_url).toBe(`${t.config.publicUrl}/ecommerce/orders?order=${cart.id}`);
    expect(p.client_reference_id).toBe(invoice.id);
    expect(invoice).toMatchObject({ amount: 37.7, providerId: expect.stringMatching(/^cs_test_/), paymentUrl: expect.stringMatching(/^https:\/\/checkout\.stripe\.com\//) });
  });

  it('an expired session cancels the order; an unpaid completion and other events are acknowledged and change nothing', async () => {
    const { cart, invoice } = await checkout('stripe-expired@example.com');
    const event = { eventId: 'evt_unpaid', invoiceId: invoice.id, providerId: invoice.providerId, amount: 3770, currency: 'usd', email: '' };
    const deliver = (w: { body: string; headers: Record<string, string> }) => t.anon('POST', '/api/billing/webhooks/stripe', w.body, w.headers);
    expect((await deliver(stripeEvent(event, 'checkout.session.async_payment_processing'))).body.data.outcome).toBe('ignored');
    expect((await deliver(stripeEvent({ ...event, eventId: 'evt_other' }, 'customer.created'))).body.data.outcome).toBe('ignored');
    expect((await t.call('GET', `/api/ecommerce/orders/${cart.id}`)).body.data.status).toBe('paying');
    expect((await deliver(stripeEvent({ ...event, eventId: 'evt_expired' }, 'checkout.session.expired'))).body.data.outcome).toBe('canceled');
    expect((await t.call('GET', `/api/ecommerce/orders/${cart.id}`)).body.data.status).toBe('canceled');
    expect((await t.call('GET', `/api/billing/invoices/${invoice.id}`)).body.data.status).toBe('canceled');
  });

  it('a wrong secret key is the provider refusing: 502 and nothing written', async () => {
    const other = await bootShop(sqliteDatabase(), { env: { ...stripeKit.env(fake.url), STRIPE_SECRET_KEY: 'sk_test_wrong' } });
    try {
      const cc = await makeCatalog(other);
      const m = await other.register('stripe-wrong-key@example.com');
      const cart = (await m.call('POST', shopPath(m.id, '/orders'), { data: { productId: cc.book.id } })).body.data;
      const r = await m.call('POST', shopPath(m.id, `/orders/${cart.id}/checkout`), { data: { provider: 'stripe', email: 'x@example.com' } });
      expect(r.status).toBe(502);
      expect(JSON.stringify(r.body)).not.toContain('sk_test_wrong');
      expect((await other.call('GET', '/api/billing/invoices/count')).body.data).toBe(0);
    } finally {
      await other.close();
    }
  });
});
