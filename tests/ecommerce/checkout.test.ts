import { describe, it, expect, beforeAll, afterAll, vi } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DIALECTS } from '../helpers/databases.js';
import { ADMIN_EMAIL } from '../helpers/accounts.js';
import { dummyProvider } from '../../plugins/billing/server/providers/dummy.js';
import { amounts, shopForSuite, shopPath, type Catalog, type Shop } from './support.js';

const NO_PRICE = "Product doesn't have price attributes connected to billing module currency.";
const ORDERS = '/api/ecommerce/orders';
const eventually = <T>(fn: () => Promise<T> | T) => vi.waitFor(fn, { timeout: 20_000, interval: 50 });

/** a PNG's width and height, from its IHDR chunk */
const pngSize = (bytes: Buffer) => ({ signature: bytes.subarray(1, 4).toString(), width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) });

/** checkout through the dummy provider end to end, the checkout errors of spec §5, webhooks, receipts and mail */
for (const d of DIALECTS) {
  describe(`checkout on ${d.name}`, () => {
    let t: Shop;
    let c: Catalog;
    shopForSuite(d, (shop, catalog) => ((t = shop), (c = catalog)));

    const count = async (path: string) => (await t.call('GET', `${path}/count`)).body.data as number;
    const rows = async (path: string, column: string, value: string) => (await t.call('GET', `${path}?filters[and][0][column]=${column}&filters[and][0][method]=eq&filters[and][0][value]=${value}`)).body.data as Record<string, any>[];
    const mailsTo = (to: string) => rows('/api/notification/notifications', 'recipient', to);
    const invoiceOf = (paymentUrl: string) => paymentUrl.split('/')[4].split('?')[0];

    async function cartOf(m: Awaited<ReturnType<Shop['register']>>, items: [string, number][]) {
      let order: any;
      for (const [productId, quantity] of items) order = (await m.call('POST', shopPath(m.id, '/orders'), { data: { productId, quantity } })).body.data;
      return order;
    }

    it('dummy: checkout → payment page → confirm → signed webhook → approving, receipt 1500 × 1500, mails', async () => {
      const m = await t.register('buyer@example.com', undefined, { verified: true });
      const cart = await cartOf(m, [[c.book.id, 2], [c.pen.id, 3]]);
      const r = await m.call('POST', shopPath(m.id, '/orders/checkout'), {
        data: { provider: 'dummy', email: 'Buyer@Example.com', comment: 'Gift wrap, please', billingModule: { currency: { id: c.rub.id } }, ecommerceModule: { orders: [{ id: cart.id }] } },
      });
      expect(r.status).toBe(201);
      const invoice = r.body.data.billingModule.invoices[0];
      expect(invoice).toMatchObject({ status: 'open', provider: 'dummy', amount: 2007, email: 'Buyer@Example.com' });
      expect(invoice.paymentUrl).toMatch(/^\/billing\/dummy\/checkout\/[0-9a-f-]{36}\?token=/);
      expect(r.body.data.ecommerceModule.orders[0]).toMatchObject({ id: cart.id, status: 'paying', type: 'history', comment: 'Gift wrap, please', currency: { id: c.rub.id } });
      // the cart is gone: the next add makes a new one
      expect((await m.call('GET', shopPath(m.id, '/orders/quantity'))).body.data).toBe(0);
      expect((await t.call('GET', `/api/billing/payment-intents/${r.body.data.billingModule.paymentIntents[0].id}`)).body.data).toMatchObject({ status: 'open', amount: 2007 });

      // the payment page: its token is required
      expect((await t.anon('GET', invoice.paymentUrl.replace(/token=.*/, 'token=forged'))).status).toBe(404);
      const page = await t.app.request(invoice.paymentUrl);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain('₽2007.00 RUB');
      expect(page.headers.get('content-security-policy')).toContain("form-action 'self'");
      // confirming delivers a signed webhook to this server and sends the buyer back to the orders page
      const confirm = await t.app.request(invoice.paymentUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'action=pay' });
      expect(confirm.status).toBe(303);
      expect(confirm.headers.get('location')).toBe(`/ecommerce/orders?order=${cart.id}`);

      const order = (await t.call('GET', `${ORDERS}/${cart.id}`)).body.data;
      expect(order.status).toBe('approving');
      expect((await t.call('GET', `/api/billing/invoices/${invoice.id}`)).body.data.status).toBe('paid');
      expect((await t.call('GET', `/api/billing/payment-intents/${r.body.data.billingModule.paymentIntents[0].id}`)).body.data.status).toBe('succeeded');
      expect(order.receipt).toMatch(/^\/files\/[0-9a-f-]{36}\.png$/);
      const png = readFileSync(join(t.files, order.receipt.slice('/files/'.length)));
      expect(pngSize(png)).toEqual({ signature: 'PNG', width: 1500, height: 1500 });
      // the receipt is no file row: file rows are public, and it names the buyer, their email and what they bought
      const key = order.receipt.slice('/files/'.length);
      for (const caller of [t.anon, t.call]) {
        const files = (await caller('GET', '/api/file-storage/files?limit=1000')).body.data as { file: string; adminTitle: string }[];
        expect(files.filter((f) => f.file === key || /receipt/i.test(f.adminTitle))).toEqual([]);
      }
      expect(await rows('/api/ecommerce/orders-to-file-storage-module-files', 'orderId', cart.id)).toEqual([]);
      // the subject sees its order with the receipt
      expect((await m.call('GET', shopPath(m.id, '/orders?type=history'))).body.data[0]).toMatchObject({ id: cart.id, status: 'approving', receipt: order.receipt });

      // 'order-status-changed' to the buyer's verified address, for paying and for approving; both changes are entries
      // of the admins' one pending order digest ('Order … is now …')
      await eventually(async () => {
        const buyer = (await mailsTo('buyer@example.com')).filter((n) => n.payload.template === 'order-status-changed');
        expect(buyer.map((n) => n.title).sort()).toEqual([`Order #${cart.id}: Paid, being approved`, `Order #${cart.id}: Waiting for payment`]);
        const approved = buyer.find((n) => n.title.endsWith('approved'))!;
        expect(approved.payload.text).toContain(`Receipt: ${t.config.publicUrl}${order.receipt}`);
        expect(approved.payload.text).toContain('Total: ₽2007');
        expect(buyer.map((n) => n.payload.data.forAdmin)).toEqual([undefined, undefined]);
        const digests = (await mailsTo(ADMIN_EMAIL)).filter((n) => n.status === 'new' && n.payload.digest?.key === 'ecommerce-orders');
        expect(digests).toHaveLength(1);
        expect(digests[0].payload.text).toContain(`Order #${cart.id} is now Waiting for payment (was New).`);
        expect(digests[0].payload.text).toContain(`Order #${cart.id} is now Paid, being approved (was Waiting for payment).`);
      });
    });

    it('refuses a bad checkout with the spec messages and changes nothing', async () => {
      const m = await t.register('bad-checkout@example.com');
      const cart = await cartOf(m, [[c.poster.id, 1]]);
      const checkout = (data: Record<string, unknown>) =>
        m.call('POST', shopPath(m.id, '/orders/checkout'), { data: { provider: 'dummy', email: 'a@example.com', billingModule: { currency: { id: c.usd.id } }, ecommerceModule: { orders: [{ id: cart.id }] }, ...data } });
      const before = [await count('/api/billing/invoices'), await count('/api/billing/payment-intents')];
      for (const provider of ['paypal', 'STRIPE', 42]) {
        const r = await checkout({ provider });
        expect(r.status).toBe(400);
        expect(r.body).toMatchObject({ message: 'Invalid provider', cause: [{ field: 'provider', rule: 'enum' }] });
      }
      for (const email of ['not-an-email', '', 'a@']) expect((await checkout({ email })).body.cause[0]).toMatchObject({ field: 'email' });
      expect((await checkout({ email: undefined })).body.cause[0]).toMatchObject({ field: 'email', rule: 'required' });
      for (const ecommerceModule of [{ orders: [] }, { orders: [{}] }, {}]) {
        const r = await checkout({ ecommerceModule });
        expect(r.status).toBe(400);
        expect(r.body.message).toBe('orderId is required');
      }
      // ids given, in the wrong shape: said so, not that they are missing
      const strings = await checkout({ ecommerceModule: { orders: ['00000000-0000-4000-8000-000000000000'] } });
      expect(strings.body.cause).toEqual([{ field: 'ecommerceModule.orders', rule: 'type', message: 'ecommerceModule.orders must be a list of objects with the order id: [{"id": "…"}]' }]);
      // the currency may be left out (the default one): a malformed one is still refused
      expect((await checkout({ billingModule: { currency: { id: 'not-a-uuid' } } })).body.cause[0]).toMatchObject({ field: 'billingModule.currency.id', rule: 'pattern' });
      expect((await checkout({ billingModule: { currency: { id: '00000000-0000-4000-8000-000000000000' } } })).body.cause[0]).toMatchObject({ field: 'billingModule.currency.id', rule: 'reference' });
      const rub = await checkout({ billingModule: { currency: { id: c.rub.id } } });
      expect(rub.status).toBe(400);
      expect(rub.body.message).toBe(NO_PRICE);
      const off = await checkout({ provider: 'stripe' });
      expect(off.status).toBe(400);
      expect(off.body.cause[0]).toMatchObject({ field: 'provider', rule: 'enabled' });
      expect((await checkout({ status: 'approving' })).body.cause[0]).toMatchObject({ field: 'status', rule: 'unknown' });
      // someone else's order
      const other = await t.register('bad-checkout-other@example.com');
      const stolen = await other.call('POST', shopPath(other.id, '/orders/checkout'), { data: { email: 'x@example.com', billingModule: { currency: { id: c.usd.id } }, ecommerceModule: { orders: [{ id: cart.id }] } } });
      expect(stolen.status).toBe(403);
      expect((await other.call('POST', shopPath(other.id, `/orders/${cart.id}/checkout`), { data: { email: 'x@example.com' } })).status).toBe(403);
      expect((await other.call('POST', shopPath(m.id, `/orders/${cart.id}/checkout`), { data: { email: 'x@example.com' } })).status).toBe(403);
      expect((await t.call('GET', `${ORDERS}/${cart.id}`)).body.data).toMatchObject({ status: 'new', type: 'cart' });
      expect([await count('/api/billing/invoices'), await count('/api/billing/payment-intents')]).toEqual(before);
      // an empty cart, and a cart checked out already
      const emptied = (await m.call('DELETE', shopPath(m.id, `/orders/${cart.id}`), { data: { ordersToProducts: [{ id: cart.ordersToProducts[0].id }] } })).body.data;
      expect((await checkout({})).body.message).toBe(`Order ${emptied.id} has no products`);
      await cartOf(m, [[c.poster.id, 1]]);
      expect((await checkout({})).status).toBe(201);
      const twice = await checkout({});
      expect(twice.status).toBe(409);
      expect((await m.call('PATCH', shopPath(m.id, `/orders/${cart.id}`), { data: { ordersToProducts: [{ id: cart.ordersToProducts[0].id, quantity: 3 }] } })).status).toBe(409);
    });

    it('one order by its id (default currency, default provider) and one step from a product page', async () => {
      const m = await t.register('quick@example.com');
      const cart = await cartOf(m, [[c.book.id, 1]]);
      const r = await m.call('POST', shopPath(m.id, `/orders/${cart.id}/checkout`), { data: { email: 'quick@example.com' } });
      expect(r.status).toBe(201);
      expect(r.body.data.billingModule).toMatchObject({ currency: { slug: 'usd' }, invoices: [{ provider: 'dummy', amount: 12.5 }] });
      const one = await m.call('POST', shopPath(m.id, `/products/${c.pen.id}/checkout`), { data: { email: 'quick@example.com', quantity: 3, provider: 'dummy', billingModule: { currency: { id: c.rub.id } } } });
      expect(one.status).toBe(201);
      const [order] = one.body.data.ecommerceModule.orders;
      expect(order).toMatchObject({ status: 'paying', type: 'history', quantity: 3 });
      expect(amounts(order.totals)).toEqual({ usd: 0.3, rub: 27 });
      expect(one.body.data.billingModule.invoices[0].amount).toBe(27);
      expect((await m.call('POST', shopPath(m.id, `/products/${c.free.id}/checkout`), { data: { email: 'quick@example.com' } })).body.message).toBe(NO_PRICE);
      expect((await m.call('POST', shopPath(m.id, `/products/${c.pen.id}/checkout`), { data: { email: 'quick@example.com', quantity: 0 } })).body.message).toBe('quantity must be a positive integer');
      expect((await m.call('POST', shopPath(m.id, `/products/${c.pen.id}/checkout`), { data: { email: 'quick@example.com', provider: 'cash' } })).body.message).toBe('Invalid provider');
      // nothing half-made by the refusals: the subject's orders are the two checked out
      expect((await m.call('GET', shopPath(m.id, '/orders?type=history'))).body.data.map((o: { status: string }) => o.status)).toEqual(['paying', 'paying']);
      expect((await m.call('GET', shopPath(m.id, '/orders'))).body.data).toEqual([]); // no cart left
    });

    it('webhooks: a forged signature is refused, the same event twice changes state once, a cancel cancels', async () => {
      const m = await t.register('hooks@example.com');
      const cart = await cartOf(m, [[c.book.id, 1]]);
      const invoice = (await m.call('POST', shopPath(m.id, `/orders/${cart.id}/checkout`), { data: { email: 'hooks@example.com' } })).body.data.billingModule.invoices[0];
      const event = JSON.stringify({ id: 'evt_same', type: 'payment.succeeded', invoiceId: invoice.id, amount: 1250, currency: 'usd' });
      const events = await count('/api/billing/webhook-events');
      const deliver = (body: string, signature: string) => t.anon('POST', '/api/billing/webhooks/dummy', body, { 'content-type': 'application/json', 'x-dummy-signature': signature });
      const forger = dummyProvider('not-the-secret');
      const forged = await deliver(event, forger.sign(event));
      expect(forged.status).toBe(400);
      expect(forged.body.message).toMatch(/^Webhook refused/);
      expect((await deliver(event, 't=1,v1=00')).status).toBe(400);
      expect((await t.anon('POST', '/api/billing/webhooks/dummy', event, { 'content-type': 'application/json' })).status).toBe(400);
      expect((await t.anon('POST', '/api/billing/webhooks/paypal', event, { 'content-type': 'application/json' })).status).toBe(404);
      expect((await t.call('GET', `/api/billing/invoices/${invoice.id}`)).body.data.status).toBe('open');
      expect(await count('/api/billing/webhook-events')).toBe(events);

      const secret = (await import('node:crypto')).createHmac('sha256', t.config.rbacJwtSecret).update('billing-dummy-provider').digest('hex');
      const real = dummyProvider(secret);
      const first = await deliver(event, real.sign(event));
      expect(first.body.data).toMatchObject({ received: true, duplicate: false, outcome: 'paid' });
      const second = await deliver(event, real.sign(event));
      expect(second.body.data).toMatchObject({ received: true, duplicate: true });
      expect(await rows('/api/billing/webhook-events', 'eventId', 'evt_same')).toHaveLength(1);
      expect((await t.call('GET', `${ORDERS}/${cart.id}`)).body.data.status).toBe('approving');
      // a later cancel of a paid invoice changes nothing
      const late = JSON.stringify({ id: 'evt_late', type: 'payment.canceled', invoiceId: invoice.id, amount: 1250, currency: 'usd' });
      expect((await deliver(late, real.sign(late))).body.data.outcome).toBe('not-open');
      expect((await t.call('GET', `/api/billing/invoices/${invoice.id}`)).body.data.status).toBe('paid');

      // a wrong amount is not applied; a cancel cancels the order
      const other = await cartOf(m, [[c.pen.id, 2]]);
      const inv2 = (await m.call('POST', shopPath(m.id, `/orders/${other.id}/checkout`), { data: { email: 'hooks@example.com' } })).body.data.billingModule.invoices[0];
      const cheap = JSON.stringify({ id: 'evt_cheap', type: 'payment.succeeded', invoiceId: inv2.id, amount: 1, currency: 'usd' });
      expect((await deliver(cheap, real.sign(cheap))).body.data.outcome).toBe('amount-mismatch');
      expect((await t.call('GET', `${ORDERS}/${other.id}`)).body.data.status).toBe('paying');
      const cancel = await t.app.request(inv2.paymentUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'action=cancel' });
      expect(cancel.headers.get('location')).toBe(`/ecommerce/orders?order=${other.id}&payment=canceled`);
      expect((await t.call('GET', `${ORDERS}/${other.id}`)).body.data.status).toBe('canceled');
      expect((await t.call('GET', `/api/billing/invoices/${inv2.id}`)).body.data.status).toBe('canceled');
      expect((await t.app.request(inv2.paymentUrl)).status).toBe(409);
    });

    it('an admin may set any status; approving through the generic API makes the receipt too', async () => {
      const m = await t.register('admin-status@example.com', undefined, { verified: true });
      const cart = await cartOf(m, [[c.poster.id, 1]]);
      await m.call('POST', shopPath(m.id, `/orders/${cart.id}/checkout`), { data: { email: 'admin-status@example.com' } });
      const member = await m.call('PATCH', `${ORDERS}/${cart.id}`, { data: { status: 'approving' } });
      expect([401, 403]).toContain(member.status);
      for (const status of ['approving', 'packaging', 'delivering', 'delivered', 'canceled', 'new']) {
        expect((await t.call('PATCH', `${ORDERS}/${cart.id}`, { data: { status } })).body.data.status).toBe(status);
      }
      const order = (await t.call('GET', `${ORDERS}/${cart.id}`)).body.data;
      expect(order.receipt).toMatch(/^\/files\/.+\.png$/);
      expect(existsSync(join(t.files, order.receipt.slice('/files/'.length)))).toBe(true);
      await eventually(async () => expect((await mailsTo('admin-status@example.com')).filter((n) => n.payload.template === 'order-status-changed')).toHaveLength(7));
      // the receipt's object goes with its order
      expect((await t.call('DELETE', `${ORDERS}/${cart.id}`)).status).toBe(200);
      await eventually(() => expect(existsSync(join(t.files, order.receipt.slice('/files/'.length)))).toBe(false));
    });

    it('GET /api/billing/providers names the providers switched on and the default', async () => {
      expect((await t.anon('GET', '/api/billing/providers')).body.data).toEqual({ providers: ['dummy'], default: 'dummy' });
    });
  });
}
