import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { amounts, shopForSuite, shopPath, type Catalog, type Shop } from './support.js';

const NO_PRICE = "Product doesn't have price attributes connected to billing module currency.";
const ORDERS = '/api/ecommerce/orders';

/** the cart calls of spec §7 and their errors (§5, §8), as a member, another member, a visitor and the system */
for (const d of DIALECTS) {
  describe(`cart on ${d.name}`, () => {
    let t: Shop;
    let c: Catalog;
    shopForSuite(d, (shop, catalog) => ((t = shop), (c = catalog)));

    const count = async (path: string) => (await t.call('GET', `${path}/count`)).body.data as number;

    it('POST …/orders makes the cart (201), then adds to it (200); totals per currency are price × quantity', async () => {
      const m = await t.register('cart-totals@example.com');
      const first = await m.call('POST', shopPath(m.id, '/orders'), { data: { productId: c.book.id, quantity: 2 } });
      expect(first.status).toBe(201);
      expect(first.body.data).toMatchObject({ status: 'new', type: 'cart', quantity: 2 });
      const again = await m.call('POST', shopPath(m.id, '/orders'), { data: { productId: c.pen.id, quantity: 3 } });
      expect(again.status).toBe(200);
      expect(again.body.data.id).toBe(first.body.data.id);
      const more = await m.call('POST', shopPath(m.id, '/orders'), { data: { productId: c.book.id } });
      expect(more.body.data.ordersToProducts.map((l: { productId: string; quantity: number }) => [l.productId, l.quantity])).toEqual([[c.book.id, 3], [c.pen.id, 3]]);
      // 3 × 12.5 + 3 × 0.1 = 37.8 ; 3 × 990 + 3 × 9 = 2997
      expect(amounts(more.body.data.totals)).toEqual({ usd: 37.8, rub: 2997 });
      const cartTotals = (await m.call('GET', shopPath(m.id, '/orders/total'))).body.data as { billingModuleCurrency: { slug: string }; total: number; orders: { id: string; total: number }[] }[];
      expect(amounts(cartTotals.map((x) => ({ currency: x.billingModuleCurrency, amount: x.total })))).toEqual({ usd: 37.8, rub: 2997 });
      // the reference client's shape: one entry per currency, with the cart's orders and each order's total
      expect(cartTotals[0].orders).toHaveLength(1);
      expect(cartTotals.map((x) => x.orders[0].total).sort()).toEqual([37.8, 2997].sort());
      expect((await m.call('GET', shopPath(m.id, '/orders/quantity'))).body.data).toBe(6);
      // one line per product, one cart per subject, the cart is owned through the model's relation
      const links = await t.call('GET', `/api/rbac/subjects-to-ecommerce-module-orders?filters[and][0][column]=subjectId&filters[and][0][method]=eq&filters[and][0][value]=${m.id}`);
      expect(links.body.data.map((l: { ecommerceModuleOrderId: string }) => l.ecommerceModuleOrderId)).toEqual([first.body.data.id]);
      expect((await m.call('GET', shopPath(m.id, '/orders'))).body.data[0].ordersToProducts).toHaveLength(2);
    });

    it('a currency counts in the totals only when every product has a price in it', async () => {
      const m = await t.register('cart-partial@example.com');
      await m.call('POST', shopPath(m.id, '/orders'), { data: { productId: c.book.id } });
      const r = await m.call('POST', shopPath(m.id, '/orders'), { data: { productId: c.poster.id, quantity: 2 } });
      expect(amounts(r.body.data.totals)).toEqual({ usd: 52.5 });
    });

    it('refuses bad bodies with the spec messages, naming the field, and writes nothing', async () => {
      const m = await t.register('cart-bad@example.com');
      const add = (data: unknown) => m.call('POST', shopPath(m.id, '/orders'), { data });
      const before = [await count(ORDERS), await count('/api/ecommerce/orders-to-products')];
      const missing = await add({ quantity: 1 });
      expect(missing.status).toBe(400);
      expect(missing.body).toMatchObject({ message: 'productId is required', cause: [{ field: 'productId', rule: 'required' }] });
      expect((await add({ productId: '' })).body.message).toBe('productId is required');
      for (const quantity of [0, -1, 1.5, '2', null]) {
        const r = await add({ productId: c.book.id, quantity });
        expect(r.status, String(quantity)).toBe(400);
        expect(r.body.cause[0]).toMatchObject({ field: 'quantity', rule: 'positive-integer' });
        expect(r.body.message).toBe('quantity must be a positive integer');
      }
      const unknown = await add({ productId: c.book.id, price: 0 });
      expect(unknown.status).toBe(400);
      expect(unknown.body.cause[0]).toMatchObject({ field: 'price', rule: 'unknown' });
      // an id is said to be an id, not a regular expression
      const notId = await add({ productId: 'not-a-uuid' });
      expect(notId.body.cause[0]).toMatchObject({ field: 'productId', rule: 'pattern', message: 'productId must be a UUID' });
      expect(notId.body.message).toBe('Validation failed: productId must be a UUID');
      expect((await add({ productId: '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
      const unpriced = await add({ productId: c.free.id });
      expect(unpriced.status).toBe(400);
      expect(unpriced.body.message).toBe(NO_PRICE);
      const notSold = await add({ productId: c.pen.id, storeId: c.store.id });
      expect(notSold.status).toBe(400);
      expect(notSold.body.cause[0]).toMatchObject({ field: 'storeId' });
      expect((await m.call('POST', shopPath(m.id, '/orders'), 'not json', { 'content-type': 'application/json' })).status).toBe(400);
      expect((await m.call('POST', shopPath(m.id, '/orders'), {})).body.message).toBe('Data is undefined');
      expect([await count(ORDERS), await count('/api/ecommerce/orders-to-products')]).toEqual(before);
      expect((await add({ productId: c.book.id, storeId: c.store.id })).status).toBe(201);
    });

    it('a line holds at most 10 000: an add that would take it above is refused and leaves the line as it was', async () => {
      const m = await t.register('cart-cap@example.com');
      const add = (productId: string, quantity: number) => m.call('POST', shopPath(m.id, '/orders'), { data: { productId, quantity } });
      const lines = async () => Object.fromEntries(((await m.call('GET', shopPath(m.id, '/orders'))).body.data[0].ordersToProducts as { productId: string; quantity: number }[]).map((l) => [l.productId, l.quantity]));
      const single = await add(c.book.id, 10_001);
      expect(single.status).toBe(400);
      expect(single.body).toMatchObject({ message: 'quantity must be at most 10000', cause: [{ field: 'quantity', rule: 'maximum' }] });
      expect((await add(c.book.id, 9999)).status).toBe(201);
      expect((await add(c.pen.id, 2)).status).toBe(200);
      for (let i = 0; i < 3; i++) {
        const r = await add(c.book.id, 9999);
        expect(r.status).toBe(400);
        expect(r.body.message).toMatch(/^quantity must be at most 10000: the cart has 9999 of this product already, 1 more can be added$/);
        expect(r.body.cause).toEqual([{ field: 'quantity', rule: 'maximum', message: r.body.message }]);
      }
      expect(await lines()).toEqual({ [c.book.id]: 9999, [c.pen.id]: 2 });
      // up to the cap exactly is fine; one more is refused, and so is any add to a full line
      expect((await add(c.book.id, 1)).body.data.quantity).toBe(10_002); // the order's items: 10 000 books and 2 pens
      const full = await add(c.book.id, 1);
      expect(full.status).toBe(400);
      expect(full.body.cause[0]).toMatchObject({ field: 'quantity', rule: 'maximum', message: expect.stringContaining('0 more can be added') });
      expect(await lines()).toEqual({ [c.book.id]: 10_000, [c.pen.id]: 2 });
    });

    it('PATCH sets quantities, DELETE takes items out or removes the cart', async () => {
      const m = await t.register('cart-edit@example.com');
      const cart = (await m.call('POST', shopPath(m.id, '/orders'), { data: { productId: c.book.id, quantity: 4 } })).body.data;
      const withPen = (await m.call('POST', shopPath(m.id, '/orders'), { data: { productId: c.pen.id, quantity: 1 } })).body.data;
      const [bookLine, penLine] = withPen.ordersToProducts.map((l: { id: string }) => l.id);
      const patched = await m.call('PATCH', shopPath(m.id, `/orders/${cart.id}`), { data: { ordersToProducts: [{ id: bookLine, quantity: 1 }, { id: penLine, quantity: 10 }] } });
      expect(patched.status).toBe(200);
      expect(amounts(patched.body.data.totals)).toEqual({ usd: 13.5, rub: 1080 });
      for (const quantity of [0, 2.5]) {
        const r = await m.call('PATCH', shopPath(m.id, `/orders/${cart.id}`), { data: { ordersToProducts: [{ id: bookLine, quantity }] } });
        expect(r.status).toBe(400);
        expect(r.body.cause[0]).toMatchObject({ field: 'ordersToProducts[0].quantity', rule: 'positive-integer' });
      }
      expect((await m.call('PATCH', shopPath(m.id, `/orders/${cart.id}`), { data: { ordersToProducts: [{ quantity: 2 }] } })).body.message).toBe('id is required');
      const strange = await m.call('PATCH', shopPath(m.id, `/orders/${cart.id}`), { data: { ordersToProducts: [{ id: '00000000-0000-4000-8000-000000000000', quantity: 2 }] } });
      expect(strange.status).toBe(400);
      expect(strange.body.cause[0]).toMatchObject({ field: 'ordersToProducts[0].id', rule: 'reference' });
      // one line named twice in a change: which quantity was meant is not known
      const twice = await m.call('PATCH', shopPath(m.id, `/orders/${cart.id}`), { data: { ordersToProducts: [{ id: bookLine, quantity: 2 }, { id: penLine, quantity: 3 }, { id: bookLine.toUpperCase(), quantity: 7 }] } });
      expect([twice.status, twice.body.cause]).toEqual([400, [{ field: 'ordersToProducts[2].id', rule: 'unique', message: `line ${bookLine} is named more than once` }]]);
      // the schema's own checks name array items the same way as the spec's (ordersToProducts[i].field, not .i.)
      const extra = await m.call('PATCH', shopPath(m.id, `/orders/${cart.id}`), { data: { ordersToProducts: [{ id: bookLine, quantity: 2, price: 0 }] } });
      expect(extra.body.cause).toEqual([expect.objectContaining({ field: 'ordersToProducts[0].price', rule: 'unknown' })]);

      const less = await m.call('DELETE', shopPath(m.id, `/orders/${cart.id}`), { data: { ordersToProducts: [{ id: penLine, quantity: 4 }] } });
      expect(less.body.data.ordersToProducts.map((l: { quantity: number }) => l.quantity)).toEqual([1, 6]);
      const gone = await m.call('DELETE', shopPath(m.id, `/orders/${cart.id}`), { data: { ordersToProducts: [{ id: bookLine }] } });
      expect(gone.body.data.ordersToProducts.map((l: { id: string }) => l.id)).toEqual([penLine]);
      const whole = await m.call('DELETE', shopPath(m.id, `/orders/${cart.id}`));
      expect(whole.body.data).toEqual({ id: cart.id, deleted: true });
      expect((await t.call('GET', `${ORDERS}/${cart.id}`)).status).toBe(404);
      expect((await m.call('GET', shopPath(m.id, '/orders/quantity'))).body.data).toBe(0);
    });

    it("another subject's cart answers 403 and changes nothing; a visitor gets 401", async () => {
      const owner = await t.register('cart-owner@example.com');
      const other = await t.register('cart-other@example.com');
      const cart = (await owner.call('POST', shopPath(owner.id, '/orders'), { data: { productId: c.book.id, quantity: 2 } })).body.data;
      const line = cart.ordersToProducts[0].id;
      const snapshot = async () => JSON.stringify((await t.call('GET', shopPath(owner.id, '/orders?type=all'))).body.data);
      const before = await snapshot();
      const orders = await count(ORDERS);
      const badType = await owner.call('GET', shopPath(owner.id, '/orders?type=paid'));
      expect(badType.status).toBe(400);
      expect(badType.body.cause).toEqual([{ field: 'type', rule: 'enum', message: 'type must be one of: cart, history, all' }]);

      const attempts: [string, string, unknown?][] = [
        ['POST', shopPath(owner.id, '/orders'), { data: { productId: c.pen.id } }],
        ['GET', shopPath(owner.id, '/orders')],
        ['GET', shopPath(owner.id, '/orders/total')],
        ['PATCH', shopPath(owner.id, `/orders/${cart.id}`), { data: { ordersToProducts: [{ id: line, quantity: 9 }] } }],
        ['DELETE', shopPath(owner.id, `/orders/${cart.id}`)],
        // its own path, someone else's order
        ['PATCH', shopPath(other.id, `/orders/${cart.id}`), { data: { ordersToProducts: [{ id: line, quantity: 9 }] } }],
        ['DELETE', shopPath(other.id, `/orders/${cart.id}`), { data: { ordersToProducts: [{ id: line }] } }],
        ['DELETE', shopPath(other.id, `/orders/${cart.id}`)],
        ['GET', `${ORDERS}/${cart.id}/total`],
        ['GET', `${ORDERS}/${cart.id}/quantity`],
        ['GET', `${ORDERS}/${cart.id}/checkout-attributes/${c.usd.id}`],
        ['PATCH', `${ORDERS}/${cart.id}/orders-to-products/${line}`, { data: { quantity: 9 } }],
        ['GET', `/api/ecommerce/orders-to-products/${line}/total`],
      ];
      for (const [method, path, body] of attempts) {
        const r = await other.call(method, path, body);
        expect(r.status, `${method} ${path}`).toBe(403);
        expect(JSON.stringify(r.body)).not.toContain(c.book.id);
      }
      for (const [method, path, body] of attempts.slice(0, 5)) expect((await t.anon(method, path, body)).status, `${method} ${path}`).toBe(401);
      expect(await snapshot()).toBe(before);
      expect(await count(ORDERS)).toBe(orders);
      // the system (and an admin) may act for any subject
      expect((await t.call('POST', shopPath(owner.id, '/orders'), { data: { productId: c.pen.id } })).status).toBe(200);
      expect((await t.call('GET', shopPath('00000000-0000-4000-8000-000000000000', '/orders'))).status).toBe(404);
      expect((await other.call('GET', shopPath('not-an-id', '/orders'))).body.cause[0]).toMatchObject({ field: 'id', rule: 'format' });
    });

    it('the order calls of /api/ecommerce: totals, quantity, checkout attributes, one line, line totals', async () => {
      const m = await t.register('order-calls@example.com');
      const cart = (await m.call('POST', shopPath(m.id, '/orders'), { data: { productId: c.book.id, quantity: 2 } })).body.data;
      await m.call('POST', shopPath(m.id, '/orders'), { data: { productId: c.poster.id } });
      const orderTotal = (await m.call('GET', `${ORDERS}/${cart.id}/total`)).body.data;
      expect(amounts(orderTotal.totals)).toEqual({ usd: 45 });
      expect(orderTotal).toMatchObject({ total: 45, billingModuleCurrency: { slug: 'usd' } });
      expect((await m.call('GET', `${ORDERS}/${cart.id}/quantity`)).body.data).toBe(3);
      const attrs = await m.call('GET', `${ORDERS}/${cart.id}/checkout-attributes/${c.usd.id}`);
      expect(attrs.status).toBe(200);
      expect(attrs.body.data.total).toBe(45);
      expect(attrs.body.data).toMatchObject({ amount: 45, type: expect.stringMatching(/^(one_off|subscription)$/) });
      expect(attrs.body.data.billingModuleCurrency.slug).toBe('usd');
      expect(attrs.body.data.ordersToProducts.map((l: { price: number; total: number }) => [l.price, l.total])).toEqual([[12.5, 25], [20, 20]]);
      const rub = await m.call('GET', `${ORDERS}/${cart.id}/checkout-attributes/${c.rub.id}`);
      expect(rub.status).toBe(400);
      expect(rub.body.message).toBe(NO_PRICE);
      expect((await m.call('GET', `${ORDERS}/${cart.id}/checkout-attributes/00000000-0000-4000-8000-000000000000`)).status).toBe(404);

      const line = cart.ordersToProducts[0].id;
      const patched = await m.call('PATCH', `${ORDERS}/${cart.id}/orders-to-products/${line}`, { data: { quantity: 5 } });
      expect(patched.status).toBe(200);
      expect(amounts(patched.body.data.totals)).toEqual({ usd: 82.5 });
      expect((await m.call('PATCH', `${ORDERS}/${cart.id}/orders-to-products/${line}`, { data: { quantity: -2 } })).body.cause[0]).toMatchObject({ field: 'quantity', rule: 'positive-integer' });
      // a line the path names that is not this order's is not found
      const unknownLine = await m.call('PATCH', `${ORDERS}/${cart.id}/orders-to-products/00000000-0000-4000-8000-000000000000`, { data: { quantity: 2 } });
      expect([unknownLine.status, unknownLine.body.message]).toEqual([404, `No line 00000000-0000-4000-8000-000000000000 in order ${cart.id}`]);
      expect(amounts((await m.call('GET', `/api/ecommerce/orders-to-products/${line}/total`)).body.data)).toEqual({ usd: 62.5, rub: 4950 });
      expect((await m.call('GET', `${ORDERS}/not-a-uuid/total`)).status).toBe(400);
      expect((await m.call('GET', `${ORDERS}/00000000-0000-4000-8000-000000000000/total`)).status).toBe(404);
      expect((await t.anon('GET', `${ORDERS}/${cart.id}/total`)).status).toBe(401);
    });

    it('clear-old-orders: admins only; removes carts untouched for the given days, never checked-out orders', async () => {
      const m = await t.register('old-carts@example.com');
      const cart = (await m.call('POST', shopPath(m.id, '/orders'), { data: { productId: c.book.id } })).body.data;
      const history = (await t.make(ORDERS, { type: 'history', status: 'delivered' })).id;
      expect((await m.call('POST', `${ORDERS}/clear-old-orders`)).status).toBe(403);
      expect((await t.anon('POST', `${ORDERS}/clear-old-orders`)).status).toBe(401);
      expect((await t.call('POST', `${ORDERS}/clear-old-orders`, { data: { olderThanDays: -1 } })).body.cause[0]).toMatchObject({ field: 'olderThanDays' });
      expect((await t.call('POST', `${ORDERS}/clear-old-orders`)).body.data).toEqual({ ok: true, deleted: 0 });
      expect((await t.call('GET', `${ORDERS}/${cart.id}`)).status).toBe(200);
      const cleared = await t.call('POST', `${ORDERS}/clear-old-orders`, { data: { olderThanDays: 0 } });
      expect(cleared.body.data.deleted).toBeGreaterThanOrEqual(1);
      expect((await t.call('GET', `${ORDERS}/${cart.id}`)).status).toBe(404);
      expect((await t.call('GET', `${ORDERS}/${history}`)).status).toBe(200);
    });
  });
}
