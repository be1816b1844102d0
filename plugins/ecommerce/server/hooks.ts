import { and, desc, eq, inArray, isNotNull, ne } from 'drizzle-orm';
import { HttpError } from '../../../runtime/http/errors.js';
import type { HookSet } from '../../../runtime/crud/hooks.js';
import type { PluginContext } from '../../../runtime/plugin.js';
import type { NotificationService } from '../../notification/server/index.js';
import type { FileStorageService } from '../../file-storage/server/index.js';
import { formatPrice, priceIn } from '../pricing.js';
import { ordersPageIn, titleOf } from './checkout.js';
import { languageOfUrl } from '../../../runtime/http/language.js';
import { translate } from '../../../web/storefront/words.js';
import { mailWord } from '../../notification/server/templates/words.js';
import '../web/words.js'; // the shop's words (status labels, 'Total', …), which its mails use too
import type { Orders, OrderView } from './orders.js';
import { renderReceipt } from './receipt.js';

/** what a payment intent's new status means for the orders it pays (only orders still paying move) */
const AFTER_PAYMENT: Record<string, string> = { succeeded: 'approving', failed: 'canceled', canceled: 'canceled' };

/**
 * The order lifecycle as hooks, so that it follows every write path (the webhook, an admin's edit in the
 * generic API, a plugin route):
 * - a payment intent that succeeds, fails or is canceled moves its orders out of 'paying', in the same transaction;
 * - an order that reaches 'approving' gets its receipt (a 1500 × 1500 PNG stored through file-storage) once committed;
 * - every status change is mailed ('order-status-changed') to the buyer's verified addresses once committed, and
 *   goes into each admin address's order digest.
 */
