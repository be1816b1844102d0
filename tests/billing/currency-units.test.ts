import { createHmac, randomUUID } from 'node:crypto';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import qs from 'qs';
import { DIALECTS } from '../helpers/databases.js';
import { decimal, minorDigits, minorOf, toMinor } from '../../plugins/billing/server/providers/provider.js';
import { dummyProvider } from '../../plugins/billing/server/providers/dummy.js';
import { fromStripeAmount, toStripeAmount } from '../../plugins/billing/server/providers/stripe.js';
import { bootShop, makeCatalog, shopPath, type Catalog, type Shop } from '../ecommerce/support.js';
import { startFake, type Fake } from '../ecommerce/providers/fake-http.js';
import { stripeEvent, stripeKit } from '../ecommerce/providers/stripe.kit.js';

/**
 * Amounts go to and come from providers in minor units of the invoice's currency (ISO 4217 digits: JPY 0,
 * USD 2, KWD 3), not always hundredths; a paid webhook in another currency is not applied; a duplicate
 * webhook answers the outcome stored for its first delivery.
 */
describe('minor units of a currency', () => {
  it('come from the ISO code, in any case; a code Intl does not know counts two digits', () => {
    expect(['usd', 'RUB', 'jpy', 'KRW', 'kwd', 'bhd'].map(minorDigits)).toEqual([2, 2, 0, 0, 3, 3]);
    expect(['usdt', 'bonus-points', '', 'XYZ'].map(minorDigits)).toEqual([2, 2, 2, 2]);
  });

  it('convert major amounts and decimal strings both ways, half up', () => {
    expect([toMinor(1000, 'jpy'), toMinor(49.5, 'usd'), toMinor(1.005, 'usd'), toMinor(1.5, 'kwd'), toMinor(1.2345, 'KWD'), toMinor(18, 'usdt')]).toEqual([1000, 4950, 101, 1500, 1235, 1800]);
    expect([decimal(1000, 'jpy'), decimal(4950, 'usd'), decimal(1235, 'kwd'), decimal(198000, 'rub')]).toEqual(['1000', '49.50', '1.235', '1980.00']);
    expect([minorOf('1000', 'JPY'), minorOf(1000, 'jpy'), minorOf('49.5', 'usd'), minorOf('1.235', 'kwd'), minorOf('', 'usd'), minorOf(undefined, 'usd')]).toEqual([1000, 1000, 4950, 1235, undefined, undefined]);
  });

  it('are Stripe\'s own where Stripe differs (HUF and ISK in hundredths), the same number elsewhere', () => {
    expect([toStripeAmount(1000, 'jpy'), toStripeAmount(1250, 'usd'), toStripeAmount(1500, 'kwd'), toStripeAmount(toMinor(1000, 'huf'), 'huf'), toStripeAmount(toMinor(500, 'isk'), 'isk')]).toEqual([1000, 1250, 1500, 100000, 50000]);
    expect([fromStripeAmount(1000, 'jpy'), fromStripeAmount(1250, 'usd'), fromStripeAmount(100000, 'huf')]).toEqual([1000, 1250, toMinor(1000, 'huf')]);
  });
});

