import { describe, it, expect, beforeAll, afterAll, afterEach, vi } from 'vitest';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { adminInBrowser } from '../helpers/admin.js';
import { SCREENSHOTS } from '../helpers/browser.js';

/**
 * The admin's forms and keyboard, as a tester found them wanting: a required enum (or one with a default) offers
 * no blank choice and a new row starts on its default; the admin title and slug the server generates when
 * blank are not required (spec §5), a hint says so and an empty Add new creates; a refused input logs no
 * console error; a 'Skip to content' link is the first thing Tab reaches and takes the focus into main.
 */

const shown = (l: Locator) => l.first().waitFor({ state: 'visible', timeout: 15_000 });
const eventually = <T>(fn: () => Promise<T>) => vi.waitFor(fn, { timeout: 15_000, interval: 100 });
const attrIs = (l: Locator, name: string, v: string) => eventually(async () => expect(await l.getAttribute(name)).toBe(v));
const optionsOf = (select: Locator) => select.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));

const ADMIN = 'admin@example.com';
const PASSWORD = 'admin-password';

describe('admin forms and keyboard in Chromium', () => {
  let admin: Awaited<ReturnType<typeof adminInBrowser>>;
  let server: Awaited<ReturnType<typeof adminInBrowser>>['server'];
  let page: Page;
  const pageErrors: string[] = [];
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    admin = await adminInBrowser(ADMIN, PASSWORD);
    ({ server, page } = admin);
    page.on('pageerror', (e) => pageErrors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
    await admin.signIn();
  });
  afterEach((ctx) => admin?.screenshotIfFailed(ctx, 'failed-form-ux'));
  afterAll(() => admin?.close());

  const table = (entity: string) => page.locator(`section[data-entity="${entity}"]`).first();
  const dialog = () => page.getByRole('dialog').last();

  it('the first Tab reaches "Skip to content", shown on focus; Enter moves the focus into main, the next Tab to the table', async () => {
    await page.goto(`${server.url}/admin/ecommerce/products`);
    await shown(table('ecommerce/product').getByRole('button', { name: 'Add new' }));
    const skip = page.getByRole('link', { name: 'Skip to content' });
    // hidden until focused
    expect((await skip.boundingBox())?.width ?? 0).toBeLessThanOrEqual(1);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    const box = await skip.boundingBox();
    expect(box!.width).toBeGreaterThan(50);
    expect(box!.y).toBeGreaterThanOrEqual(0);
    expect(box!.y).toBeLessThan(100);
    await page.screenshot({ path: join(SCREENSHOTS, 'admin-skip-link.png'), clip: { x: 0, y: 0, width: 700, height: 160 } });
    await page.keyboard.press('Enter');
    const focused = await page.evaluate(() => ({ id: document.activeElement?.id, inMain: !!document.activeElement?.closest('main') }));
    expect(focused).toEqual({ id: 'admin-content', inMain: true });
    // past the filter box, the checkbox, the models and the header: the table's own controls come next
    await page.keyboard.press('Tab');
    const next = await page.evaluate(() => ({ inTable: !!document.activeElement?.closest('section[data-entity="ecommerce/product"]'), inNav: !!document.activeElement?.closest('nav') }));
    expect(next).toEqual({ inTable: true, inNav: false });
  });

  it('Add new: the admin title and slug are not required, a hint says they are generated; the choices start on their defaults; blank creates', async () => {
    await table('ecommerce/product').getByRole('button', { name: 'Add new' }).first().click();
    const form = dialog();
    const adminTitle = form.getByLabel('Admin title', { exact: true });
    await shown(adminTitle);
    expect(await form.locator('label', { hasText: 'Admin title' }).textContent()).not.toContain('required');
    for (const name of ['Admin title', 'Slug']) {
      const describedBy = await form.getByLabel(name, { exact: true }).getAttribute('aria-describedby');
      expect(await page.locator(`[id="${describedBy}"]`).textContent()).toBe('Generated when left blank');
    }
    // the selects show what will be saved: the manifest's defaults, and no blank choice
    const type = form.getByLabel('Type', { exact: true });
    expect(await type.inputValue()).toBe('one_off');
    expect(await optionsOf(type)).toEqual(['one_off', 'subscription']);
    const variant = form.getByLabel('Variant', { exact: true });
    expect(await variant.inputValue()).toBe('default');
    expect(await optionsOf(variant)).not.toContain('');
    await page.screenshot({ path: join(SCREENSHOTS, 'admin-add-product-generated.png') });
    await form.getByRole('button', { name: 'Create' }).click();
    await shown(page.getByText('Created successfully'));
    await shown(form.getByRole('button', { name: 'Update' }));
    const rows = (await server.system('GET', '/api/ecommerce/products')).body.data as Record<string, unknown>[];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ adminTitle: expect.stringMatching(/\S/), slug: expect.stringMatching(/^[a-z0-9-]+$/), type: 'one_off', variant: 'default' });
    // the form now holds what the server generated
    expect(await adminTitle.inputValue()).toBe(rows[0]!.adminTitle);
    await page.keyboard.press('Escape');
    await eventually(async () => expect(await page.getByRole('dialog').count()).toBe(0));
  });

  it('Edit: a required enum with a default (an order’s status) offers no blank choice, and saves the one chosen', async () => {
    const created = await server.system('POST', '/api/ecommerce/orders', { data: {} });
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    await page.goto(`${server.url}/admin/ecommerce/orders/${id}`);
    const form = dialog();
    const status = form.getByLabel('Status', { exact: true });
    await shown(status);
    expect(await status.inputValue()).toBe('new');
    expect(await optionsOf(status)).toEqual(['new', 'paying', 'approving', 'packaging', 'delivering', 'delivered', 'canceled']);
    expect(await optionsOf(form.getByLabel('Type', { exact: true }))).toEqual(['cart', 'history']);
    await page.screenshot({ path: join(SCREENSHOTS, 'admin-edit-order-status.png') });
    await status.selectOption('delivered');
    await form.getByRole('button', { name: 'Update' }).click();
    await shown(page.getByText('Updated successfully'));
    expect((await server.system('GET', `/api/ecommerce/orders/${id}`)).body.data.status).toBe('delivered');
    await page.keyboard.press('Escape');
    await eventually(async () => expect(await page.getByRole('dialog').count()).toBe(0));
  });

  it('a refused input is said beside its field and logs no console error', async () => {
    await page.goto(`${server.url}/admin/ecommerce/products`);
    await table('ecommerce/product').getByRole('button', { name: 'Add new' }).first().click();
    const form = dialog();
    await form.getByLabel('Admin title', { exact: true }).fill('Desk lamp');
    await form.getByLabel('Slug', { exact: true }).fill('Not A Slug');
    consoleErrors.length = 0;
    await form.getByRole('button', { name: 'Create' }).click();
    await shown(form.getByRole('alert').filter({ hasText: 'Use only lowercase letters, digits and hyphens' }));
    await attrIs(form.getByLabel('Slug', { exact: true }), 'aria-invalid', 'true');
    // a required field left empty is refused the same way (a page's url)
    await page.keyboard.press('Escape');
    await page.getByRole('alertdialog', { name: 'Discard unsaved changes?' }).getByRole('button', { name: 'Discard' }).click();
    await page.goto(`${server.url}/admin/host/pages`);
    await table('host/page').getByRole('button', { name: 'Add new' }).first().click();
    await dialog().getByRole('button', { name: 'Create' }).click();
    await shown(dialog().getByRole('alert').filter({ hasText: 'Required' }));
    await page.waitForTimeout(200);
    expect(consoleErrors).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it("a date-only field (an attribute's Date) is typed and shown DD.MM.YYYY like its cell, sent and kept as YYYY-MM-DD, west and east of Greenwich", async () => {
    const session = await page.context().storageState();
    for (const [timezoneId, day] of [['America/Los_Angeles', '15'], ['Pacific/Kiritimati', '16']] as const) {
      const zoned = await page.context().browser()!.newContext({ viewport: { width: 1400, height: 900 }, timezoneId, storageState: session });
      const p = await zoned.newPage();
      const sent: unknown[] = [];
      p.on('request', (r) => r.url().includes('/api/ecommerce/attributes') && r.method() !== 'GET' && sent.push(r.postDataJSON()?.data?.date));
      await p.goto(`${server.url}/admin/ecommerce/attributes`);
      await p.locator('section[data-entity="ecommerce/attribute"]').getByRole('button', { name: 'Add new' }).first().click();
      const date = p.getByRole('dialog').last().getByLabel('Date', { exact: true });
      await shown(date);
      expect(await date.getAttribute('placeholder')).toBe('DD.MM.YYYY');
      await date.fill(`${day}.03.2026`);
      await date.press('Tab');
      await p.getByRole('dialog').last().getByRole('button', { name: 'Create' }).click();
      await shown(p.getByText('Created successfully'));
      expect(sent).toEqual([`2026-03-${day}`]);
      // the admin then opens the new row's edit dialog at its own address: wait for it, not for a time
      await p.waitForURL(/\/admin\/ecommerce\/attributes\/[0-9a-f-]{36}(\?.*)?$/);
      const id = new URL(p.url()).pathname.split('/').at(-1)!;
      expect((await server.system('GET', `/api/ecommerce/attributes/${id}`)).body.data.date).toBe(`2026-03-${day}`);
      // after a reload the form and the table's cell show the same day
      await p.reload();
      const form = p.getByRole('dialog', { name: /^Edit: Attribute/ });
      const again = form.getByLabel('Date', { exact: true });
      await shown(again);
      expect(await again.inputValue()).toBe(`${day}.03.2026`);
      await shown(p.locator('section[data-entity="ecommerce/attribute"]').getByText(`${day}.03.2026`));
      // a day picked in the calendar is that day
      await form.getByRole('button', { name: 'Choose date', exact: true }).click();
      await p.getByRole('dialog', { name: 'Choose date', exact: true }).getByRole('button', { name: /March 20th, 2026/ }).click();
      expect(await again.inputValue()).toBe('20.03.2026');
      await p.keyboard.press('Escape');
      await form.getByRole('button', { name: 'Update' }).click();
      await shown(p.getByText('Updated successfully'));
      expect(sent.at(-1)).toBe('2026-03-20');
      expect((await server.system('GET', `/api/ecommerce/attributes/${id}`)).body.data.date).toBe('2026-03-20');
      await p.screenshot({ path: join(SCREENSHOTS, `admin-date-field-${timezoneId.replace('/', '-')}.png`) });
      await zoned.close();
    }
  });
});
