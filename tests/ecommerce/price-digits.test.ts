import { randomUUID } from 'node:crypto';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { eq } from 'drizzle-orm';
import qs from 'qs';
import { DIALECTS } from '../helpers/databases.js';
import { formatPrice, lineTotal, orderTotals, type Currency } from '../../plugins/ecommerce/pricing.js';
import { decimalPlaces, fitsMinorUnits } from '../../runtime/money.js';
import { bootShop, makeCatalog, shopPath, type Catalog, type Shop } from './support.js';
import { startFake, type Fake } from './providers/fake-http.js';
import { stripeEvent, stripeKit } from './providers/stripe.kit.js';

/**
 * A price (an attribute's number linked to a currency) is paid in the currency's own minor units (JPY 0 digits,
 * USD 2, KWD 3): a price with more decimal places than its currency has is refused on every write that would make
 * one, naming the field; and what the shop totals, shows, invoices and asks the provider for is rounded per unit
 * in those units, the same way, for prices stored before the rule too.
 */
describe('decimal places of an amount', () => {
  it('are read from its decimal form, so binary noise does not count', () => {
    expect([0.29, 1.005, 49.5, 1000, 0.125, 1e-7, 1.5e21, 0.1 + 0.2].map(decimalPlaces)).toEqual([2, 3, 1, 0, 3, 7, 0, 17]);
    expect([fitsMinorUnits(0.29, 'usd'), fitsMinorUnits(1.005, 'usd'), fitsMinorUnits(1.005, 'KWD'), fitsMinorUnits(0.5, 'jpy'), fitsMinorUnits(1000, 'jpy'), fitsMinorUnits(0.0005, 'kwd')]).toEqual([true, false, true, false, true, false]);
  });
});

describe('prices in the currency\'s own minor units (pricing.ts)', () => {
  const jpy: Currency = { id: 'jpy', slug: 'jpy', symbol: '¥' };
  const kwd: Currency = { id: 'kwd', slug: 'kwd', symbol: 'KD' };
  const usd: Currency = { id: 'usd', slug: 'usd', symbol: '$' };
  it('round each unit price to the currency\'s digits, half up, for line totals, order totals and what is shown', () => {
    expect(lineTotal({ quantity: 3, prices: [{ currency: jpy, amount: 0.5 }] })).toEqual([{ currency: jpy, amount: 3 }]);
    expect(orderTotals([{ quantity: 3, prices: [{ currency: jpy, amount: 0.5 }] }, { quantity: 1, prices: [{ currency: jpy, amount: 1000 }] }])).toEqual([{ currency: jpy, amount: 1003 }]);
    expect(lineTotal({ quantity: 2, prices: [{ currency: kwd, amount: 1.005 }] })).toEqual([{ currency: kwd, amount: 2.01 }]);
    expect(lineTotal({ quantity: 3, prices: [{ currency: kwd, amount: 0.0005 }] })).toEqual([{ currency: kwd, amount: 0.003 }]);
    expect(lineTotal({ quantity: 2, prices: [{ currency: usd, amount: 1.005 }] })).toEqual([{ currency: usd, amount: 2.02 }]);
    expect([formatPrice({ currency: jpy, amount: 0.5 }), formatPrice({ currency: jpy, amount: 1000 }), formatPrice({ currency: kwd, amount: 1.5 }), formatPrice({ currency: kwd, amount: 1.005 }), formatPrice({ currency: usd, amount: 1.005 }), formatPrice({ currency: usd, amount: 49.5 })]).toEqual(['¥1', '¥1000', 'KD1.500', 'KD1.005', '$1.01', '$49.50']);
  });
});

