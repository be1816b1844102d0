import { describe, it, expect, beforeAll, afterAll, afterEach, vi } from 'vitest';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { adminInBrowser } from '../helpers/admin.js';
import { SCREENSHOTS } from '../helpers/browser.js';


/** playwright-core has no test runner: these wait the way its assertions would */
const shown = (l: Locator) => l.first().waitFor({ state: 'visible', timeout: 15_000 });
const hidden = (l: Locator) => l.first().waitFor({ state: 'hidden', timeout: 15_000 });
const eventually = <T>(fn: () => Promise<T>) => vi.waitFor(fn, { timeout: 15_000, interval: 100 });
const countIs = (l: Locator, n: number) => eventually(async () => expect(await l.count()).toBe(n));
const attrIs = (l: Locator, name: string, v: string) => eventually(async () => expect(await l.getAttribute(name)).toBe(v));
const textIn = (l: Locator, t: string, present = true) => eventually(async () => expect((await l.textContent()) ?? '').toEqual(present ? expect.stringContaining(t) : expect.not.stringContaining(t)));

const ADMIN = 'admin@example.com';
const PASSWORD = 'admin-password';

describe('admin back office in Chromium', () => {
  let admin: Awaited<ReturnType<typeof adminInBrowser>>;
  let server: Awaited<ReturnType<typeof adminInBrowser>>['server'];
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    admin = await adminInBrowser(ADMIN, PASSWORD);
    ({ server, page } = admin);
    page.on('pageerror', (e) => errors.push(e.message));
  });
  afterEach((ctx) => admin?.screenshotIfFailed(ctx));
  afterAll(() => admin?.close());

  const table = (entity: string) => page.locator(`section[data-entity="${entity}"]`).first();
  const dialog = () => page.getByRole('dialog').last();

  it('signs in as an admin and lists the models by module', async () => {
    await page.goto(`${server.url}/admin/`);
    await page.getByLabel('Email').fill(ADMIN);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Login' }).click();
    const nav = page.getByRole('navigation', { name: 'Models' });
    await shown(nav.getByRole('link', { name: 'Product', exact: true }));
    const ecommerce = await nav.locator('h2:text-is("Ecommerce") + ul a').allTextContents();
    expect(ecommerce).toEqual([...ecommerce].sort());
    await page.getByRole('button', { name: 'Hide' }).first().click();
    await hidden(nav);
    await page.getByRole('button', { name: 'Show' }).first().click();
    await nav.getByRole('link', { name: 'Product', exact: true }).click();
    await page.waitForURL(/\/admin\/ecommerce\/products$/);
    await shown(table('ecommerce/product').getByText('No found items'));
  });

  it('creates a product with an en and a ru title', async () => {
    await table('ecommerce/product').getByRole('button', { name: 'Add new' }).first().click();
    const form = dialog();
    await form.getByLabel('Admin title').fill('Browser lamp');
    await form.getByRole('tab', { name: 'EN' }).first().click();
    await form.locator('input[lang="en"]').first().fill('Lamp');
    await form.getByRole('tab', { name: 'RU' }).first().click();
    await form.locator('input[lang="ru"]').first().fill('Лампа');
    await form.getByRole('button', { name: 'Create' }).click();
    await shown(page.getByText('Created successfully'));
    // the new row stays open, now in its edit form (its relations can be added)
    await shown(form.getByRole('button', { name: 'Update' }));
    await page.keyboard.press('Escape');
    await countIs(page.getByRole('dialog'), 0);
    await shown(table('ecommerce/product').getByRole('cell', { name: 'Browser lamp' }));
    const rows = (await server.api('GET', '/api/ecommerce/products?filters[and][0][column]=adminTitle&filters[and][0][method]=eq&filters[and][0][value]=Browser%20lamp')).body.data;
    expect(rows[0].title).toEqual({ en: 'Lamp', ru: 'Лампа' });
    await page.screenshot({ path: join(SCREENSHOTS, 'admin-products.png') });
  });

  it('shows validation errors next to the field: the manifest rules in the browser, the server answer after', async () => {
    await table('ecommerce/product').getByRole('button', { name: 'Add new' }).first().click();
    const form = dialog();
    // the admin title and slug are generated when left blank (spec §5): not required, a hint says so
    await shown(form.getByText('Generated when left blank'));
    // the slug follows the title as it is typed
    await form.getByLabel('Admin title').fill('Desk lamp');
    expect(await form.getByLabel('Slug').inputValue()).toBe('desk-lamp');
    await form.getByLabel('Slug').fill('Not A Slug');
    await form.getByRole('button', { name: 'Create' }).click();
    // the manifest's pattern, in words, beside the field, which has the focus
    await shown(form.getByRole('alert').filter({ hasText: 'Use only lowercase letters, digits and hyphens' }));
    await attrIs(form.getByLabel('Slug'), 'aria-invalid', 'true');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe(await form.getByLabel('Slug').getAttribute('id'));
    expect((await server.system('POST', '/api/ecommerce/products', { data: { slug: 'taken-slug', adminTitle: 'Zz taken' } })).status).toBe(201);
    await form.getByLabel('Slug').fill('taken-slug');
    await form.getByRole('button', { name: 'Create' }).click();
    await shown(form.getByRole('alert').filter({ hasText: 'slug is already taken' }));
    await attrIs(form.getByRole('button', { name: 'Create' }), 'data-status', 'error');
    // one message, beside the field: no toast repeats it
    expect(await page.locator('[data-sonner-toast]').filter({ hasText: 'already taken' }).count()).toBe(0);
    // unsaved work: Escape asks before it throws it away
    await page.keyboard.press('Escape');
    await page.getByRole('alertdialog', { name: 'Discard unsaved changes?' }).getByRole('button', { name: 'Discard' }).click();
    await countIs(page.getByRole('dialog'), 0);
  });

  it('finds, edits, pages and sorts', async () => {
    const bulk = Array.from({ length: 24 }, (_, i) => ({ slug: `item-${String(i).padStart(2, '0')}`, adminTitle: `Item ${String(i).padStart(2, '0')}` }));
    expect((await server.system('POST', '/api/ecommerce/products/bulk', { data: bulk })).status).toBe(201);
    const products = table('ecommerce/product');
    await page.reload();
    await shown(products.getByText('26 items'));
    await shown(products.getByText('Page 1 of 2'));
    await products.getByRole('button', { name: 'Next page' }).click();
    await shown(products.getByText('Page 2 of 2'));
    await countIs(products.locator('tbody tr'), 6);
    await products.getByRole('button', { name: 'Admin title' }).click();
    await shown(products.getByText('Page 1 of 2'));
    await textIn(products.locator('tbody tr').first(), 'Browser lamp');
    await countIs(products.locator('th[aria-sort="ascending"]'), 1);
    await products.getByRole('button', { name: 'Admin title' }).click();
    await countIs(products.locator('th[aria-sort="descending"]'), 1);
    await textIn(products.locator('tbody tr').first(), 'Zz taken');

    await products.getByRole('searchbox').fill('lamp');
    await countIs(products.locator('tbody tr'), 1);
    await products.locator('tbody tr').first().getByRole('button', { name: 'Edit' }).click();
    const form = dialog();
    await shown(form.getByLabel('Admin title'));
    const box = await form.boundingBox();
    expect(box!.height).toBeGreaterThan(900 * 0.75);
    await form.getByLabel('Admin title').fill('Browser lamp XL');
    await form.getByRole('button', { name: 'Update' }).click();
    await shown(page.getByText('Updated successfully'));
    await attrIs(form.getByRole('button', { name: 'Update' }), 'data-status', 'success');
  });

  it('adds a relation by picking the far row in the nested section, with the foreign key filled in', async () => {
    const attr = await server.system('POST', '/api/ecommerce/attributes', { data: { adminTitle: 'Price 99', number: 99 } });
    expect(attr.status).toBe(201);
    const form = dialog();
    const nested = form.locator('section[data-entity="ecommerce/products-to-attributes"]');
    await shown(nested.getByRole('heading', { name: 'Attributes' }));
    // a relation with no rows is folded
    await attrIs(nested.getByRole('button', { name: /^Attributes/ }), 'aria-expanded', 'false');
    await nested.getByRole('button', { name: 'Add' }).click();
    const add = page.getByRole('dialog', { name: 'Add attributes' });
    await add.getByRole('searchbox').fill('Price');
    await add.getByRole('checkbox', { name: /Price 99/ }).check();
    await add.getByRole('button', { name: 'Add 1' }).click();
    await shown(page.getByText('Created successfully').last());
    await countIs(nested.getByRole('link', { name: 'Price 99' }), 1);
    const links = (await server.system('GET', '/api/ecommerce/products-to-attributes')).body.data;
    expect(links).toHaveLength(1);
    expect(links[0].attributeId).toBe(attr.body.data.id);
    await page.keyboard.press('Escape');
  });

  it('deletes after the confirm', async () => {
    await page.keyboard.press('Escape');
    const products = table('ecommerce/product');
    await products.locator('tbody tr').first().getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete?' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await countIs(products.locator('tbody tr'), 1);
    await products.locator('tbody tr').first().getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog', { name: 'Delete?' }).getByRole('button', { name: 'Delete' }).click();
    await shown(page.getByText('Deleted successfully'));
    await shown(products.getByText('Nothing matches "lamp"'));
    expect((await server.api('GET', '/api/ecommerce/products/count')).body.data).toBe(25);
    expect(errors).toEqual([]);
  });

  it("a signed-in subject who is not an admin sees 'Not authorized'", async () => {
    await server.api('POST', '/api/rbac/subjects/authentication/email-and-password/registration', { data: { login: 'member@example.com', password: 'member-password' } });
    const other = await admin.browser.newPage();
    await other.goto(`${server.url}/admin/`);
    await other.getByLabel('Email').fill('member@example.com');
    await other.getByLabel('Password').fill('member-password');
    await other.getByRole('button', { name: 'Login' }).click();
    await shown(other.getByText('Not authorized'));
    await other.close();
  });
});