for (const d of DIALECTS) {
  describe(`currency units and webhook outcomes through the app on ${d.name}`, () => {
    let fake: Fake;
    let t: Shop;
    let c: Catalog;
    let cur: Record<'jpy' | 'kwd' | 'huf', Record<string, any>>;
    let tea: Record<string, any>;
    let buyer: Awaited<ReturnType<Shop['register']>>;
    let dummy: ReturnType<typeof dummyProvider>;

    beforeAll(async () => {
      fake = await startFake(stripeKit.handle!);
      t = await bootShop(await d.make(), { env: stripeKit.env(fake.url) });
      c = await makeCatalog(t);
      const made = async (slug: string, symbol: string) => t.make('/api/billing/currencies', { slug, symbol, title: { en: slug.toUpperCase() } });
      cur = { jpy: await made('jpy', '¥'), kwd: await made('kwd', 'KD'), huf: await made('huf', 'Ft') };
      // a product priced ¥1000, 1.5 KWD, 1000 HUF and $18
      const key = await t.make('/api/ecommerce/attribute-keys', { slug: `price-units-${c.usd.id.slice(0, 8)}`, type: 'price', field: 'number' });
      tea = await t.make('/api/ecommerce/products', { slug: `tea-${c.usd.id.slice(0, 8)}`, title: { en: 'Tea' } });
      for (const [currency, amount] of [[cur.jpy, 1000], [cur.kwd, 1.5], [cur.huf, 1000], [c.usd, 18]] as const) {
        const a = await t.make('/api/ecommerce/attributes', { number: amount });
        await t.make('/api/ecommerce/attribute-keys-to-attributes', { attributeKeyId: key.id, attributeId: a.id });
        await t.make('/api/ecommerce/attributes-to-billing-module-currencies', { attributeId: a.id, billingModuleCurrencyId: currency.id });
        await t.make('/api/ecommerce/products-to-attributes', { productId: tea.id, attributeId: a.id });
      }
      buyer = await t.register('units-buyer@example.com');
      dummy = dummyProvider(createHmac('sha256', t.config.rbacJwtSecret).update('billing-dummy-provider').digest('hex'));
    });
    afterAll(async () => {
      await t?.close();
      await fake?.close();
    });

    /** checks a cart of `quantity` teas (or books) out in the currency; answers the invoice as stored and the order */
    async function checkout(currency: Record<string, any>, provider: 'stripe' | 'dummy', productId = tea.id, quantity = 1) {
      const cart = (await buyer.call('POST', shopPath(buyer.id, '/orders'), { data: { productId, quantity } })).body.data;
      const r = await buyer.call('POST', shopPath(buyer.id, '/orders/checkout'), {
        data: { provider, email: 'units-buyer@example.com', billingModule: { currency: { id: currency.id } }, ecommerceModule: { orders: [{ id: cart.id }] } },
      });
      expect(r.status).toBe(201);
      const invoice = (await t.call('GET', `/api/billing/invoices/${r.body.data.billingModule.invoices[0].id}`)).body.data as Record<string, any>;
      return { invoice, cart };
    }
    /** what the last Checkout Session asked of the Stripe fake: the currency and each line's unit amount and quantity */
    function asked() {
      const p = qs.parse(fake.requests.at(-1)!.body) as Record<string, any>;
      return p.line_items.map((l: any) => [l.price_data.currency, l.price_data.unit_amount, l.quantity]);
    }
    const stripeHook = (w: { body: string; headers: Record<string, string> }) => t.anon('POST', '/api/billing/webhooks/stripe', w.body, w.headers);
    const dummyHook = (event: Record<string, unknown>) => {
      const body = JSON.stringify(event);
      return t.anon('POST', '/api/billing/webhooks/dummy', body, { 'content-type': 'application/json', 'x-dummy-signature': dummy.sign(body) });
    };
    const statusOf = async (path: string) => (await t.call('GET', path)).body.data.status as string;
    const storedOutcomes = async (eventId: string) =>
      ((await t.call('GET', `/api/billing/webhook-events?filters[and][0][column]=eventId&filters[and][0][method]=eq&filters[and][0][value]=${eventId}`)).body.data as Record<string, unknown>[]).map((e) => e.outcome);

    it('a JPY invoice of 1000 is asked of Stripe as 1000 yen; a USD one in cents as before', async () => {
      const jpy = await checkout(cur.jpy, 'stripe', tea.id, 2);
      expect(jpy.invoice.amount).toBe(2000);
      expect(asked()).toEqual([['jpy', '1000', '2']]);
      await checkout(c.usd, 'stripe', c.book.id, 2);
      expect(asked()).toEqual([['usd', '1250', '2']]);
      await checkout(c.usd, 'stripe');
      expect(asked()).toEqual([['usd', '1800', '1']]);
    });

    it('KWD goes to Stripe in fils (1.5 → 1500) and HUF in Stripe\'s hundredths (1000 → 100000)', async () => {
      await checkout(cur.kwd, 'stripe');
      expect(asked()).toEqual([['kwd', '1500', '1']]);
      const huf = await checkout(cur.huf, 'stripe');
      expect(asked()).toEqual([['huf', '100000', '1']]);
      // and Stripe's completion for 100000 pays the 1000 HUF invoice
      const paid = await stripeHook(stripeEvent({ eventId: `evt_huf_${randomUUID()}`, invoiceId: huf.invoice.id, providerId: huf.invoice.providerId, amount: 100000, currency: 'huf', email: '' }, 'checkout.session.completed'));
      expect(paid.body.data).toMatchObject({ duplicate: false, outcome: 'paid' });
    });

    it('a Stripe completion for a JPY invoice is compared in yen: 100000 is a mismatch, 1000 pays it', async () => {
      const { invoice, cart } = await checkout(cur.jpy, 'stripe');
      const event = { invoiceId: invoice.id, providerId: invoice.providerId, currency: 'jpy', email: '' };
      const hundredfold = await stripeHook(stripeEvent({ ...event, eventId: `evt_jpy_${randomUUID()}`, amount: 100000 }, 'checkout.session.completed'));
      expect(hundredfold.body.data).toMatchObject({ duplicate: false, outcome: 'amount-mismatch' });
      expect(await statusOf(`/api/billing/invoices/${invoice.id}`)).toBe('open');
      const right = await stripeHook(stripeEvent({ ...event, eventId: `evt_jpy_${randomUUID()}`, amount: 1000 }, 'checkout.session.completed'));
      expect(right.body.data).toMatchObject({ duplicate: false, outcome: 'paid' });
      expect(await statusOf(`/api/billing/invoices/${invoice.id}`)).toBe('paid');
      expect(await statusOf(`/api/ecommerce/orders/${cart.id}`)).toBe('approving');
    });

    it('a signed Stripe completion in USD for a JPY invoice, with the right number, is recorded as a currency mismatch and not applied', async () => {
      const { invoice, cart } = await checkout(cur.jpy, 'stripe');
      const eventId = `evt_usd_${randomUUID()}`;
      const answer = await stripeHook(stripeEvent({ eventId, invoiceId: invoice.id, providerId: invoice.providerId, amount: 1000, currency: 'usd', email: '' }, 'checkout.session.completed'));
      expect(answer.status).toBe(200);
      expect(answer.body.data).toMatchObject({ duplicate: false, outcome: 'currency-mismatch' });
      expect(await storedOutcomes(eventId)).toEqual(['currency-mismatch']);
      expect(await statusOf(`/api/billing/invoices/${invoice.id}`)).toBe('open');
      expect(await statusOf(`/api/ecommerce/orders/${cart.id}`)).toBe('paying');
    });

    it('the dummy provider: 1800 RUB for an $18 invoice is a currency mismatch; 1800 in USD (any case) pays it', async () => {
      const { invoice, cart } = await checkout(c.usd, 'dummy');
      expect(invoice.amount).toBe(18);
      const rub = await dummyHook({ id: `evt_rub_${randomUUID()}`, type: 'payment.succeeded', invoiceId: invoice.id, amount: 1800, currency: 'rub' });
      expect(rub.body.data).toMatchObject({ duplicate: false, outcome: 'currency-mismatch' });
      expect(await statusOf(`/api/billing/invoices/${invoice.id}`)).toBe('open');
      const usd = await dummyHook({ id: `evt_usd_${randomUUID()}`, type: 'payment.succeeded', invoiceId: invoice.id, amount: 1800, currency: 'USD' });
      expect(usd.body.data).toMatchObject({ duplicate: false, outcome: 'paid' });
      expect(await statusOf(`/api/ecommerce/orders/${cart.id}`)).toBe('approving');
    });

    it('the dummy payment page shows a JPY invoice in yen and pays it for 1000', async () => {
      const { invoice, cart } = await checkout(cur.jpy, 'dummy');
      const page = await t.app.request(invoice.paymentUrl);
      expect(await page.text()).toContain('¥1000 JPY');
      const pay = await t.app.request(invoice.paymentUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'action=pay' });
      expect(pay.status).toBe(303);
      expect(await statusOf(`/api/billing/invoices/${invoice.id}`)).toBe('paid');
      expect(await statusOf(`/api/ecommerce/orders/${cart.id}`)).toBe('approving');
    });

    it('a duplicate webhook answers the outcome stored for its first delivery, and changes nothing', async () => {
      const { invoice, cart } = await checkout(c.usd, 'dummy');
      const events = await (async () => (await t.call('GET', '/api/billing/webhook-events/count')).body.data as number)();
      const cheap = { id: `evt_cheap_${randomUUID()}`, type: 'payment.succeeded', invoiceId: invoice.id, amount: 1, currency: 'usd' };
      const elsewhere = { id: `evt_nowhere_${randomUUID()}`, type: 'payment.succeeded', invoiceId: randomUUID(), amount: 1800, currency: 'usd' };
      const ruble = { id: `evt_ruble_${randomUUID()}`, type: 'payment.succeeded', invoiceId: invoice.id, amount: 1800, currency: 'rub' };
      const good = { id: `evt_good_${randomUUID()}`, type: 'payment.succeeded', invoiceId: invoice.id, amount: 1800, currency: 'usd' };
      for (const [event, outcome] of [[cheap, 'amount-mismatch'], [elsewhere, 'unknown-invoice'], [ruble, 'currency-mismatch']] as const) {
        expect((await dummyHook(event)).body.data).toMatchObject({ duplicate: false, outcome });
        expect((await dummyHook(event)).body.data).toMatchObject({ duplicate: true, outcome });
        expect(await storedOutcomes(event.id)).toEqual([outcome]);
      }
      expect(await statusOf(`/api/billing/invoices/${invoice.id}`)).toBe('open');
      expect((await dummyHook(good)).body.data).toMatchObject({ duplicate: false, outcome: 'paid' });
      expect((await dummyHook(good)).body.data).toMatchObject({ duplicate: true, outcome: 'paid' });
      // the first mismatch delivered again after the invoice was paid still answers what it was
      expect((await dummyHook(cheap)).body.data).toMatchObject({ duplicate: true, outcome: 'amount-mismatch' });
      expect(await statusOf(`/api/ecommerce/orders/${cart.id}`)).toBe('approving');
      expect((await t.call('GET', '/api/billing/webhook-events/count')).body.data).toBe(events + 4);
    });
  });
}