for (const d of DIALECTS) {
  describe(`prices that fit their currency's minor units, through the app on ${d.name}`, () => {
    let fake: Fake;
    let t: Shop;
    let c: Catalog;
    let jpy: Record<string, any>;
    let kwd: Record<string, any>;
    let priceKey: Record<string, any>;

    beforeAll(async () => {
      fake = await startFake(stripeKit.handle!);
      t = await bootShop(await d.make(), { env: stripeKit.env(fake.url) });
      c = await makeCatalog(t);
      jpy = await t.make('/api/billing/currencies', { slug: 'jpy', symbol: '¥', title: { en: 'Yen' } });
      kwd = await t.make('/api/billing/currencies', { slug: 'kwd', symbol: 'KD', title: { en: 'Kuwaiti dinar' } });
      priceKey = await t.make('/api/ecommerce/attribute-keys', { slug: `price-digits-${c.usd.id.slice(0, 8)}`, type: 'price', field: 'number' });
    });
    afterAll(async () => {
      await t?.close();
      await fake?.close();
    });

    const ATTRIBUTES = '/api/ecommerce/attributes';
    const LINKS = '/api/ecommerce/attributes-to-billing-module-currencies';
    const numberOf = async (id: string) => (await t.call('GET', `${ATTRIBUTES}/${id}`)).body.data.number as number;
    const linksOf = async (attributeId: string) =>
      ((await t.call('GET', `${LINKS}?filters[and][0][column]=attributeId&filters[and][0][method]=eq&filters[and][0][value]=${attributeId}`)).body.data as Record<string, any>[]).map((l) => l.billingModuleCurrencyId);
    /** an attribute with the number, linked to the currencies */
    async function price(number: number, ...currencies: Record<string, any>[]) {
      const a = await t.make(ATTRIBUTES, { number });
      for (const currency of currencies) await t.make(LINKS, { attributeId: a.id, billingModuleCurrencyId: currency.id });
      return a;
    }
    /** a product with one price attribute linked to the currency */
    async function product(slug: string, number: number, currency: Record<string, any>) {
      const p = await t.make('/api/ecommerce/products', { slug: `${slug}-${randomUUID().slice(0, 8)}`, title: { en: slug } });
      const a = await price(number, currency);
      await t.make('/api/ecommerce/attribute-keys-to-attributes', { attributeKeyId: priceKey.id, attributeId: a.id });
      await t.make('/api/ecommerce/products-to-attributes', { productId: p.id, attributeId: a.id });
      return { product: p, attribute: a };
    }
    /** an attribute's number written past the API (no hooks), as data older than the rule would be */
    async function storePast(attributeId: string, number: number) {
      const table = t.database.tables['ecommerce/attribute'];
      await t.database.transaction(async (tx) => tx.update(table).set({ number }).where(eq(table.id, attributeId)));
    }
    const refusal = (field: string, message: string) => ({ status: 400, message, cause: [{ field, rule: 'multipleOf', message }] });
    const answer = (r: { status: number; body: any }) => ({ status: r.status, message: r.body.message, cause: r.body.cause });

    it('an attribute linked to a currency takes no more decimal places than the currency has (number, multipleOf), by PATCH and by bulk', async () => {
      const yen = await price(1, jpy);
      expect(answer(await t.call('PATCH', `${ATTRIBUTES}/${yen.id}`, { data: { number: 0.5 } }))).toEqual(refusal('number', 'number must be a whole amount in JPY (0 decimal places)'));
      expect(await numberOf(yen.id)).toBe(1);
      expect((await t.call('PATCH', `${ATTRIBUTES}/${yen.id}`, { data: { number: 1500 } })).status).toBe(200);

      const dollars = await price(1, c.usd);
      expect(answer(await t.call('PATCH', `${ATTRIBUTES}/${dollars.id}`, { data: { number: 1.005 } }))).toEqual(refusal('number', 'number must have at most 2 decimal places in USD'));
      // 0.29 × 100 is 28.999999999999996 in binary: still two decimal places
      expect((await t.call('PATCH', `${ATTRIBUTES}/${dollars.id}`, { data: { number: 0.29 } })).body.data.number).toBe(0.29);

      const dinars = await price(1, kwd);
      expect((await t.call('PATCH', `${ATTRIBUTES}/${dinars.id}`, { data: { number: 1.005 } })).body.data.number).toBe(1.005);
      expect(answer(await t.call('PATCH', `${ATTRIBUTES}/${dinars.id}`, { data: { number: 0.0005 } }))).toEqual(refusal('number', 'number must have at most 3 decimal places in KWD'));

      // linked to USD and JPY: the stricter currency is named
      const both = await price(12, c.usd, jpy);
      expect(answer(await t.call('PATCH', `${ATTRIBUTES}/${both.id}`, { data: { number: 12.5 } }))).toEqual(refusal('number', 'number must be a whole amount in JPY (0 decimal places)'));

      // a bulk update with one such price writes nothing at all
      const bulk = await t.call('PATCH', `${ATTRIBUTES}/bulk`, { data: [{ id: dollars.id, number: 2.5 }, { id: yen.id, number: 2.5 }] });
      // named within the row's place in the bulk, as validation names it
      expect(answer(bulk)).toEqual({ ...refusal('number', 'number must be a whole amount in JPY (0 decimal places)'), cause: [{ field: 'data[1].number', rule: 'multipleOf', message: 'number must be a whole amount in JPY (0 decimal places)' }] });
      expect([await numberOf(dollars.id), await numberOf(yen.id)]).toEqual([0.29, 1500]);
    });

    it('a link between an attribute and a currency its number is too precise for is refused (billingModuleCurrencyId), made or moved', async () => {
      const half = await t.make(ATTRIBUTES, { number: 0.5 });
      const made = await t.call('POST', LINKS, { data: { attributeId: half.id, billingModuleCurrencyId: jpy.id } });
      expect(answer(made)).toEqual(refusal('billingModuleCurrencyId', `billingModuleCurrencyId: attribute ${half.slug} is a price of 0.5, which must be a whole amount in JPY (0 decimal places)`));
      expect(await linksOf(half.id)).toEqual([]);
      // the same number fits USD and KWD
      const usdLink = await t.make(LINKS, { attributeId: half.id, billingModuleCurrencyId: c.usd.id });
      await t.make(LINKS, { attributeId: half.id, billingModuleCurrencyId: kwd.id });
      // moving the USD link to JPY is refused too, and leaves it where it was
      const moved = await t.call('PATCH', `${LINKS}/${usdLink.id}`, { data: { billingModuleCurrencyId: jpy.id } });
      expect(answer(moved)).toEqual(refusal('billingModuleCurrencyId', `billingModuleCurrencyId: attribute ${half.slug} is a price of 0.5, which must be a whole amount in JPY (0 decimal places)`));
      expect((await linksOf(half.id)).sort()).toEqual([c.usd.id, kwd.id].sort());

      const fils = await t.make(ATTRIBUTES, { number: 0.0005 });
      const bulk = await t.call('POST', `${LINKS}/bulk`, { data: [{ attributeId: fils.id, billingModuleCurrencyId: c.rub.id }] });
      const linkRule = `billingModuleCurrencyId: attribute ${fils.slug} is a price of 0.0005, which must have at most 2 decimal places in RUB`;
      expect(answer(bulk)).toEqual({ ...refusal('billingModuleCurrencyId', linkRule), cause: [{ field: 'data[0].billingModuleCurrencyId', rule: 'multipleOf', message: linkRule }] });
      expect(await linksOf(fils.id)).toEqual([]);
    });

    it('an admin is refused the same way; an attribute linked to no currency is not a price and stays free', async () => {
      const admin = await t.register('digits-admin@example.com');
      const [role] = (await t.call('GET', '/api/rbac/roles?filters[and][0][column]=slug&filters[and][0][method]=eq&filters[and][0][value]=admin')).body.data;
      expect((await t.call('POST', '/api/rbac/subjects-to-roles', { data: { subjectId: admin.id, roleId: role.id } })).status).toBe(201);
      const yen = await price(100, jpy);
      expect(answer(await admin.call('PATCH', `${ATTRIBUTES}/${yen.id}`, { data: { number: 99.99 } }))).toEqual(refusal('number', 'number must be a whole amount in JPY (0 decimal places)'));
      const half = await t.make(ATTRIBUTES, { number: 0.5 });
      expect(answer(await admin.call('POST', LINKS, { data: { attributeId: half.id, billingModuleCurrencyId: jpy.id } })).cause[0].field).toBe('billingModuleCurrencyId');

      const weight = await admin.call('POST', ATTRIBUTES, { data: { number: 0.125 } });
      expect(weight.status).toBe(201);
      expect((await admin.call('PATCH', `${ATTRIBUTES}/${weight.body.data.id}`, { data: { number: 0.0001 } })).body.data.number).toBe(0.0001);
    });

    it('a currency\'s slug cannot change to a code with fewer digits than its linked prices need (slug)', async () => {
      const points = await t.make('/api/billing/currencies', { slug: `pts-${randomUUID().slice(0, 8)}`, title: { en: 'Points' } });
      await price(0.5, points);
      const r = await t.call('PATCH', `/api/billing/currencies/${points.id}`, { data: { slug: 'krw' } });
      expect(answer(r)).toEqual(refusal('slug', 'slug: a linked price (0.5) would not fit KRW: a price must be a whole amount in KRW (0 decimal places)'));
      expect((await t.call('GET', `/api/billing/currencies/${points.id}`)).body.data.slug).toBe(points.slug);
      expect((await t.call('PATCH', `/api/billing/currencies/${points.id}`, { data: { slug: 'bhd' } })).status).toBe(200);
    });

    /** checks a new buyer's cart of `quantity` of the product out in the currency with Stripe; answers what the shop and Stripe said */
    async function buy(productId: string, quantity: number, currency: Record<string, any>) {
      const buyer = await t.register(`digits-${randomUUID().slice(0, 8)}@example.com`);
      const cart = (await buyer.call('POST', shopPath(buyer.id, '/orders'), { data: { productId, quantity } })).body.data;
      const lineTotals = (cart.ordersToProducts[0].totals as { currency: { id: string }; amount: number }[]).find((p) => p.currency.id === currency.id)?.amount;
      const cartTotal = (await buyer.call('GET', shopPath(buyer.id, '/orders/total'))).body.data.find((x: any) => x.billingModuleCurrency.id === currency.id)?.total;
      const attributes = (await buyer.call('GET', `/api/ecommerce/orders/${cart.id}/checkout-attributes/${currency.id}`)).body.data;
      const r = await buyer.call('POST', shopPath(buyer.id, '/orders/checkout'), {
        data: { provider: 'stripe', email: buyer.id + '@example.com', billingModule: { currency: { id: currency.id } }, ecommerceModule: { orders: [{ id: cart.id }] } },
      });
      expect(r.status).toBe(201);
      const invoice = (await t.call('GET', `/api/billing/invoices/${r.body.data.billingModule.invoices[0].id}`)).body.data as Record<string, any>;
      const session = qs.parse(fake.requests.at(-1)!.body) as Record<string, any>;
      const stripeLines = session.line_items.map((l: any) => [l.price_data.currency, l.price_data.unit_amount, l.quantity]);
      const paid = await t.anon('POST', '/api/billing/webhooks/stripe', ...(() => {
        const amount = session.line_items.reduce((n: number, l: any) => n + Number(l.price_data.unit_amount) * Number(l.quantity), 0);
        const e = stripeEvent({ eventId: `evt_digits_${randomUUID()}`, invoiceId: invoice.id, providerId: invoice.providerId, amount, currency: String(currency.slug), email: '' }, 'checkout.session.completed');
        return [e.body, e.headers] as const;
      })());
      return { lineTotal: lineTotals, cartTotal, checkoutTotal: attributes.total, invoice: invoice.amount, stripeLines, webhook: paid.body.data.outcome };
    }

    it('1.005 KWD × 2 (a price KWD has digits for) is 2.01 everywhere: line, cart, invoice, Stripe\'s 1005 fils × 2, and Stripe\'s completion pays it', async () => {
      const { product: tea } = await product('kwd-tea', 1.005, kwd);
      expect(await buy(tea.id, 2, kwd)).toEqual({ lineTotal: 2.01, cartTotal: 2.01, checkoutTotal: 2.01, invoice: 2.01, stripeLines: [['kwd', '1005', '2']], webhook: 'paid' });
    });

    it('a price stored before the rule (¥0.5) is totalled, invoiced and asked of Stripe as the ¥1 a unit it is charged', async () => {
      const { product: sweet, attribute } = await product('jpy-sweet', 1, jpy);
      await storePast(attribute.id, 0.5);
      expect(await numberOf(attribute.id)).toBe(0.5);
      expect(await buy(sweet.id, 3, jpy)).toEqual({ lineTotal: 3, cartTotal: 3, checkoutTotal: 3, invoice: 3, stripeLines: [['jpy', '1', '3']], webhook: 'paid' });
    });

    it('a KWD price stored before the rule (0.0005) is 0.001 a unit, not 0', async () => {
      const { product: grain, attribute } = await product('kwd-grain', 1, kwd);
      await storePast(attribute.id, 0.0005);
      expect(await buy(grain.id, 3, kwd)).toEqual({ lineTotal: 0.003, cartTotal: 0.003, checkoutTotal: 0.003, invoice: 0.003, stripeLines: [['kwd', '1', '3']], webhook: 'paid' });
    });
  });
}
