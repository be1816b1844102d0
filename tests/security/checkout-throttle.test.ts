import { describe, it, expect, beforeAll, afterAll, vi } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { ADMIN_EMAIL } from '../helpers/accounts.js';
import { startSmtp } from '../helpers/smtp.js';
import { bootShop, makeCatalog, shopPath, type Catalog, type Shop } from '../ecommerce/support.js';
import { CHECKOUT_ADDRESS_LIMIT, CHECKOUT_LIMIT } from '../../plugins/ecommerce/server/routes.js';
import type { NotificationService } from '../../plugins/notification/server/index.js';

const eventually = <T>(fn: () => Promise<T> | T) => vi.waitFor(fn, { timeout: 20_000, interval: 50 });
type Row = Record<string, any>;

/**
 * F06: a checkout makes an order, a payment intent and an invoice and mails about it. Checkouts were limited per
 * subject only, and registration makes 30 fresh subjects a minute: from one address, two fresh accounts placed 60
 * checkouts, which mailed 60 'Waiting for payment' mails to an address typed in the body and 61 to the admin. Now
 * checkouts are limited per client address as well (both before the body is read), order mail goes only to the
 * buyer's verified addresses, and the admins get one digest per window listing every order change in it.
 * Client addresses are told apart by X-Forwarded-For (TRUST_PROXY) so that each test has its own.
 */
