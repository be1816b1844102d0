import { describe, it, expect, beforeAll, afterAll, afterEach, vi } from 'vitest';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { SCREENSHOTS } from '../helpers/browser.js';
import { DESKTOP, eventually, horizontalOverflow, PHONE, shown, startStorefront, type Storefront } from '../helpers/storefront.js';

type Box = { x: number; y: number; width: number; height: number };
const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** the boxes of the visible links, buttons and form fields under `scope`, named for the failure message */
async function controls(scope: Locator): Promise<{ name: string; box: Box }[]> {
  const found: { name: string; box: Box }[] = [];
  for (const control of await scope.locator('a, button, input, select, textarea').all()) {
    const box = await control.boundingBox();
    if (!box || !box.width || !box.height || !(await control.isVisible())) continue;
    found.push({ name: ((await control.getAttribute('aria-label')) || (await control.textContent())?.trim() || (await control.getAttribute('name')) || (await control.getAttribute('id')) || '').trim(), box });
  }
  return found;
}

/** the names of the controls of `scope` that `box` covers */
const covered = async (scope: Locator, box: Box) => (await controls(scope)).filter((c) => overlap(c.box, box)).map((c) => c.name);

/**
 * The links and buttons (of `within`) in the viewport that `cover` (a selector) lies on: at one of five points of the control (its
 * centre and corners, 2 px in) the topmost element is inside `cover`. A control under an element above both (the
 * sticky header) is not covered by it, nor is a control scrolled under the sticky header (the header covers it, whatever
 * is drawn in its bar).
 */
const coveredBy = (page: Page, cover: string, within = 'body') =>
  page.evaluate(({ cover, within }) => {
    const hits: string[] = [];
    const top = Math.max(0, document.querySelector('header')?.getBoundingClientRect().bottom ?? 0);
    for (const control of document.querySelectorAll(`${within} a, ${within} button`)) {
      if (control.closest(cover)) continue;
      const r = control.getBoundingClientRect();
      if (!r.width || !r.height) continue;
      const points = [[r.left + r.width / 2, r.top + r.height / 2], [r.left + 2, r.top + 2], [r.right - 2, r.top + 2], [r.left + 2, r.bottom - 2], [r.right - 2, r.bottom - 2]];
      const inView = points.filter(([x, y]) => x >= 0 && y >= top && x < innerWidth && y < innerHeight);
      if (inView.some(([x, y]) => document.elementFromPoint(x, y)?.closest(cover))) hits.push((control.getAttribute('aria-label') ?? control.textContent ?? '').trim());
    }
    return hits;
  }, { cover, within });

const CART = 'button[aria-label^="Open cart"]';

/** a toast once it has slid in (sonner marks it mounted, then moves it for 400 ms) */
async function toastBox(page: Page, text: string): Promise<Box> {
  const toast = page.locator('[data-sonner-toast][data-mounted="true"]', { hasText: text });
  await shown(toast);
  await page.waitForTimeout(500);
  return (await toast.boundingBox())!;
}

/**
 * UX of the storefront where the shop has no payment provider switched on (BILLING_DUMMY=off, the production
 * default): checkout says why it cannot be paid; the change-password dialog drops a server error once the form is
 * edited or sent again; toasts and the cart button leave the header's controls and the page's links free.
 * Screenshots under .tmp/screenshots/ux-*.png.
 */
