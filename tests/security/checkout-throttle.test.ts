import { describe, it, expect } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { shopPath, shopForSuite, type Catalog, type Shop } from '../ecommerce/support.js';
import { CHECKOUT_LIMIT } from '../../plugins/ecommerce/server/routes.js';

/**
 * Every checkout makes an invoice and mails 'order-status-changed' to the invoice email the buyer typed (any address,
 * never verified) and to every admin; with a real provider it also opens a payment at the provider. A signed-in member
 * looping the one-step checkout sent the shop's mail to any address and to the admins without bound. Checkouts are
 * limited per subject, before anything is written; the system and admins are not.
 */
for (const d of DIALECTS) {
  describe(`checkouts are throttled per subject on ${d.name}`, () => {
    let t: Shop;
    let c: Catalog;
    shopForSuite(d, (shop, catalog) => ((t = shop), (c = catalog)));

    const rows = async (path: string) => (await t.call('GET', `${path}?limit=1000`)).body.data as Record<string, unknown>[];

    it('a member looping the one-step checkout to a stranger\'s address is a 429 once its budget is spent, and writes and mails nothing more', async () => {
      const m = await t.register(`loop-${d.name}@example.com`);
      const body = { data: { provider: 'dummy', email: 'stranger@elsewhere.example', billingModule: { currency: { id: c.usd.id } } } };
      const statuses: number[] = [];
      for (let i = 0; i < CHECKOUT_LIMIT.points; i++) statuses.push((await m.call('POST', shopPath(m.id, `/products/${c.pen.id}/checkout`), body)).status);
      expect(statuses.every((s) => s === 201)).toBe(true);
      await new Promise((r) => setTimeout(r, 300));
      const invoices = (await rows('/api/billing/invoices')).length;
      const mails = (await rows('/api/notification/notifications')).filter((n) => n.recipient === 'stranger@elsewhere.example').length;

      // every checkout route shares the budget
      const cart = await m.call('POST', shopPath(m.id, '/orders'), { data: { productId: c.pen.id, quantity: 1 } });
      for (const [path, data] of [
        [`/products/${c.pen.id}/checkout`, body.data],
        [`/orders/${cart.body.data.id}/checkout`, body.data],
        ['/orders/checkout', { ...body.data, ecommerceModule: { orders: [{ id: cart.body.data.id }] } }],
      ] as const) {
        const r = await m.call('POST', shopPath(m.id, path), { data });
        expect(r.status, path).toBe(429);
        expect(r.body.message).toMatch(/^Too many attempts: try again in \d+ seconds$/);
        expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
      }
      await new Promise((r) => setTimeout(r, 300));
      expect((await rows('/api/billing/invoices')).length).toBe(invoices);
      expect((await rows('/api/notification/notifications')).filter((n) => n.recipient === 'stranger@elsewhere.example').length).toBe(mails);
      // the cart is still a cart
      expect((await m.call('GET', shopPath(m.id, '/orders'))).body.data.map((o: { id: string }) => o.id)).toContain(cart.body.data.id);

      // another member has a budget of its own
      const other = await t.register(`other-${d.name}@example.com`);
      expect((await other.call('POST', shopPath(other.id, `/products/${c.pen.id}/checkout`), body)).status).toBe(201);
      // the system acts for any subject, unthrottled
      expect((await t.call('POST', shopPath(m.id, `/products/${c.pen.id}/checkout`), body)).status).toBe(201);
    }, 120_000);
  });
}