for (const d of DIALECTS) {
  describe(`checkouts and their mail are bounded on ${d.name}`, () => {
    let t: Shop;
    let c: Catalog;
    let smtp: Awaited<ReturnType<typeof startSmtp>>;
    beforeAll(async () => {
      smtp = await startSmtp();
      t = await bootShop(await d.make(), { env: { SMTP_URL: smtp.url, MAIL_FROM: 'shop@example.com', TRUST_PROXY: 'true' } });
      c = await makeCatalog(t);
    });
    afterAll(async () => {
      await t?.close();
      await smtp?.close();
    });

    const from = (n: number) => ({ 'x-forwarded-for': `203.0.113.${n}` });
    const count = async (path: string) => (await t.call('GET', `${path}/count`)).body.data as number;
    const rowsTo = async (to: string) =>
      (await t.call('GET', `/api/notification/notifications?limit=1000&filters[and][0][column]=recipient&filters[and][0][method]=eq&filters[and][0][value]=${encodeURIComponent(to)}`)).body.data as Row[];
    /** the notification rows and the mails to an address, but for the verification mail registration sends */
    const orderRowsTo = async (to: string) => (await rowsTo(to)).filter((n) => n.payload.template !== 'verify-email');
    const mailsTo = (to: string) => smtp.mails.filter((m) => m.to.includes(to) && !/^Subject: Verify your email/m.test(m.raw));
    const digestsPending = async () => (await rowsTo(ADMIN_EMAIL)).filter((n) => n.status === 'new' && n.payload.digest?.key === 'ecommerce-orders');
    /** the admins' pending digest once it lists every order named: mailed to the buyer first, so those mails are out too */
    const digestListing = (orderIds: string[]) =>
      eventually(async () => {
        const pending = await digestsPending();
        expect(pending).toHaveLength(1);
        for (const id of orderIds) expect(pending[0].payload.text).toContain(`Order #${id} is now Waiting for payment (was New).`);
        return pending[0];
      });
    const checkout = (m: Awaited<ReturnType<Shop['register']>>, email: string, address: number) =>
      m.call('POST', shopPath(m.id, `/products/${c.pen.id}/checkout`), { data: { provider: 'dummy', email, billingModule: { currency: { id: c.usd.id } } } }, from(address));
    const service = () => t.ctx.services.notification as NotificationService;

    it('F06: one address is limited across accounts: two fresh accounts get the address budget, not two subject budgets', async () => {
      expect(CHECKOUT_ADDRESS_LIMIT.points).toBeGreaterThan(CHECKOUT_LIMIT.points);
      expect(CHECKOUT_ADDRESS_LIMIT.points).toBeLessThan(2 * CHECKOUT_LIMIT.points);
      const typed = `typed-f06-${d.name}@elsewhere.example`;
      const a = await t.register(`f06-a-${d.name}@example.com`);
      const b = await t.register(`f06-b-${d.name}@example.com`);
      const before = { orders: await count('/api/ecommerce/orders'), invoices: await count('/api/billing/invoices'), intents: await count('/api/billing/payment-intents') };

      const statuses = { a: [] as number[], b: [] as number[] };
      for (let i = 0; i < CHECKOUT_LIMIT.points; i++) statuses.a.push((await checkout(a, typed, 1)).status);
      // the second account, from the same address, gets what is left of the address's budget
      for (let i = 0; i < CHECKOUT_LIMIT.points; i++) statuses.b.push((await checkout(b, typed, 1)).status);
      const left = CHECKOUT_ADDRESS_LIMIT.points - CHECKOUT_LIMIT.points;
      expect(statuses.a).toEqual(Array(CHECKOUT_LIMIT.points).fill(201));
      expect(statuses.b).toEqual([...Array(left).fill(201), ...Array(CHECKOUT_LIMIT.points - left).fill(429)]);
      // every checkout route shares the budget, and a refusal names when to come back
      const cart = (await b.call('POST', shopPath(b.id, '/orders'), { data: { productId: c.pen.id, quantity: 1 } }, from(1))).body.data;
      const body = { provider: 'dummy', email: typed };
      for (const [path, data] of [
        [`/orders/${cart.id}/checkout`, body],
        ['/orders/checkout', { ...body, ecommerceModule: { orders: [{ id: cart.id }] } }],
      ] as const) {
        const r = await b.call('POST', shopPath(b.id, path), { data }, from(1));
        expect(r.status, path).toBe(429);
        expect(r.body.message).toMatch(/^Too many attempts: try again in \d+ seconds$/);
        expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
      }
      // the rows: one order (the one-step checkout's own), payment intent and invoice per accepted checkout, and the cart
      expect(await count('/api/ecommerce/orders')).toBe(before.orders + CHECKOUT_ADDRESS_LIMIT.points + 1);
      expect(await count('/api/billing/invoices')).toBe(before.invoices + CHECKOUT_ADDRESS_LIMIT.points);
      expect(await count('/api/billing/payment-intents')).toBe(before.intents + CHECKOUT_ADDRESS_LIMIT.points);
      expect((await b.call('GET', shopPath(b.id, '/orders'))).body.data.map((o: { id: string }) => o.id)).toEqual([cart.id]);

      // another address has a budget of its own; the first account's own budget is still spent there
      expect((await checkout(b, typed, 2)).status).toBe(201);
      expect((await checkout(a, typed, 2)).status).toBe(429);
      // the system acts for any subject, unthrottled
      expect((await t.call('POST', shopPath(a.id, `/products/${c.pen.id}/checkout`), { data: body }, { headers: from(1) })).status).toBe(201);
      // none of these mailed the typed address, nor the unverified buyers
      const orders = (await t.call('GET', `/api/ecommerce/orders?limit=1000&filters[and][0][column]=status&filters[and][0][method]=eq&filters[and][0][value]=paying`)).body.data as Row[];
      await digestListing(orders.map((o) => o.id as string));
      for (const to of [typed, `f06-a-${d.name}@example.com`, `f06-b-${d.name}@example.com`]) {
        expect(await orderRowsTo(to), to).toEqual([]);
        expect(mailsTo(to), to).toEqual([]);
      }
    }, 120_000);

    it('F06: order mail goes to the buyer\'s verified addresses only, never to an address typed into the checkout', async () => {
      const typed = `stranger-f06-${d.name}@elsewhere.example`;
      const login = `f06-buyer-${d.name}@example.com`;
      const m = await t.register(login);
      const first = await checkout(m, typed, 10);
      // typing its own (unverified) address does not make it one
      const own = await checkout(m, login, 10);
      expect([first.status, own.status]).toEqual([201, 201]);
      await digestListing([first.body.data.ecommerceModule.orders[0].id, own.body.data.ecommerceModule.orders[0].id]);
      for (const to of [typed, login]) {
        expect(await orderRowsTo(to), to).toEqual([]);
        expect(mailsTo(to), to).toEqual([]);
      }
      // once the address is proven, the buyer hears of its orders there, and the typed stranger still does not
      await t.call('PATCH', `/api/rbac/identities/${m.identityId}`, { data: { emailVerifiedAt: new Date().toISOString() } });
      const verified = await checkout(m, typed, 10);
      const orderId = verified.body.data.ecommerceModule.orders[0].id;
      await digestListing([orderId]);
      expect(mailsTo(login)).toHaveLength(1);
      expect(mailsTo(login)[0].raw).toContain(orderId);
      expect((await orderRowsTo(login)).map((n) => n.payload.data.orderId)).toEqual([orderId]);
      expect(await orderRowsTo(typed)).toEqual([]);
      expect(mailsTo(typed)).toEqual([]);
    }, 60_000);

    it('F06: the admins get one digest per window listing every order change in it, not a mail per order', async () => {
      // what earlier tests left pending goes out first
      await service().deliverDue({ now: new Date(Date.now() + 86_400_000) });
      expect(await digestsPending()).toEqual([]);
      const mailed = mailsTo(ADMIN_EMAIL).length;
      // six checkouts at once, by three accounts from three addresses: one digest row, however the writes interleave
      const buyers = await Promise.all([1, 2, 3].map((n) => t.register(`f06-digest-${n}-${d.name}@example.com`)));
      const made = await Promise.all(buyers.flatMap((m, i) => [checkout(m, 'x@example.com', 20 + i), checkout(m, 'x@example.com', 20 + i)]));
      expect(made.map((r) => r.status)).toEqual(Array(6).fill(201));
      const ids = made.map((r) => r.body.data.ecommerceModule.orders[0].id as string);
      const digest = await digestListing(ids);
      expect(digest.payload.digest.count).toBe(6);
      expect(digest.title).toBe('Orders: 6 status changes');
      // sent when its window ends (ADMIN_DIGEST_MINUTES, 10 by default), not before
      expect(new Date(digest.sendAfter).getTime() - new Date(digest.createdAt).getTime()).toBeGreaterThanOrEqual(9 * 60_000);
      expect(await service().deliverDue()).toMatchObject({ sent: 0 });
      expect(mailsTo(ADMIN_EMAIL)).toHaveLength(mailed);

      await service().deliverDue({ now: new Date(new Date(digest.sendAfter).getTime() + 1000) });
      const sent = mailsTo(ADMIN_EMAIL).slice(mailed);
      expect(sent).toHaveLength(1);
      const text = sent[0].raw.replace(/=\r?\n/g, '');
      for (const id of ids) expect(text).toContain(id);
      expect((await t.call('GET', `/api/notification/notifications/${digest.id}`)).body.data.status).toBe('sent');

      // a change after it was sent begins the next digest; the one sent keeps what it said
      const later = await checkout(buyers[0], 'x@example.com', 23);
      const next = await digestListing([later.body.data.ecommerceModule.orders[0].id]);
      expect(next.id).not.toBe(digest.id);
      expect(next.payload.digest.count).toBe(1);
      const old = (await t.call('GET', `/api/notification/notifications/${digest.id}`)).body.data;
      expect(old.payload.text).not.toContain(later.body.data.ecommerceModule.orders[0].id);
      expect(mailsTo(ADMIN_EMAIL).slice(mailed)).toHaveLength(1);
    }, 60_000);
  });
}