describe('storefront UX in Chromium, no payment provider', () => {
  let site: Storefront;
  let server: Storefront['server'];
  let page: Page;
  let problems: string[];

  beforeAll(async () => {
    // the billing plugin reads its providers from the process environment (plugins/billing/server/providers)
    vi.stubEnv('BILLING_DUMMY', 'off');
    site = await startStorefront('ux');
    ({ server, page, problems } = site);
    await page.goto(server.url + '/rbac/subject/authentication/email-and-password/registration', { waitUntil: 'networkidle' });
    await page.getByLabel('Email').fill('ux-shopper@example.com');
    await page.getByLabel('Password').fill('ux-shopper-password');
    await page.getByRole('button', { name: 'Create an account' }).click();
    await page.getByRole('status').getByText('Check your email').waitFor();
    await page.getByRole('link', { name: 'Continue' }).click();
    await page.waitForURL(server.url + '/');
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await site?.failed(ctx.task.name);
  });
  afterAll(async () => {
    await site?.close();
    vi.unstubAllEnvs();
  });

  it('an added product shows its toast at the bottom: clear of the header controls and the cart button, at 1280 and 390 px', async () => {
    await page.goto(server.url + '/ecommerce/products/shop-template', { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: 'Add to cart' }).click();
    const toast = await toastBox(page, 'Updated successfully');
    await page.screenshot({ path: join(SCREENSHOTS, 'ux-toast-1280.png') });
    expect(await covered(page.locator('header'), toast)).toEqual([]);
    expect(overlap(toast, (await page.getByRole('button', { name: /^Open cart/ }).boundingBox())!)).toBe(false);
    expect(toast.y).toBeGreaterThan(DESKTOP.height / 2);

    const phone = await site.open(PHONE, '390', { signedIn: true });
    await phone.goto(server.url + '/ecommerce/products/hosting-plan', { waitUntil: 'networkidle' });
    await phone.getByRole('button', { name: 'Add to cart' }).click();
    const phoneToast = await toastBox(phone, 'Updated successfully');
    await phone.screenshot({ path: join(SCREENSHOTS, 'ux-toast-390.png') });
    expect(await covered(phone.locator('header'), phoneToast)).toEqual([]);
    const cartButton = (await phone.getByRole('button', { name: /^Open cart/ }).boundingBox())!;
    expect(overlap(phoneToast, cartButton)).toBe(false);
    await phone.close();
  });

  it('a toast over the open cart drawer covers none of its controls and stays readable: on its title bar on a phone, beside it at 1280 px', async () => {
    for (const [viewport, label] of [[PHONE, '390'], [DESKTOP, '1280']] as const) {
      const p = await site.open(viewport, `${label} drawer`, { signedIn: true });
      await p.goto(server.url + '/ecommerce/products/landing-template', { waitUntil: 'networkidle' });
      if (label === '390') await p.getByRole('button', { name: 'Add to cart' }).click();
      await p.getByRole('button', { name: /^Open cart/ }).click();
      const drawer = p.getByRole('dialog', { name: 'Cart' });
      await shown(drawer.getByRole('button', { name: /^Checkout / }));
      // the toast of the product added, then the one of a change made in the drawer
      if (label === '1280') await drawer.getByRole('button', { name: 'Increase quantity of Landing template' }).click();
      for (const step of ['added', 'changed']) {
        const toast = await toastBox(p, 'Updated successfully');
        await p.screenshot({ path: join(SCREENSHOTS, `ux-drawer-toast-${label}-${step}.png`) });
        expect(await covered(drawer, toast), `${label} ${step}`).toEqual([]);
        expect(toast.x >= 0 && toast.y >= 0 && toast.x + toast.width <= viewport.width && toast.y + toast.height <= viewport.height).toBe(true);
        expect(toast.width).toBeGreaterThanOrEqual(240);
        if (step === 'changed') break;
        await p.locator('[data-sonner-toast]').first().waitFor({ state: 'detached', timeout: 15_000 });
        await drawer.getByRole('button', { name: 'Increase quantity of Landing template' }).click();
      }
      await p.close();
    }
  });

  it("the contact form's toast is at the bottom too, clear of the header", async () => {
    const phone = await site.open(PHONE, '390');
    await phone.goto(server.url + '/', { waitUntil: 'networkidle' });
    await phone.getByLabel('Your name').fill('Ada');
    await phone.getByLabel('Email').fill('ada@example.com');
    await phone.getByLabel('Message').fill('A shop in two languages, please.');
    await phone.getByRole('button', { name: 'Submit' }).click();
    const toast = await toastBox(phone, 'Form submitted successfully');
    await phone.screenshot({ path: join(SCREENSHOTS, 'ux-form-toast-390.png') });
    expect(await covered(phone.locator('header'), toast)).toEqual([]);
    expect(toast.y).toBeGreaterThan(PHONE.height / 2);
    await phone.close();
  });

  it('checkout with no provider switched on says so instead of an empty select, and stays disabled, in en and ru', async () => {
    expect((await server.api('GET', '/api/billing/providers')).body.data).toEqual({ providers: [], default: null });
    await page.goto(server.url + '/ecommerce/products/shop-template', { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: /^Open cart/ }).click();
    const form = page.getByRole('dialog', { name: 'Cart' }).getByRole('form', { name: 'Checkout' });
    const message = form.getByRole('status').filter({ hasText: 'No payment method is available yet' });
    await shown(message);
    expect(await form.locator('select').count()).toBe(0);
    expect(await form.getByRole('combobox').count()).toBe(0);
    const button = form.getByRole('button', { name: /^Checkout / });
    expect(await button.isDisabled()).toBe(true);
    // the disabled button is described by the reason
    const described = await button.getAttribute('aria-describedby');
    expect(described).toBeTruthy();
    expect(await page.locator(`[id="${described}"]`).textContent()).toBe(await message.textContent());
    // editing the other fields does not turn it on
    await form.getByLabel('Comment').fill('Whenever you can take money');
    expect(await button.isDisabled()).toBe(true);
    await message.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SCREENSHOTS, 'ux-checkout-no-provider-1280.png') });
    await page.keyboard.press('Escape');

    const phone = await site.open(PHONE, '390 ru', { signedIn: true });
    await phone.goto(server.url + '/ru/ecommerce/products/shop-template', { waitUntil: 'networkidle' });
    await phone.getByRole('button', { name: /^Открыть корзину/ }).click();
    const ruForm = phone.getByRole('dialog', { name: 'Корзина' }).getByRole('form', { name: 'Оформить заказ' });
    await shown(ruForm.getByRole('status').filter({ hasText: 'Способов оплаты пока нет' }));
    expect(await ruForm.locator('select').count()).toBe(0);
    expect(await ruForm.getByRole('button', { name: /^Оформить заказ / }).isDisabled()).toBe(true);
    await ruForm.getByRole('status').scrollIntoViewIfNeeded();
    await phone.screenshot({ path: join(SCREENSHOTS, 'ux-checkout-no-provider-390-ru.png') });
    await phone.close();
  });

  it('the cart button covers no link of the footer at any scroll, nor any control at the page end or a focused link, at 1280 and 390 px', async () => {
    for (const [viewport, label] of [[DESKTOP, '1280'], [PHONE, '390']] as const) {
      const p = await site.open(viewport, label, { signedIn: true });
      for (const path of ['/rbac/subject/authentication/select-method', '/ecommerce/orders', '/']) {
        await p.goto(server.url + path, { waitUntil: 'networkidle' });
        const cart = p.getByRole('button', { name: /^Open cart/ });
        await shown(cart);
        await p.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        await p.waitForTimeout(200);
        expect(await coveredBy(p, CART), `${label} ${path}`).toEqual([]);
        if (path === '/rbac/subject/authentication/select-method') await p.screenshot({ path: join(SCREENSHOTS, `ux-page-end-${label}.png`) });
      }
      // scrolled through the page in 20 px steps: the button never rests on a link of the footer (docked above it)
      await p.goto(server.url + '/rbac/subject/authentication/select-method', { waitUntil: 'networkidle' });
      await shown(p.getByRole('button', { name: /^Open cart/ }));
      const underButton = new Set<string>();
      const end = await p.evaluate(() => document.documentElement.scrollHeight - innerHeight);
      for (let y = 0; y <= end + 20; y += 20) {
        await p.evaluate((y) => window.scrollTo(0, y), Math.min(y, end));
        for (const name of await coveredBy(p, CART, 'footer')) underButton.add(`${name} at ${Math.min(y, end)}`);
      }
      expect([...underButton], label).toEqual([]);
      await p.screenshot({ path: join(SCREENSHOTS, `ux-page-full-${label}.png`), fullPage: true });
      // keyboard focus brings a footer link above the button, not under it
      for (const name of ['Create an account', 'Forgot password']) {
        await p.evaluate(() => window.scrollTo(0, 0));
        const link = p.locator('footer').getByRole('link', { name, exact: true });
        await link.focus();
        await p.waitForTimeout(100);
        const box = (await link.boundingBox())!;
        expect(overlap(box, (await p.getByRole('button', { name: /^Open cart/ }).boundingBox())!), `${label} ${name}`).toBe(false);
        const hit = await p.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest('a')?.textContent ?? null, { x: box.x + box.width / 2, y: box.y + box.height / 2 });
        expect(hit).toBe(name);
      }
      await p.close();
    }
    // a visitor has no cart button, and the page keeps no room for one
    const visitor = await site.open(DESKTOP, 'visitor');
    await visitor.goto(server.url + '/', { waitUntil: 'networkidle' });
    expect(await visitor.getByRole('button', { name: /^Open cart/ }).count()).toBe(0);
    expect((await visitor.locator('[data-floating-dock]').boundingBox())?.height ?? 0).toBe(0);
    await visitor.close();
    expect(problems).toEqual([]);
  });

  it("the cart button covers no control of the account settings, at the first screen (its Delete on a phone) or at any scroll, at 390 and 1280 px", async () => {
    for (const [viewport, label] of [[PHONE, '390'], [DESKTOP, '1280']] as const) {
      const p = await site.open(viewport, label, { signedIn: true });
      await p.goto(server.url + '/rbac/subjects/settings', { waitUntil: 'networkidle' });
      await shown(p.getByRole('button', { name: /^Open cart/ }));
      await shown(p.locator('main').getByRole('button', { name: 'Delete' }));
      await p.waitForTimeout(200);
      await p.screenshot({ path: join(SCREENSHOTS, `ux-settings-${label}.png`) });
      const under = new Set<string>();
      const end = await p.evaluate(() => document.documentElement.scrollHeight - innerHeight);
      for (let y = 0; y <= end + 20; y += 20) {
        await p.evaluate((y) => window.scrollTo(0, y), Math.min(y, end));
        for (const name of await coveredBy(p, CART, 'main')) under.add(`${name} at ${Math.min(y, end)}`);
      }
      expect([...under], label).toEqual([]);
      await p.close();
    }
  });

  it('a title of one long unbroken word wraps: no sideways scroll on a phone, on its page and on its card', async () => {
    const word = 'Supercalifragilisticexpialidocious'.repeat(4);
    const made = await server.system('POST', '/api/ecommerce/products', { data: { slug: 'long-word', title: { en: word } } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    // in the seeded 'templates' category, whose page draws its products as cards
    expect((await server.system('POST', '/api/ecommerce/categories-to-products', { data: { categoryId: '6f1c2a40-0000-4000-8000-000000000201', productId: made.body.data.id } })).status).toBe(201);
    const phone = await site.open(PHONE, 'long-word');
    for (const path of ['/ecommerce/products/long-word', '/ecommerce/categories/templates']) {
      await phone.goto(server.url + path, { waitUntil: 'networkidle' });
      await shown(phone.getByText(word));
      expect(await horizontalOverflow(phone), path).toBe(0);
    }
    await phone.screenshot({ path: join(SCREENSHOTS, 'ux-long-word-390.png') });
    await phone.close();
    await server.system('DELETE', `/api/ecommerce/products/${made.body.data.id}`);
  });

  it("a category of 30 products shows 24, and 'Show 6 more of 6' fetches the rest from the server; the focus moves to the first new card", async () => {
    const post = async (path: string, data: unknown) => {
      const r = await server.system('POST', path, { data });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body.data;
    };
    const category = await post('/api/ecommerce/categories', { slug: 'thirty', title: { en: 'Thirty things' } });
    const products = (await post('/api/ecommerce/products/bulk', Array.from({ length: 30 }, (_, i) => ({ slug: `thing-${i}`, title: { en: `Thing ${i}` } })))) as { id: string }[];
    await post('/api/ecommerce/categories-to-products/bulk', products.map((p, i) => ({ categoryId: category.id, productId: p.id, orderIndex: i })));
    const before = problems.length;
    await page.goto(server.url + '/ecommerce/categories/thirty', { waitUntil: 'networkidle' });
    const list = page.getByRole('list', { name: 'Thirty things' });
    await expect.poll(() => list.getByRole('listitem').count()).toBe(24);
    // the page shipped 24 products, not 30
    const shipped = await page.locator('#__PAGE__').textContent();
    expect(shipped).toContain('Thing 23');
    expect(shipped).not.toContain('Thing 24');
    const asked: string[] = [];
    page.on('request', (r) => void (r.url().includes('/api/host/pages/rows') && asked.push(r.url())));
    await page.getByRole('button', { name: 'Show 6 more of 6' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => list.getByRole('listitem').count()).toBe(30);
    expect(asked).toHaveLength(1);
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('[role="listitem"]')?.textContent ?? '')).toContain('Thing 24');
    await expect.poll(() => page.getByRole('button', { name: /^Show \d+ more/ }).count()).toBe(0);
    await page.screenshot({ path: join(SCREENSHOTS, 'ux-show-more-1280.png') });
    // drawn again (the cached copy dropped), the server reads 25 products and counts the rest: the same page, and it
    // hydrates
    expect((await server.system('GET', '/api/revalidation/revalidate?path=/ecommerce/categories/thirty')).status).toBe(200);
    await page.reload({ waitUntil: 'networkidle' });
    await expect.poll(() => list.getByRole('listitem').count()).toBe(24);
    await page.getByRole('button', { name: 'Show 6 more of 6' }).click();
    await expect.poll(() => list.getByRole('listitem').count()).toBe(30);
    await expect.poll(() => list.getByRole('listitem').last().textContent()).toContain('Thing 29');
    // no hydration mismatch, no failed request
    expect(problems.slice(before)).toEqual([]);
  });

  it("the phone menu keeps the keyboard in it, and Escape closes the account panel in it before the menu", async () => {
    const phone = await site.open(PHONE, 'menu-keys', { signedIn: true });
    await phone.goto(server.url + '/', { waitUntil: 'networkidle' });
    const toggle = phone.getByRole('button', { name: 'Open menu' });
    await toggle.click();
    const close = phone.getByRole('button', { name: 'Close menu' });
    await shown(close);
    // Tab and Shift+Tab, well past the menu's length: focus never leaves the header (the bar and the menu)
    const inHeader = () => phone.evaluate(() => !!document.activeElement?.closest('header'));
    for (const key of [...Array(25).fill('Tab'), ...Array(25).fill('Shift+Tab')]) {
      await phone.keyboard.press(key);
      expect(await inHeader(), key).toBe(true);
    }
    // the account panel inside the menu: one Escape closes it alone, the next closes the menu
    const account = phone.getByRole('button', { name: 'ux-shopper@example.com' });
    await account.click();
    const settings = phone.locator('header').getByRole('link', { name: 'Settings' });
    await shown(settings);
    await phone.keyboard.press('Escape');
    await eventually(async () => expect(await settings.count()).toBe(0));
    expect(await close.getAttribute('aria-expanded')).toBe('true');
    expect(await account.evaluate((el) => el === document.activeElement)).toBe(true);
    await phone.keyboard.press('Escape');
    await shown(toggle);
    expect(await toggle.evaluate((el) => el === document.activeElement)).toBe(true);
    await phone.close();
  });

  it('the skip link, once focused, is drawn above the sticky header', async () => {
    await page.goto(server.url + '/', { waitUntil: 'networkidle' });
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    await eventually(async () => expect(await skip.evaluate((el) => el === document.activeElement)).toBe(true));
    expect(await skip.evaluate((el) => {
      const r = el.getBoundingClientRect();
      return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === el;
    })).toBe(true);
  });

  it('the account dialogs opened from the keyboard start on their first field, not on Close, and Escape gives the focus back', async () => {
    await page.goto(server.url + '/rbac/subjects/settings', { waitUntil: 'networkidle' });
    for (const [button, field] of [['Change email', 'Email'], ['Change Password', 'Current password'], ['Add email', 'Email']] as const) {
      const opener = page.locator('main').getByRole('button', { name: button, exact: true });
      await opener.focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: button });
      await shown(dialog);
      await eventually(async () => expect(await dialog.getByLabel(field, { exact: true }).evaluate((el) => el === document.activeElement), button).toBe(true));
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      // the dialog hands the focus back as it unmounts, which may be a moment after it left the DOM (one CI run in two)
      await eventually(async () => expect(await opener.evaluate((el) => el === document.activeElement), button).toBe(true));
    }
  });

  it("Change Password: the server's error goes once the form is sent again or edited", async () => {
    await page.goto(server.url + '/rbac/subjects/settings', { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: 'Change Password' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change Password' });
    await shown(dialog);
    const serverError = dialog.getByRole('alert').filter({ hasText: 'The current password is wrong' });

    // a wrong current password: the server says so
    await dialog.getByLabel('Current password').fill('not-my-password');
    await dialog.getByLabel('New password').fill('a-new-password');
    await dialog.getByRole('button', { name: 'Update password' }).click();
    await shown(serverError);
    await page.screenshot({ path: join(SCREENSHOTS, 'ux-change-password-server-error-1280.png') });

    // sent again with a new password too short: only the field's own check shows
    await dialog.getByLabel('New password').fill('short');
    await dialog.getByRole('button', { name: 'Update password' }).click();
    await shown(dialog.getByText('Use at least 8 characters'));
    expect(await serverError.count()).toBe(0);
    expect(await dialog.getByRole('alert').allTextContents()).toEqual(['Use at least 8 characters']);
    await page.screenshot({ path: join(SCREENSHOTS, 'ux-change-password-check-1280.png') });

    // the server's error again, then an edit alone clears it
    await dialog.getByLabel('New password').fill('a-new-password');
    await dialog.getByRole('button', { name: 'Update password' }).click();
    await shown(serverError);
    await dialog.getByLabel('Current password').fill('ux-shopper-passwor');
    await eventually(async () => expect(await serverError.count()).toBe(0));

    // and the right password changes it (last: the other tests use this session)
    await dialog.getByLabel('Current password').fill('ux-shopper-password');
    await dialog.getByRole('button', { name: 'Update password' }).click();
    await shown(page.getByText('Updated successfully'));
    await eventually(async () => expect(await dialog.count()).toBe(0));
    const signIn = await server.api('POST', '/api/rbac/subjects/authentication/email-and-password/authentication', { data: { login: 'ux-shopper@example.com', password: 'a-new-password' } });
    expect(signIn.status).toBe(200);
  });
});
