import { describe, it, expect, beforeAll, afterAll, afterEach } from 'vitest';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { SCREENSHOTS } from '../helpers/browser.js';
import { DESKTOP, PHONE, shown, startStorefront, type Storefront } from '../helpers/storefront.js';

const ORDERS = '**/ecommerce-module/orders';

/** the text of the newest toast once it has slid in */
async function toastText(page: Page): Promise<string> {
  const toast = page.locator('[data-sonner-toast][data-mounted="true"]').first();
  await shown(toast);
  return (await toast.textContent())!.trim();
}

/**
 * The shop when the way to the server fails, as a shopper on a bad connection or behind a failing proxy meets it:
 * what the cart's toasts say and whether the buttons come back. Screenshots under .tmp/screenshots/failures-*.png.
 */
describe('shop failures in Chromium', () => {
  let site: Storefront;
  let server: Storefront['server'];
  let page: Page;

  beforeAll(async () => {
    site = await startStorefront('failures');
    ({ server, page } = site);
    await page.goto(server.url + '/rbac/subject/authentication/email-and-password/registration', { waitUntil: 'networkidle' });
    await page.getByLabel('Email').fill('failing-shopper@example.com');
    await page.getByLabel('Password').fill('failing-shopper-password');
    await page.getByRole('button', { name: 'Create an account' }).click();
    await page.getByRole('status').getByText('Check your email').waitFor();
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await site?.failed(ctx.task.name);
  });
  afterAll(async () => site?.close());

  it("a proxy's error page (no JSON message) is told as a failure in the page's language, not as a bare status code", async () => {
    for (const [path, viewport, status, expected] of [
      ['/ecommerce/products/shop-template', DESKTOP, 502, 'Something went wrong (502)'],
      ['/ru/ecommerce/products/shop-template', PHONE, 503, 'Произошла ошибка (503)'],
    ] as const) {
      const p = await site.open(viewport, `${status}`, { signedIn: true });
      await p.route(ORDERS, (r) => (r.request().method() === 'POST' ? r.fulfill({ status, contentType: 'text/html', body: '<html><body><h1>Bad gateway</h1></body></html>' }) : r.fallback()));
      await p.goto(server.url + path, { waitUntil: 'networkidle' });
      await p.locator('main').getByRole('button', { name: /^(Add to cart|В корзину)$/ }).click();
      expect(await toastText(p)).toBe(expected);
      await p.screenshot({ path: join(SCREENSHOTS, `failures-proxy-${viewport.width}.png`) });
      await p.close();
    }
  });

  it('offline, Add to cart says at once that the server could not be reached and gives the button back', async () => {
    await page.goto(server.url + '/ecommerce/products/landing-template', { waitUntil: 'networkidle' });
    await page.context().setOffline(true);
    try {
      await page.getByRole('button', { name: 'Add to cart' }).click();
      expect(await toastText(page)).toBe('The server could not be reached. Check your connection and try again.');
      await shown(page.getByRole('button', { name: 'Add to cart' }));
      expect(await page.getByRole('button', { name: 'Add to cart' }).isEnabled()).toBe(true);
      await page.screenshot({ path: join(SCREENSHOTS, 'failures-offline-1280.png') });
    } finally {
      await page.context().setOffline(false);
    }
    // back online, the same button adds it
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await shown(page.getByRole('button', { name: 'Open cart, 1 item' }));
  });
});
