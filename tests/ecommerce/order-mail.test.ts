import { describe, it, expect, beforeAll, afterAll, vi } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { ADMIN_EMAIL } from '../helpers/accounts.js';
import { startSmtp, type ReceivedMail } from '../helpers/smtp.js';
import { bootShop, makeCatalog, shopPath, type Catalog, type Shop } from './support.js';
import type { NotificationService } from '../../plugins/notification/server/index.js';

const eventually = <T>(fn: () => Promise<T> | T) => vi.waitFor(fn, { timeout: 20_000, interval: 50 });

/** quoted-printable undone: soft line breaks removed, =XX bytes decoded as UTF-8 */
const unQuote = (s: string) => Buffer.from(s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8');

/** the text/plain and text/html parts of a received multipart/alternative mail */
function partsOf(mail: ReceivedMail): { text: string; html: string } {
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(mail.raw)?.[1];
  if (!boundary) throw new Error('not a multipart mail');
  const parts = mail.raw.split(`--${boundary}`).slice(1, -1);
  const part = (type: string) => {
    const found = parts.find((p) => new RegExp(`Content-Type: ${type}`, 'i').test(p));
    if (!found) throw new Error(`no ${type} part`);
    const [headers, ...body] = found.replace(/^\r?\n/, '').split(/\r?\n\r?\n/);
    const text = body.join('\n\n');
    return /quoted-printable/i.test(headers) ? unQuote(text) : text;
  };
  return { text: part('text/plain'), html: part('text/html') };
}

const occurrences = (text: string, part: string) => text.split(part).length - 1;

/**
 * The 'order-status-changed' mail as it leaves the server over a real SMTP server: its first sentence, in the
 * plain-text part and in the HTML part, names the order and its status (and the one before) with the labels
 * the shop shows; the outbox row keeps the same text and the template's data.
 */
for (const d of DIALECTS) {
  describe(`order status mail on ${d.name}`, () => {
    let t: Shop;
    let c: Catalog;
    let smtp: Awaited<ReturnType<typeof startSmtp>>;
    beforeAll(async () => {
      smtp = await startSmtp();
      t = await bootShop(await d.make(), { env: { SMTP_URL: smtp.url, MAIL_FROM: 'shop@example.com', PUBLIC_URL: 'https://shop.example.com' } });
      c = await makeCatalog(t);
    });
    afterAll(async () => {
      await t?.close();
      await smtp?.close();
    });

    const mailsTo = async (to: string) =>
      (await t.call('GET', `/api/notification/notifications?filters[and][0][column]=recipient&filters[and][0][method]=eq&filters[and][0][value]=${to}`)).body.data as Record<string, any>[];
    /** the delivered mail to `to` about the order reaching `label` */
    const delivered = (to: string, label: string) =>
      eventually(() => {
        const found = smtp.mails.find((m) => m.to.includes(to) && unQuote(m.raw).includes(`is now ${label}`));
        if (!found) throw new Error(`no '${label}' mail to ${to} yet`);
        return found;
      });

    it('names the order and its status in the text and HTML parts, for the buyer and in the admins\' digest', async () => {
      const m = await t.register('mail-buyer@example.com', undefined, { verified: true });
      const cart = (await m.call('POST', shopPath(m.id, '/orders'), { data: { productId: c.book.id, quantity: 2 } })).body.data;
      const r = await m.call('POST', shopPath(m.id, '/orders/checkout'), { data: { provider: 'dummy', email: 'mail-buyer@example.com', ecommerceModule: { orders: [{ id: cart.id }] } } });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      // the buyer's says 'Your order'
      const sentence = `Your order #${cart.id} is now Waiting for payment (was New).`;
      const { text, html } = partsOf(await delivered('mail-buyer@example.com', 'Waiting for payment'));
      expect(text).not.toContain('# is now');
      expect(text.trimStart().startsWith(sentence), text).toBe(true);
      expect(occurrences(text, sentence), text).toBe(1);
      expect(text).toContain('book × 2: $25');
      expect(html).toContain(`#${cart.id}</code> is now <strong>Waiting for payment</strong> (was New).`);
      expect(occurrences(html, 'is now <strong>'), html).toBe(1);
      // the admins' digest names the order, with its lines, once its window ends
      const [digest] = await eventually(async () => {
        const found = (await mailsTo(ADMIN_EMAIL)).filter((n) => n.status === 'new' && n.payload.digest);
        expect(found).toHaveLength(1);
        return found;
      });
      expect(smtp.mails.filter((mail) => mail.to.includes(ADMIN_EMAIL))).toEqual([]);
      await (t.ctx.services.notification as NotificationService).deliverDue({ now: new Date(new Date(digest.sendAfter).getTime() + 1000) });
      const admin = partsOf(await delivered(ADMIN_EMAIL, 'Waiting for payment'));
      expect(admin.text).not.toContain('Your order');
      expect(occurrences(admin.text, `Order #${cart.id} is now Waiting for payment (was New).`), admin.text).toBe(1);
      expect(admin.text).toContain('book × 2: $25');
      // the outbox row (marked sent once the SMTP server has taken the mail): the same text, and the template's data
      const row = await eventually(async () => {
        const [found] = (await mailsTo('mail-buyer@example.com')).filter((n) => n.payload.template === 'order-status-changed');
        expect(found).toMatchObject({ title: `Order #${cart.id}: Waiting for payment`, status: 'sent' });
        return found;
      });
      expect(row.payload.data).toEqual({ orderId: cart.id, status: 'Waiting for payment', previousStatus: 'New' });
      expect(row.payload.text.startsWith(`Your order #${cart.id} is now Waiting for payment (was New).`)).toBe(true);

      // an admin's change through the generic API: the mail names the new status and the one before
      expect((await t.call('PATCH', `/api/ecommerce/orders/${cart.id}`, { data: { status: 'delivering' } })).status).toBe(200);
      const later = partsOf(await delivered('mail-buyer@example.com', 'On its way'));
      expect(later.text.trimStart().startsWith(`Your order #${cart.id} is now On its way (was Waiting for payment).`), later.text).toBe(true);
      expect(later.html).toContain('is now <strong>On its way</strong> (was Waiting for payment).');
    });
  });
}
