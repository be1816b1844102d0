import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createHmac } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { DIALECTS } from '../helpers/databases.js';
import { dummyProvider } from '../../plugins/billing/server/providers/dummy.js';
import { amounts, shopForSuite, shopPath, type Catalog, type Shop } from './support.js';

/**
 * Races in checkout and payment (../shared/design/SECURITY.md): on each database, 50 add-to-cart requests
 * at once lose no item, 10 checkouts of the same cart at once make exactly one payment, and the same
 * webhook delivered 5 times at once is applied once.
 */
for (const d of DIALECTS) {
  describe(`checkout races on ${d.name}`, () => {
    let t: Shop;
    let c: Catalog;
    shopForSuite(d, (shop, catalog) => ((t = shop), (c = catalog)));

    const count = async (path: string) => (await t.call('GET', `${path}/count`)).body.data as number;

    it('50 parallel adds, 10 parallel checkouts, 5 parallel deliveries of one webhook: exact totals, one payment, one approval', async () => {
      const m = await t.register(`racer-${d.name}@example.com`);
      // 50 adds: quantities 1..5 of the book and the pen, alternating
      const adds = Array.from({ length: 50 }, (_, i) => ({ productId: i % 2 ? c.pen.id : c.book.id, quantity: (i % 5) + 1 }));
      const added = await Promise.all(adds.map((data) => m.call('POST', shopPath(m.id, '/orders'), { data })));
      expect(added.map((r) => r.status).sort((a, b) => a - b)).toEqual([...Array(49).fill(200), 201]);
      const books = adds.filter((a) => a.productId === c.book.id).reduce((n, a) => n + a.quantity, 0);
      const pens = adds.filter((a) => a.productId === c.pen.id).reduce((n, a) => n + a.quantity, 0);
      const [cart] = (await m.call('GET', shopPath(m.id, '/orders?type=cart'))).body.data;
      expect((await m.call('GET', shopPath(m.id, '/orders'))).body.data).toHaveLength(1);
      expect(cart.ordersToProducts.map((l: { productId: string; quantity: number }) => [l.productId, l.quantity]).sort()).toEqual([[c.book.id, books], [c.pen.id, pens]].sort());
      expect(cart.quantity).toBe(books + pens);
      expect(amounts(cart.totals)).toEqual({ usd: (books * 1250 + pens * 10) / 100, rub: books * 990 + pens * 9 });

      // 10 checkouts of that cart at once: one is made, nine find no cart
      const [invoices, intents] = [await count('/api/billing/invoices'), await count('/api/billing/payment-intents')];
      const body = { data: { provider: 'dummy', email: 'racer@example.com', billingModule: { currency: { id: c.usd.id } }, ecommerceModule: { orders: [{ id: cart.id }] } } };
      const checkouts = await Promise.all(Array.from({ length: 10 }, () => m.call('POST', shopPath(m.id, '/orders/checkout'), body)));
      expect(checkouts.map((r) => r.status).sort((a, b) => a - b)).toEqual([201, ...Array(9).fill(409)]);
      expect(await count('/api/billing/invoices')).toBe(invoices + 1);
      expect(await count('/api/billing/payment-intents')).toBe(intents + 1);
      const invoice = checkouts.find((r) => r.status === 201)!.body.data.billingModule.invoices[0];
      expect(invoice.amount).toBe(cart.totals.find((p: { currency: { slug: string } }) => p.currency.slug === 'usd').amount);

      // the same webhook 5 times at once: applied once
      const dummy = dummyProvider(createHmac('sha256', t.config.rbacJwtSecret).update('billing-dummy-provider').digest('hex'));
      const event = JSON.stringify({ id: `evt_race_${d.name}`, type: 'payment.succeeded', invoiceId: invoice.id, amount: Math.round(invoice.amount * 100), currency: 'usd' });
      const files = readdirSync(t.files).length;
      const deliveries = await Promise.all(
        Array.from({ length: 5 }, () => t.anon('POST', '/api/billing/webhooks/dummy', event, { 'content-type': 'application/json', 'x-dummy-signature': dummy.sign(event) })),
      );
      expect(deliveries.map((r) => r.status)).toEqual(Array(5).fill(200));
      expect(deliveries.map((r) => r.body.data.duplicate).sort()).toEqual([false, true, true, true, true]);
      const events = (await t.call('GET', `/api/billing/webhook-events?filters[and][0][column]=invoiceId&filters[and][0][method]=eq&filters[and][0][value]=${invoice.id}`)).body.data;
      expect(events).toHaveLength(1);
      expect((await t.call('GET', `/api/billing/invoices/${invoice.id}`)).body.data.status).toBe('paid');
      const order = (await t.call('GET', `/api/ecommerce/orders/${cart.id}`)).body.data;
      expect(order).toMatchObject({ status: 'approving', type: 'history' });
      // one receipt, one file
      expect(readdirSync(t.files).length).toBe(files + 1);
      expect(readdirSync(t.files)).toContain(order.receipt.slice('/files/'.length));
    });
  });
}