export function orderHooks(ctx: PluginContext, orders: Orders): HookSet {
  const t = ctx.database.tables;
  const order = ctx.model.byId['ecommerce/order'];

  /**
   * The receipt of an approved order, in the buyer's language: a PNG stored through file-storage's driver under a
   * random key, and no file row. A file row is public (the storefront lists files), so a receipt among them
   * told any visitor who bought what, and their email; the order's `receipt` field, which only the buyer and the
   * admins read, is its one address. It goes with the order (below).
   */
  async function attachReceipt(id: string) {
    const fileStorage = ctx.services.fileStorage as FileStorageService | undefined;
    if (!fileStorage) return ctx.log.warn({ order: id }, 'no file-storage module: the receipt is not made');
    const [view] = await orders.views([id]);
    if (!view || view.receipt) return;
    const png = await renderReceipt(view, view.updatedAt, await buyerLanguageOf(id));
    const stored = await fileStorage.put(png);
    try {
      // the address it is served at: https urls as stored, keys under the public files prefix (spec §9)
      await ctx.repo.update(order, id, { receipt: fileStorage.publicUrl(stored.file) });
    } catch (e) {
      await fileStorage.driver.remove(stored.file).catch(() => undefined);
      throw e;
    }
  }

  /** the stored object a receipt address names, when it is the configured driver's */
  async function dropReceipt(receipt: unknown) {
    const fileStorage = ctx.services.fileStorage as FileStorageService | undefined;
    if (!fileStorage || typeof receipt !== 'string' || !receipt) return;
    const file = receipt.startsWith('/files/') ? receipt.slice('/files/'.length) : receipt;
    if (!fileStorage.driver.keyOf(file)) return;
    // an admin may have pointed the field at a file row's object: that one stays
    const files = t['file-storage/file'];
    if (files && (await ctx.database.db.select({ id: files.id }).from(files).where(eq(files.file, file)).limit(1)).length) return;
    await fileStorage.driver.remove(file);
  }

  /**
   * The buyer's addresses: the verified email identities of the subject owning the order. Never the invoice email
   * typed at checkout as such: anyone may type any address there, and a script checking out in a loop mailed a
   * stranger without bound (F06). A typed address that is one of the buyer's verified ones is among these anyway.
   */
  async function buyerEmails(view: OrderView): Promise<string[]> {
    const [so, si, ident] = [t['rbac/subjects-to-ecommerce-module-orders'], t['rbac/subjects-to-identities'], t['rbac/identity']];
    const subjects: { id: string }[] = await ctx.database.db.select({ id: so.subjectId }).from(so).where(eq(so.ecommerceModuleOrderId, view.id));
    const verified: { email: string | null }[] = subjects.length
      ? await ctx.database.db
          .select({ email: ident.email })
          .from(si)
          .innerJoin(ident, eq(ident.id, si.identityId))
          .where(and(inArray(si.subjectId, subjects.map((s) => s.id)), isNotNull(ident.email), isNotNull(ident.emailVerifiedAt)))
      : [];
    return verified.map((v) => v.email).filter((e): e is string => !!e).map((e) => e.toLowerCase());
  }

  /** a word of the shop's storefront (plugins/ecommerce/web/words.ts) in a language */
  const word = (key: string, language: string, vars?: Record<string, string>) => translate(`ecommerce.${key}`, language, vars);
  const labelOf = (status: string, language: string) => {
    const label = word(`status.${status}`, language);
    return label === `ecommerce.status.${status}` ? status : label;
  };

  /** the buyer's language: the one of the orders page its latest invoice returns to (checkout keeps it there) */
  async function buyerLanguageOf(id: string): Promise<string> {
    const [opi, pii, inv] = [t['ecommerce/orders-to-billing-module-payment-intents'], t['billing/payment-intents-to-invoices'], t['billing/invoice']];
    const [latest]: { url: string | null }[] = await ctx.database.db
      .select({ url: inv.successUrl })
      .from(opi)
      .innerJoin(pii, eq(pii.paymentIntentId, opi.billingModulePaymentIntentId))
      .innerJoin(inv, eq(inv.id, pii.invoiceId))
      .where(eq(opi.orderId, id))
      .orderBy(desc(inv.createdAt))
      .limit(1);
    return languageOfUrl(latest?.url, ctx.model) ?? ctx.model.defaultLanguage;
  }

  /** the order's lines and total, as a mail lists them */
  function orderLines(view: OrderView, language: string): string[] {
    const currencyId = view.currency?.id;
    const money = (prices: OrderView['totals']) => (priceIn(prices, currencyId) ? formatPrice(priceIn(prices, currencyId)!) : prices.map(formatPrice).join(' / '));
    return [...view.ordersToProducts.map((l) => `${titleOf(l.product, language)} × ${l.quantity}: ${money(l.totals)}`), `${word('total', language)}: ${money(view.totals)}`];
  }
  const receiptLine = (view: OrderView, language: string) => (view.receipt ? [`${word('receipt', language)}: ${ctx.config.publicUrl}${view.receipt}`] : []);

  /**
   * The mails of one status change (`status`, from `previous`): the order as it is now, named with the change's labels.
   * The buyer's verified addresses get it at once ('order-status-changed', in the language they checked out in); each
   * ADMIN_EMAILS address gets it as an entry of its order digest (one mail per ADMIN_DIGEST_MINUTES, in the default
   * language): a mail per order let every checkout mail the admins, unbounded by anything but the checkout limits.
   */
  async function mailStatus(id: string, status: string, previous?: string) {
    const notification = ctx.services.notification as NotificationService | undefined;
    if (!notification) return;
    const [view] = await orders.views([id]);
    if (!view) return;
    const admins = new Set(ctx.config.adminEmails);
    const buyers = [...new Set(await buyerEmails(view))].filter((e) => !admins.has(e));
    const failed = (err: unknown) => ctx.log.error({ err, order: id }, 'order email failed');
    // the buyer's mails first, then the admins' digest entries: an entry names a change whose buyer mail was handed over
    const sends: Promise<unknown>[] = [];
    if (buyers.length) {
      const language = await buyerLanguageOf(view.id);
      // the template's first sentence ('Your order #… is now …') and the subject, with the labels the shop shows
      const data = { orderId: view.id, status: labelOf(status, language), ...(previous && { previousStatus: labelOf(previous, language) }) };
      const subject = mailWord('orderSubject', language, { id: view.id, status: data.status });
      const text = [...orderLines(view, language), '', ...receiptLine(view, language), `${word('yourOrders', language)}: ${ctx.config.publicUrl}${ordersPageIn(language, ctx.model)}`].join('\n');
      for (const to of buyers) sends.push(notification.sendEmail({ to, subject, text, template: 'order-status-changed', data, language }).catch(failed));
    }
    await Promise.all(sends);
    const language = ctx.model.defaultLanguage;
    const was = previous ? mailWord('orderWas', language, { status: labelOf(previous, language) }) : '';
    const entry = [mailWord('orderNowAdmin', language, { id: `#${view.id}`, status: labelOf(status, language), was }), ...orderLines(view, language), ...receiptLine(view, language)].join('\n');
    const digests: Promise<unknown>[] = [];
    for (const to of admins) {
      digests.push(
        notification
          .digest({ to, key: 'ecommerce-orders', entry, language, subject: (count) => mailWord('orderDigestSubject', language, { count: String(count) }), footer: `Admin: ${ctx.config.publicUrl}/admin/`, windowMs: ctx.config.adminDigestMinutes * 60_000 })
          .catch(failed),
      );
    }
    await Promise.all(digests);
  }

  return {
    // a checked-out order keeps its lines (and the prices it was invoiced at): a product in one stays; in a cart it goes
    'ecommerce/product': {
      async beforeDelete(previous, { tx }) {
        const [otp, o] = [t['ecommerce/orders-to-products'], t['ecommerce/order']];
        const held: { id: string }[] = await tx
          .select({ id: o.id })
          .from(otp)
          .innerJoin(o, eq(o.id, otp.orderId))
          .where(and(eq(otp.productId, previous.id), ne(o.type, 'cart')));
        if (!held.length) return;
        const orders = new Set(held.map((h) => h.id)).size;
        const message = `Product ${previous.slug} is in ${orders} checked-out order${orders === 1 ? '' : 's'}, which keep their lines: it cannot be deleted`;
        throw new HttpError(409, message, [{ field: 'id', rule: 'in-use', message }]);
      },
    },
    'billing/payment-intent': {
      async afterUpdate(row, { previous, tx }) {
        const next = AFTER_PAYMENT[row.status as string];
        if (!next || row.status === previous.status) return;
        const opi = t['ecommerce/orders-to-billing-module-payment-intents'];
        const links: { orderId: string }[] = await tx.select({ orderId: opi.orderId }).from(opi).where(eq(opi.billingModulePaymentIntentId, row.id));
        for (const { orderId } of links) {
          const current = await ctx.repo.get(order, orderId, tx);
          if (current?.status === 'paying') await ctx.repo.update(order, orderId, { status: next }, tx);
        }
      },
    },
    'ecommerce/order': {
      // a canceled order is not paid for any more: its open invoices (and their payment intents) are canceled with it,
      // in the same write, so a payment the provider reports later is recorded as for an invoice no longer open
      async afterUpdate(row, { previous, tx }) {
        if (row.status !== 'canceled' || previous.status === 'canceled') return;
        const [opi, pii, inv] = [t['ecommerce/orders-to-billing-module-payment-intents'], t['billing/payment-intents-to-invoices'], t['billing/invoice']];
        const open: { invoiceId: string; intentId: string }[] = await tx
          .select({ invoiceId: inv.id, intentId: pii.paymentIntentId })
          .from(opi)
          .innerJoin(pii, eq(pii.paymentIntentId, opi.billingModulePaymentIntentId))
          .innerJoin(inv, eq(inv.id, pii.invoiceId))
          .where(and(eq(opi.orderId, row.id), eq(inv.status, 'open')));
        const [invoice, intent] = [ctx.model.byId['billing/invoice'], ctx.model.byId['billing/payment-intent']];
        for (const id of new Set(open.map((o) => o.invoiceId))) await ctx.repo.update(invoice, id, { status: 'canceled' }, tx);
        for (const id of new Set(open.map((o) => o.intentId))) {
          const current = await ctx.repo.get(intent, id, tx);
          if (current?.status === 'open') await ctx.repo.update(intent, id, { status: 'canceled' }, tx);
        }
      },
      async afterCommit({ operation, row, previous }) {
        if (operation === 'delete') return dropReceipt(row.receipt).catch((err) => ctx.log.warn({ err, order: row.id }, 'receipt not removed'));
        if (operation === 'update' && previous?.receipt && previous.receipt !== row.receipt) {
          await dropReceipt(previous.receipt).catch((err) => ctx.log.warn({ err, order: row.id }, 'receipt not removed'));
        }
        if (operation !== 'update' || !previous || row.status === previous.status) return;
        const id = row.id as string;
        if (row.status === 'approving' && !row.receipt) {
          await attachReceipt(id).catch((err) => ctx.log.error({ err, order: id }, 'receipt failed'));
        }
        // delivery is not awaited: a slow mail server never holds the request
        void mailStatus(id, row.status as string, previous.status as string | undefined).catch((err) => ctx.log.error({ err, order: id }, 'order email failed'));
      },
    },
  };
}
