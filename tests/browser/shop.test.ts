import { describe, it, expect, beforeAll, afterAll, afterEach } from 'vitest';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { SCREENSHOTS } from '../helpers/browser.js';
import { eventually, PHONE, shown, startStorefront, type Storefront } from '../helpers/storefront.js';

/**
 * The shop in Chromium, on the demo site: a product page, add to cart, the cart drawer, checkout with the
 * dummy provider, its payment page, and back to the order, paid, with its receipt. Screenshots of the
 * drawer and the checkout form at 390 and 1280 px.
 */
describe('shop in Chromium', () => {
  let site: Storefront;
  let server: Storefront['server'];
  let smtp: Storefront['smtp'];
  let page: Page;
  let problems: string[];

  beforeAll(async () => {
    site = await startStorefront('shop');
    ({ server, smtp, page, problems } = site);
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await site?.failed(ctx.task.name);
  });
  afterAll(async () => site?.close());

  it('a visitor sees prices in USD and RUB and is asked to sign in to buy; the home page leads to the shop', async () => {
    await page.goto(server.url + '/', { waitUntil: 'networkidle' });
    await shown(page.getByRole('heading', { name: 'Shop', exact: true }));
    await page.locator('article', { hasText: 'Shop template' }).getByRole('link', { name: 'More' }).click();
    await page.waitForURL(/\/ecommerce\/products\/shop-template$/);
    const prices = page.getByTestId('prices');
    await shown(prices);
    expect(await prices.textContent()).toContain('$149');
    await page.getByRole('radio', { name: 'RUB' }).click();
    expect(await prices.locator('span').first().textContent()).toBe('₽11900');
    await shown(page.getByRole('link', { name: 'Login to buy' }));
    expect(await page.getByRole('button', { name: /Open cart/ }).count()).toBe(0);
  });

  it('adds to the cart, opens the drawer, checks out with the dummy provider, pays, and finds the order approved with its receipt', async () => {
    await page.goto(server.url + '/rbac/subject/authentication/email-and-password/registration', { waitUntil: 'networkidle' });
    await page.getByLabel('Email').fill('shopper@example.com');
    await page.getByLabel('Password').fill('shopper-password');
    await page.getByRole('button', { name: 'Create an account' }).click();
    await page.getByRole('status').getByText('Check your email').waitFor();
    // order mail goes to verified addresses only: the address is proven (as the mailed code would) by the system
    const identities = (await server.system('GET', '/api/rbac/identities?filters[and][0][column]=email&filters[and][0][method]=eq&filters[and][0][value]=shopper@example.com')).body.data;
    expect((await server.system('PATCH', `/api/rbac/identities/${identities[0].id}`, { data: { emailVerifiedAt: new Date().toISOString() } })).status).toBe(200);

    await page.goto(server.url + '/ecommerce/products/shop-template', { waitUntil: 'networkidle' });
    await shown(page.getByRole('button', { name: 'Add to cart' }));
    await page.getByLabel('Quantity', { exact: true }).fill('2');
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await shown(page.getByText('Updated successfully'));
    await shown(page.getByRole('button', { name: 'Delete' }));
    await shown(page.getByRole('button', { name: 'Open cart, 2 items' }));
    expect(await page.getByTestId('cart-badge').textContent()).toBe('2');
    // a second product from the other category
    await page.goto(server.url + '/ecommerce/products/hosting-plan', { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await shown(page.getByRole('button', { name: 'Open cart, 3 items' }));

    // the drawer, from the product's Checkout button
    await page.getByRole('button', { name: 'Checkout', exact: true }).click();
    const drawer = page.getByRole('dialog', { name: 'Cart' });
    await shown(drawer);
    const card = drawer.getByRole('article', { name: /^Order #/ });
    await shown(card);
    expect(await card.getByTestId('order-quantity').textContent()).toBe('3');
    expect(await card.getByTestId('order-total').textContent()).toBe('$307 · ₽24490');
    expect((await drawer.boundingBox())!.width).toBe(540);
    await page.screenshot({ path: join(SCREENSHOTS, 'shop-cart-drawer-1280.png') });
    const form = drawer.getByRole('form', { name: 'Checkout' });
    await form.getByRole('radio', { name: 'RUB' }).click();
    await expect.poll(() => form.getByLabel('Payment provider').inputValue()).toBe('dummy');
    expect(await form.getByLabel('Invoice email').inputValue()).toBe('shopper@example.com');
    await form.getByLabel('Comment').fill('Please send the invoice to accounting');
    await form.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SCREENSHOTS, 'shop-checkout-form-1280.png') });

    // the same cart on a phone
    const phone = await site.open(PHONE, '390', { signedIn: true });
    await phone.goto(server.url + '/ecommerce/products/shop-template', { waitUntil: 'networkidle' });
    await phone.getByRole('button', { name: 'Open cart, 3 items' }).click();
    const phoneDrawer = phone.getByRole('dialog', { name: 'Cart' });
    await shown(phoneDrawer.getByRole('article', { name: /^Order #/ }));
    expect((await phoneDrawer.boundingBox())!.width).toBe(390);
    await phone.screenshot({ path: join(SCREENSHOTS, 'shop-cart-drawer-390.png') });
    await phoneDrawer.getByRole('form', { name: 'Checkout' }).getByRole('button', { name: /^Checkout/ }).scrollIntoViewIfNeeded();
    await phone.screenshot({ path: join(SCREENSHOTS, 'shop-checkout-form-390.png') });
    await phone.close();

    // checkout: to the dummy provider's payment page, pay, and back to the orders page
    await form.getByRole('button', { name: 'Checkout ₽24490' }).click();
    await page.waitForURL(/\/billing\/dummy\/checkout\/[0-9a-f-]{36}\?token=/);
    await shown(page.getByRole('heading', { name: 'Test payment' }));
    expect(await page.getByTestId('amount').textContent()).toBe('₽24490.00 RUB');
    await page.screenshot({ path: join(SCREENSHOTS, 'shop-payment-page-1280.png') });
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.waitForURL(/\/ecommerce\/orders\?order=[0-9a-f-]{36}$/);
    const orderId = new URL(page.url()).searchParams.get('order')!;
    const order = page.getByRole('article', { name: `Order #${orderId}` });
    await shown(order);
    await shown(page.getByRole('status').filter({ hasText: 'Thank you!' }));
    await shown(order.getByText('Paid, being approved'));
    await shown(order.getByRole('img', { name: `Receipt of order #${orderId}` }));
    const receipt = await order.getByRole('link', { name: /Receipt/ }).getAttribute('href');
    expect(receipt).toMatch(/^\/files\/[0-9a-f-]{36}\.png$/);
    const png = await fetch(server.url + receipt!);
    expect(png.headers.get('content-type')).toBe('image/png');
    const bytes = Buffer.from(await png.arrayBuffer());
    expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([1500, 1500]);
    await page.screenshot({ path: join(SCREENSHOTS, 'shop-orders-1280.png'), fullPage: true });

    const stored = (await server.system('GET', `/api/ecommerce/orders/${orderId}`)).body.data;
    expect(stored).toMatchObject({ status: 'approving', type: 'history', receipt, comment: 'Please send the invoice to accounting' });
    // the cart is empty again, the order mail reached the buyer, and the order is in the admin's digest (sent when its
    // window ends)
    await shown(page.getByRole('button', { name: 'Open cart, 0 items' }));
    await eventually(async () => {
      expect(smtp.mails.some((m) => m.to.includes('shopper@example.com') && m.raw.includes(`Order #${orderId}`))).toBe(true);
      const admin = (await server.system('GET', '/api/notification/notifications?filters[and][0][column]=recipient&filters[and][0][method]=eq&filters[and][0][value]=owner@example.com')).body.data as { status: string; payload: { digest?: unknown; text: string } }[];
      expect(admin.some((n) => n.status === 'new' && n.payload.digest && n.payload.text.includes(`Order #${orderId}`))).toBe(true);
    });
    expect(problems).toEqual([]);
  });
});
