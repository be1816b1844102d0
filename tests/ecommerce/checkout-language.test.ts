import { describe, it, expect, vi } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { shopForSuite, shopPath, type Catalog, type Shop } from './support.js';
import { Receipt } from '../../plugins/ecommerce/server/receipt.js';
import type { OrderView } from '../../plugins/ecommerce/server/orders.js';

const eventually = <T>(fn: () => Promise<T> | T) => vi.waitFor(fn, { timeout: 20_000, interval: 50 });
const form = (action: 'pay' | 'cancel') => ({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `action=${action}` });

/**
 * A checkout keeps the buyer's language (schemas/meta/languages.json: en, the default, and ru): the payment's return
 * pages, the dummy provider's page and the order mails' link to the orders page are in it. The language comes from
 * the body's `language` (only a configured code), else from the page the checkout was sent from (the Referer).
 */
describe('the receipt', () => {
  const rub = { id: 'c1', slug: 'rub', symbol: '₽', minorUnits: 2 } as never;
  const price = { id: 'p1', amount: 990, currency: rub } as never;
  const order = {
    id: 'o1', status: 'approving', receipt: '', currency: rub, totals: [price], updatedAt: '2026-11-24T10:00:00Z',
    ordersToProducts: [{ id: 'l1', quantity: 1, prices: [price], totals: [price], product: { id: 'b', slug: 'book', adminTitle: 'Book', title: { en: 'Book', ru: 'Книга' }, type: 'one-off' } }],
    invoices: [{ id: 'i1', status: 'paid', provider: 'dummy', amount: 990, paymentUrl: null, email: 'ru@example.com' }],
  } as unknown as OrderView;
  const text = (language: string) => renderToStaticMarkup(createElement(Receipt, { order, paidAt: order.updatedAt, shop: 'Studio', language }));

  it("is in the buyer's language: its words and the product's title", () => {
    const ru = text('ru');
    for (const w of ['Чек', 'Оплачен', 'Заказ №o1', 'Товар', 'Цена', 'Итого', 'Книга', 'Счёт на ru@example.com']) expect(ru).toContain(w);
    expect(ru).not.toMatch(/Receipt|Total|Product|Billed|>Book</);
    const en = text('en');
    for (const w of ['Receipt', 'Paid', 'Order #o1', 'Product', 'Total', '>Book<', 'Billed to ru@example.com']) expect(en).toContain(w);
  });
});

