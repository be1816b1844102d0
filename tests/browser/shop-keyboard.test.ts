import { describe, it, expect, beforeAll, afterAll, afterEach } from 'vitest';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { SCREENSHOTS } from '../helpers/browser.js';
import { eventually, shown, startStorefront, type Storefront } from '../helpers/storefront.js';

/** what has the keyboard focus: its tag and accessible text */
const focused = (page: Page) => page.evaluate(() => {
  const a = document.activeElement as HTMLElement | null;
  return a && a !== document.body ? `${a.tagName.toLowerCase()} ${(a.getAttribute('aria-label') ?? a.textContent ?? '').trim()}` : 'body';
});

/**
 * The product's cart controls with the keyboard alone: the control pressed (Add to cart, Delete) is replaced by the
 * other state's, and the focus goes on to that state instead of falling back to the top of the page.
 * Screenshot .tmp/screenshots/keyboard-in-cart-1280.png.
 */
describe('shop by keyboard in Chromium', () => {
  let site: Storefront;
  let server: Storefront['server'];
  let page: Page;

  beforeAll(async () => {
    site = await startStorefront('keyboard');
    ({ server, page } = site);
    await page.goto(server.url + '/rbac/subject/authentication/email-and-password/registration', { waitUntil: 'networkidle' });
    await page.getByLabel('Email').fill('keyboard-shopper@example.com');
    await page.getByLabel('Password').fill('keyboard-shopper-password');
    await page.getByRole('button', { name: 'Create an account' }).click();
    await page.getByRole('status').getByText('Check your email').waitFor();
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await site?.failed(ctx.task.name);
  });
  afterAll(async () => site?.close());

  it('Enter on Add to cart leaves the focus on the product\'s cart controls, and Enter on Delete gives it to Add to cart', async () => {
    await page.goto(server.url + '/ecommerce/products/hosting-plan', { waitUntil: 'networkidle' });
    // a page load moves no focus
    expect(await focused(page)).toBe('body');
    await page.getByRole('button', { name: 'Add to cart' }).focus();
    await page.keyboard.press('Enter');
    await shown(page.getByRole('button', { name: 'Open cart, 1 item' }));
    await shown(page.getByText('In your cart'));
    // the focus moves in an effect after the controls are drawn: a moment after they show on a loaded machine
    await eventually(async () => expect(await focused(page)).toBe('p In your cart'));
    // the next Tab goes on inside the controls (Decrease is disabled at 1)
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('button Increase quantity of Hosting plan');
    await page.screenshot({ path: join(SCREENSHOTS, 'keyboard-in-cart-1280.png') });

    await page.getByRole('button', { name: 'Delete' }).focus();
    await page.keyboard.press('Enter');
    await shown(page.getByRole('button', { name: 'Open cart, 0 items' }));
    await shown(page.getByRole('button', { name: 'Add to cart' }));
    await eventually(async () => expect(await focused(page)).toBe('button Add to cart'));
    expect(site.problems).toEqual([]);
  });
});
