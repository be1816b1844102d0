import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createHmac } from 'node:crypto';
import { DIALECTS } from '../helpers/databases.js';
import { dummyProvider } from '../../plugins/billing/server/providers/dummy.js';
import { amounts, shopForSuite, shopPath, type Catalog, type Shop } from './support.js';

const ORDERS = '/api/ecommerce/orders';

/**
 * What a checked-out order keeps (found by a black-box probe of the shop, 2026-11-24): the prices it was invoiced
 * at when a price changes or goes, its lines when a product is deleted, and its invoice's fate when it is canceled;
 * and the one-step checkout's store, by the same rule as an add to the cart.
 */
for (const d of DIALECTS) {
  describe(`a checked-out order on ${d.name}`, () => {
    let t: Shop;
    let c: Catalog;
    shopForSuite(d, (shop, catalog) => ((t = shop), (c = catalog)));

    const rows = async (path: string, column: string, value: string) =>
      (await t.call('GET', `${path}?filters[and][0][column]=${column}&filters[and][0][method]=eq&filters[and][0][value]=${value}`)).body.data as Record<string, any>[];
    /** the price attributes of a product (its unit prices in every currency) */
    const priceAttributes = async (productId: string) => Promise.all((await rows('/api/ecommerce/products-to-attributes', 'productId', productId)).map(async (l) => (await t.call('GET', `/api/ecommerce/attributes/${l.attributeId}`)).body.data));

    it('keeps the prices it was invoiced at when a price changes, and when it is removed', async () => {
      const m = await t.register('kept-prices@example.com');
      const book = await t.make('/api/ecommerce/products', { slug: 'kept-book', title: { en: 'Kept book' } });
      const attribute = await t.make('/api/ecommerce/attributes', { number: 25 });
      const key = (await rows('/api/ecommerce/attribute-keys', 'type', 'price'))[0];
      await t.make('/api/ecommerce/attribute-keys-to-attributes', { attributeKeyId: key.id, attributeId: attribute.id });
      await t.make('/api/ecommerce/attributes-to-billing-module-currencies', { attributeId: attribute.id, billingModuleCurrencyId: c.usd.id });
      await t.make('/api/ecommerce/products-to-attributes', { productId: book.id, attributeId: attribute.id });
      const cart = (await m.call('POST', shopPath(m.id, '/orders'), { data: { productId: book.id, quantity: 2 } })).body.data;
      const checkout = await m.call('POST', shopPath(m.id, `/orders/${cart.id}/checkout`), { data: { email: 'kept-prices@example.com' } });
      expect(checkout.status).toBe(201);
      expect(checkout.body.data.billingModule.invoices[0].amount).toBe(50);
      const line = checkout.body.data.ecommerceModule.orders[0].ordersToProducts[0];

      // the price goes up: the order, its line and its total stay at 25 each; a new cart pays today's price
      expect((await t.call('PATCH', `/api/ecommerce/attributes/${attribute.id}`, { data: { number: 59 } })).status).toBe(200);
      const invoiced = async () => {
        const total = (await m.call('GET', `${ORDERS}/${cart.id}/total`)).body.data;
        const [history] = (await m.call('GET', shopPath(m.id, '/orders?type=history'))).body.data;
        const lineTotal = (await m.call('GET', `/api/ecommerce/orders-to-products/${line.id}/total`)).body.data;
        return { total: total.total, unit: amounts(history.ordersToProducts[0].prices), line: amounts(lineTotal), totals: amounts(history.totals) };
      };
      expect(await invoiced()).toEqual({ total: 50, unit: { usd: 25 }, line: { usd: 50 }, totals: { usd: 50 } });
      const next = (await m.call('POST', shopPath(m.id, '/orders'), { data: { productId: book.id, quantity: 1 } })).body.data;
      expect(amounts((await m.call('GET', `${ORDERS}/${next.id}/total`)).body.data.totals)).toEqual({ usd: 59 });

      // the price is removed altogether: the order still knows what it costs
      expect((await t.call('DELETE', `/api/ecommerce/attributes/${attribute.id}`)).status).toBe(200);
      expect(await invoiced()).toEqual({ total: 50, unit: { usd: 25 }, line: { usd: 50 }, totals: { usd: 50 } });
      // the kept prices are the system's and admins' to write, not the buyer's
      const own = await m.call('PATCH', `/api/ecommerce/orders-to-products/${line.id}`, { data: { prices: [] } });
      expect(own.status).toBe(403);
    });

    it('a product in a checked-out order cannot be deleted (409); in a cart only, it can, and the line goes', async () => {
      const m = await t.register('kept-lines@example.com');
      const sold = await t.make('/api/ecommerce/products', { slug: 'kept-sold', title: { en: 'Sold' } });
      const carted = await t.make('/api/ecommerce/products', { slug: 'kept-carted', title: { en: 'Carted' } });
      for (const p of [sold, carted]) {
        for (const link of await rows('/api/ecommerce/products-to-attributes', 'productId', c.pen.id)) await t.make('/api/ecommerce/products-to-attributes', { productId: p.id, attributeId: link.attributeId });
      }
      const order = (await m.call('POST', shopPath(m.id, '/orders'), { data: { productId: sold.id, quantity: 1 } })).body.data;
      expect((await m.call('POST', shopPath(m.id, `/orders/${order.id}/checkout`), { data: { email: 'kept-lines@example.com' } })).status).toBe(201);
      const cart = (await m.call('POST', shopPath(m.id, '/orders'), { data: { productId: carted.id, quantity: 1 } })).body.data;

      const refused = await t.call('DELETE', `/api/ecommerce/products/${sold.id}`);
      expect(refused.status).toBe(409);
      expect(refused.body.message).toBe('Product kept-sold is in 1 checked-out order, which keep their lines: it cannot be deleted');
      expect(refused.body.cause).toEqual([{ field: 'id', rule: 'in-use', message: refused.body.message }]);
      expect((await t.call('GET', `/api/ecommerce/products/${sold.id}`)).status).toBe(200);
      const [history] = (await m.call('GET', shopPath(m.id, '/orders?type=history'))).body.data;
      expect(history.ordersToProducts.map((l: { productId: string }) => l.productId)).toEqual([sold.id]);

      expect((await t.call('DELETE', `/api/ecommerce/products/${carted.id}`)).status).toBe(200);
      expect((await m.call('GET', `${ORDERS}/${cart.id}/quantity`)).body.data).toBe(0);
    });

    it('canceling an order cancels its open invoice and payment intent; a payment reported later is not applied', async () => {
      const m = await t.register('kept-cancel@example.com');
      const cart = (await m.call('POST', shopPath(m.id, '/orders'), { data: { productId: c.book.id, quantity: 1 } })).body.data;
      const checkout = (await m.call('POST', shopPath(m.id, `/orders/${cart.id}/checkout`), { data: { email: 'kept-cancel@example.com' } })).body.data;
      const [invoice] = checkout.billingModule.invoices;
      const [intent] = checkout.billingModule.paymentIntents;
      expect((await t.call('PATCH', `${ORDERS}/${cart.id}`, { data: { status: 'canceled' } })).status).toBe(200);
      expect((await t.call('GET', `/api/billing/invoices/${invoice.id}`)).body.data.status).toBe('canceled');
      expect((await t.call('GET', `/api/billing/payment-intents/${intent.id}`)).body.data.status).toBe('canceled');

      const secret = createHmac('sha256', t.config.rbacJwtSecret).update('billing-dummy-provider').digest('hex');
      const paid = JSON.stringify({ id: 'evt_after_cancel', type: 'payment.succeeded', invoiceId: invoice.id, amount: 1250, currency: 'usd' });
      const r = await t.anon('POST', '/api/billing/webhooks/dummy', paid, { 'content-type': 'application/json', 'x-dummy-signature': dummyProvider(secret).sign(paid) });
      expect(r.body.data).toMatchObject({ received: true, outcome: 'not-open' });
      expect((await t.call('GET', `/api/billing/invoices/${invoice.id}`)).body.data.status).toBe('canceled');
      expect((await t.call('GET', `${ORDERS}/${cart.id}`)).body.data.status).toBe('canceled');
      // the event is kept, so the payment can be found and refunded
      expect(await rows('/api/billing/webhook-events', 'eventId', 'evt_after_cancel')).toHaveLength(1);
    });

    it('a one-step checkout takes its store by the add-to-cart rule: it must exist and sell the product, and the order is linked to it', async () => {
      const m = await t.register('kept-store@example.com');
      const step = (productId: string, storeId?: string) => m.call('POST', shopPath(m.id, `/products/${productId}/checkout`), { data: { email: 'kept-store@example.com', ...(storeId && { storeId }) } });
      const none = await step(c.book.id, '00000000-0000-4000-8000-000000000000');
      expect([none.status, none.body.cause]).toEqual([400, [{ field: 'storeId', rule: 'reference', message: 'no ecommerce/store with id 00000000-0000-4000-8000-000000000000' }]]);
      const other = await t.make('/api/ecommerce/stores', { slug: 'kept-other-store' });
      const notSold = await step(c.book.id, other.id);
      expect([notSold.status, notSold.body.cause]).toEqual([400, [{ field: 'storeId', rule: 'store', message: 'this store does not sell the product' }]]);
      // nothing half-made by the refusals
      expect((await m.call('GET', shopPath(m.id, '/orders?type=history'))).body.data).toEqual([]);

      for (const storeId of [c.store.id, undefined]) {
        const ok = await step(c.book.id, storeId);
        expect(ok.status).toBe(201);
        const orderId = ok.body.data.ecommerceModule.orders[0].id;
        // named, or the one store that sells it
        expect((await rows('/api/ecommerce/stores-to-orders', 'orderId', orderId)).map((l) => l.storeId)).toEqual([c.store.id]);
      }
    });
  });
}