for (const d of DIALECTS) {
  describe(`checkout in the buyer's language on ${d.name}`, () => {
    let t: Shop;
    let c: Catalog;
    shopForSuite(d, (shop, catalog) => ((t = shop), (c = catalog)));

    async function cartOf(login: string) {
      // a verified address: order mails go to those only
      const m = await t.register(login, undefined, { verified: true });
      const cart = (await m.call('POST', shopPath(m.id, '/orders'), { data: { productId: c.book.id, quantity: 1 } })).body.data;
      return { m, cart };
    }
    const invoiceRow = async (id: string) => (await t.call('GET', `/api/billing/invoices/${id}`)).body.data as Record<string, any>;

    it("language 'ru' in the body: the return urls, the payment page, Pay and the order mails are Russian", async () => {
      const { m, cart } = await cartOf('ru-buyer@example.com');
      const r = await m.call('POST', shopPath(m.id, '/orders/checkout'), {
        data: { provider: 'dummy', email: 'ru-buyer@example.com', language: 'ru', billingModule: { currency: { id: c.rub.id } }, ecommerceModule: { orders: [{ id: cart.id }] } },
      });
      expect(r.status).toBe(201);
      const invoice = r.body.data.billingModule.invoices[0];
      const row = await invoiceRow(invoice.id);
      expect(new URL(row.successUrl).pathname + new URL(row.successUrl).search).toBe(`/ru/ecommerce/orders?order=${cart.id}`);
      expect(new URL(row.cancelUrl).pathname + new URL(row.cancelUrl).search).toBe(`/ru/ecommerce/orders?order=${cart.id}&payment=canceled`);

      const page = await t.app.request(invoice.paymentUrl);
      const html = await page.text();
      expect(html).toContain('<html lang="ru">');
      expect(html).toContain('<h1>Тестовая оплата</h1>');
      expect(html).toContain('>Отмена</button>');
      expect(html).toContain('>Оплатить ₽990.00 RUB</button>');
      expect(html).not.toContain('Test payment');

      const pay = await t.app.request(invoice.paymentUrl, form('pay'));
      expect(pay.status).toBe(303);
      expect(pay.headers.get('location')).toBe(`/ru/ecommerce/orders?order=${cart.id}`);
      // once paid, the page says so in Russian and links back to the Russian orders page
      const done = await t.app.request(invoice.paymentUrl);
      expect(done.status).toBe(409);
      const doneHtml = await done.text();
      expect(doneHtml).toContain('<html lang="ru">');
      expect(doneHtml).toContain('Статус этого платежа: оплачен');
      expect(doneHtml).toContain(`href="/ru/ecommerce/orders?order=${cart.id}"`);

      await eventually(async () => {
        const mails = (await t.call('GET', '/api/notification/notifications?filters[and][0][column]=recipient&filters[and][0][method]=eq&filters[and][0][value]=ru-buyer@example.com')).body.data as any[];
        const status = mails.filter((n) => n.payload.template === 'order-status-changed');
        expect(status).toHaveLength(2);
        for (const mail of status) {
          expect(mail.payload.language).toBe('ru');
          expect(mail.payload.text).toContain(`Ваши заказы: ${t.config.publicUrl}/ru/ecommerce/orders`);
          expect(mail.payload.text).toContain('Итого: ₽990');
          expect(mail.payload.text).not.toMatch(/Your order|Total|Your orders/);
        }
        const paid = status.find((n) => n.payload.data.previousStatus === 'Ожидает оплаты')!;
        expect(paid.title).toBe(`Заказ #${cart.id}: Оплачен, проверяется`);
        expect(paid.payload.text).toContain(`Статус вашего заказа #${cart.id}: Оплачен, проверяется (был: Ожидает оплаты).`);
      });
    });

    it('without a language, the Referer\'s page language is kept: Cancel returns to the Russian orders page', async () => {
      const { m, cart } = await cartOf('ru-referer@example.com');
      const r = await m.call(
        'POST',
        shopPath(m.id, `/orders/${cart.id}/checkout`),
        { data: { provider: 'dummy', email: 'ru-referer@example.com' } },
        { referer: `${t.config.publicUrl}/ru/ecommerce/products/${c.book.slug}` },
      );
      expect(r.status).toBe(201);
      const invoice = r.body.data.billingModule.invoices[0];
      expect((await (await t.app.request(invoice.paymentUrl)).text())).toContain('<html lang="ru">');
      const cancel = await t.app.request(invoice.paymentUrl, form('cancel'));
      expect(cancel.headers.get('location')).toBe(`/ru/ecommerce/orders?order=${cart.id}&payment=canceled`);
    });

    it('the one step checkout keeps the language too; English (the default) has no prefix', async () => {
      const m = await t.register('one-step-ru@example.com');
      const ru = await m.call('POST', shopPath(m.id, `/products/${c.book.id}/checkout`), { data: { provider: 'dummy', email: 'one-step-ru@example.com', language: 'ru' } });
      expect(ru.status).toBe(201);
      const order = ru.body.data.ecommerceModule.orders[0];
      expect((await t.app.request(ru.body.data.billingModule.invoices[0].paymentUrl, form('pay'))).headers.get('location')).toBe(`/ru/ecommerce/orders?order=${order.id}`);

      const en = await m.call('POST', shopPath(m.id, `/products/${c.book.id}/checkout`), { data: { provider: 'dummy', email: 'one-step-ru@example.com', language: 'en' } }, { referer: `${t.config.publicUrl}/ru/ecommerce/products/x` });
      expect(en.status).toBe(201);
      const url = en.body.data.billingModule.invoices[0].paymentUrl;
      const html = await (await t.app.request(url)).text();
      expect(html).toContain('<html lang="en">');
      expect(html).toContain('<h1>Test payment</h1>');
      expect((await t.app.request(url, form('pay'))).headers.get('location')).toBe(`/ecommerce/orders?order=${en.body.data.ecommerceModule.orders[0].id}`);
    });

    it('only a configured language is taken: another in the body is a 400 that changes nothing; a foreign Referer gives the default', async () => {
      const { m, cart } = await cartOf('lang-forged@example.com');
      for (const language of ['de', '//evil.example', 'https://evil.example/ru', 'RU']) {
        const r = await m.call('POST', shopPath(m.id, '/orders/checkout'), { data: { provider: 'dummy', email: 'lang-forged@example.com', language, ecommerceModule: { orders: [{ id: cart.id }] } } });
        expect(r.status, language).toBe(400);
        expect(r.body.cause, language).toEqual([expect.objectContaining({ field: 'language', rule: 'enum' })]);
      }
      // still a cart
      expect((await m.call('GET', shopPath(m.id, '/orders'))).body.data.map((o: { id: string }) => o.id)).toEqual([cart.id]);

      const r = await m.call(
        'POST',
        shopPath(m.id, '/orders/checkout'),
        { data: { provider: 'dummy', email: 'lang-forged@example.com', ecommerceModule: { orders: [{ id: cart.id }] } } },
        { referer: 'https://evil.example/evil.example/ecommerce/orders' },
      );
      expect(r.status).toBe(201);
      const row = await invoiceRow(r.body.data.billingModule.invoices[0].id);
      expect(row.successUrl).toBe(`${new URL(t.config.publicUrl).origin}/ecommerce/orders?order=${cart.id}`);
    });
  });
}
