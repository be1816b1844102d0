import { describe, it, expect, beforeAll, afterAll, afterEach, vi } from 'vitest';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { adminInBrowser } from '../helpers/admin.js';
import { SCREENSHOTS } from '../helpers/browser.js';

/**
 * What an outside tester, new to the admin, found as an editor at 1280 px: a far row opened from another
 * record's form closed onto the far entity's list (the record being edited was gone from view); a JSON field's
 * value typed without a key was dropped on save without a word; a refused save's error toast stayed up, with
 * no end, over the list after its form was discarded; a relation's Remove asked 'Delete?' of the link table's
 * row ("Articles to ecommerce module products … will be deleted"), as if the article itself were to go; a save toast's own button (Retry after a server fault, Save after the session
 * ended) could not be clicked while its form's dialog was open: the modal's overlay took the click; a row that failed to load (a server fault, the network) was said not to
 * exist, 'it may have been deleted', with no way to try again; the search of a list did not look in the owned rows
 * its table shows (Subjects show their identities' emails, and searching one found 'No found items'); a JSON
 * field's entries marked for fixing (a repeated key, a value with no key) vanished on a look at 'Edit as JSON' and back.
 */

const shown = (l: Locator) => l.first().waitFor({ state: 'visible', timeout: 15_000 });
const eventually = <T>(fn: () => Promise<T>) => vi.waitFor(fn, { timeout: 15_000, interval: 100 });

const ADMIN = 'probe@example.com';
const PASSWORD = 'probe-password';

describe('admin as a new editor finds it', () => {
  let admin: Awaited<ReturnType<typeof adminInBrowser>>;
  let server: Awaited<ReturnType<typeof adminInBrowser>>['server'];
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    admin = await adminInBrowser(ADMIN, PASSWORD);
    ({ server, page } = admin);
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.setViewportSize({ width: 1280, height: 800 });
    await admin.signIn();
  });
  afterEach((ctx) => admin?.screenshotIfFailed(ctx, 'failed-probe'));
  afterAll(() => admin?.close());

  const dialog = () => page.getByRole('dialog').last();

  it("a far row opened from a record's relation closes back onto that record, not onto the far entity's list", async () => {
    const product = await server.system('POST', '/api/ecommerce/products', { data: { adminTitle: 'Probe lamp', slug: 'probe-lamp' } });
    const category = await server.system('POST', '/api/ecommerce/categories', { data: { adminTitle: 'Probe lights', slug: 'probe-lights' } });
    expect((await server.system('POST', '/api/ecommerce/categories-to-products', { data: { categoryId: category.body.data.id, productId: product.body.data.id } })).status).toBe(201);
    const productPath = `/admin/ecommerce/products/${product.body.data.id}`;
    await page.goto(`${server.url}/admin/ecommerce/products`);
    await page.getByRole('button', { name: 'Edit Probe lamp' }).click();
    await page.waitForURL(new RegExp(productPath));
    const link = dialog().locator('section[data-relation="Categories"]').getByRole('link', { name: 'Probe lights' });
    await shown(link);
    await link.click();
    await page.waitForURL(new RegExp(`/admin/ecommerce/categories/${category.body.data.id}`));
    await shown(dialog().getByRole('heading', { name: /Probe lights/ }));
    // the editor closes the category: back on the product they were editing
    await page.keyboard.press('Escape');
    await eventually(async () => expect(new URL(page.url()).pathname).toBe(productPath));
    await shown(dialog().getByRole('heading', { name: /Probe lamp/ }));
    await page.screenshot({ path: join(SCREENSHOTS, 'admin-probe-far-row-closed.png') });
    // and closing the product ends on the products' list, as it was opened from there
    await page.keyboard.press('Escape');
    await eventually(async () => expect(new URL(page.url()).pathname).toBe('/admin/ecommerce/products'));
    await eventually(async () => expect(await page.getByRole('dialog').count()).toBe(0));
  });

  it('a JSON value typed without a key is said beside it and refused, not dropped on save; Add entry puts the focus in the new key', async () => {
    await page.goto(`${server.url}/admin/crm/requests`);
    await page.locator('section[data-entity="crm/request"]').getByRole('button', { name: 'Add new' }).first().click();
    const form = dialog();
    await shown(form.getByRole('button', { name: 'Add entry' }));
    await form.getByRole('button', { name: 'Add entry' }).click();
    // the keyboard goes on where the new entry is
    await eventually(async () => expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Key 1'));
    await page.keyboard.type('name');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Ivan');
    await form.getByRole('button', { name: 'Add entry' }).click();
    await eventually(async () => expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Key 2'));
    // a value with no key
    await form.getByLabel('Value 2').fill('forgotten');
    await shown(form.getByRole('alert').filter({ hasText: 'Give this value a key' }));
    expect(await form.getByLabel('Key 2').getAttribute('aria-invalid')).toBe('true');
    await form.getByRole('button', { name: 'Create' }).click();
    await page.waitForTimeout(500);
    expect((await server.system('GET', '/api/crm/requests')).body.data).toHaveLength(0);
    await page.screenshot({ path: join(SCREENSHOTS, 'admin-probe-json-missing-key.png') });
    // given a key, it saves with both entries
    await form.getByLabel('Key 2').fill('city');
    await form.getByRole('button', { name: 'Create' }).click();
    await shown(page.getByText('Created successfully'));
    const rows = (await server.system('GET', '/api/crm/requests')).body.data as { payload: unknown }[];
    expect(rows.map((r) => r.payload)).toEqual([{ name: 'Ivan', city: 'forgotten' }]);
    await page.keyboard.press('Escape');
    await eventually(async () => expect(await page.getByRole('dialog').count()).toBe(0));
    expect(pageErrors).toEqual([]);
  });
  it("a refused save's error toast goes with its form: discarded, the list shows no error of a form no longer there", async () => {
    const article = await server.system('POST', '/api/blog/articles', { data: { adminTitle: 'Probe refused', slug: 'probe-refused' } });
    await page.goto(`${server.url}/admin/blog/articles/${article.body.data.id}`);
    const form = dialog();
    await shown(form.getByLabel('Admin title', { exact: true }));
    // the server refuses this save (an account without the right, say) with no field to point at
    await page.route('**/api/blog/articles/*', (r) => (r.request().method() === 'PATCH' ? r.fulfill({ status: 403, contentType: 'application/json', body: JSON.stringify({ message: 'Forbidden', status: 403 }) }) : r.continue()));
    await form.getByLabel('Admin title', { exact: true }).fill('Probe refused, edited');
    await form.getByRole('button', { name: 'Update' }).click();
    const toast = page.locator('[data-sonner-toast]').filter({ hasText: 'Forbidden' });
    await shown(toast);
    await page.unroute('**/api/blog/articles/*');
    await page.keyboard.press('Escape');
    await page.getByRole('alertdialog', { name: 'Discard unsaved changes?' }).getByRole('button', { name: 'Discard' }).click();
    await eventually(async () => expect(await page.getByRole('dialog').count()).toBe(0));
    await eventually(async () => expect(await toast.count()).toBe(0));
  });
  it("a relation's Remove says it unlinks the far row and keeps it; Remove takes the link away, the far row stays", async () => {
    const product = await server.system('POST', '/api/ecommerce/products', { data: { adminTitle: 'Probe desk', slug: 'probe-desk' } });
    const category = await server.system('POST', '/api/ecommerce/categories', { data: { adminTitle: 'Probe furniture', slug: 'probe-furniture' } });
    expect((await server.system('POST', '/api/ecommerce/categories-to-products', { data: { categoryId: category.body.data.id, productId: product.body.data.id } })).status).toBe(201);
    await page.goto(`${server.url}/admin/ecommerce/products/${product.body.data.id}`);
    const section = dialog().locator('section[data-relation="Categories"]');
    await shown(section.getByRole('link', { name: 'Probe furniture' }));
    await section.getByRole('button', { name: 'Remove Probe furniture' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Remove?' });
    await shown(confirm);
    const text = await confirm.innerText();
    expect(text).toContain('“Probe furniture” will no longer be linked to “Probe desk”.');
    expect(text).toContain('The category itself is kept.');
    expect(text).not.toMatch(/Categories to products|will be deleted/);
    await page.screenshot({ path: join(SCREENSHOTS, 'admin-probe-remove-link.png') });
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await shown(page.getByText('Removed successfully'));
    await eventually(async () => expect(await section.getByRole('link', { name: 'Probe furniture' }).count()).toBe(0));
    expect((await server.system('GET', `/api/ecommerce/categories/${category.body.data.id}`)).status).toBe(200);
    expect((await server.system('GET', `/api/ecommerce/categories-to-products?filters[and][0][column]=productId&filters[and][0][method]=eq&filters[and][0][value]=${product.body.data.id}`)).body.data).toEqual([]);
    await page.keyboard.press('Escape');
    await eventually(async () => expect(await page.getByRole('dialog').count()).toBe(0));
  });
  it("a failed save's Retry in its toast can be clicked over the open form, saves, and leaves the form open", async () => {
    const article = await server.system('POST', '/api/blog/articles', { data: { adminTitle: 'Probe retry', slug: 'probe-retry' } });
    await page.goto(`${server.url}/admin/blog/articles/${article.body.data.id}`);
    const form = dialog();
    await shown(form.getByLabel('Admin title', { exact: true }));
    // the server fails this save once
    let failures = 1;
    await page.route('**/api/blog/articles/*', (r) => (r.request().method() === 'PATCH' && failures-- > 0 ? r.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ message: 'Internal Server Error', status: 500 }) }) : r.continue()));
    await form.getByLabel('Admin title', { exact: true }).fill('Probe retry, saved');
    await form.getByRole('button', { name: 'Update' }).click();
    const toast = page.locator('[data-sonner-toast]').filter({ hasText: 'the server had a problem' });
    await shown(toast);
    await page.screenshot({ path: join(SCREENSHOTS, 'admin-probe-retry-toast.png') });
    // a plain click, as an editor's: nothing in front of the toast takes it
    await toast.getByRole('button', { name: 'Retry' }).click({ timeout: 5_000 });
    await shown(page.getByText('Updated successfully'));
    expect((await server.system('GET', `/api/blog/articles/${article.body.data.id}`)).body.data.adminTitle).toBe('Probe retry, saved');
    // the click on the toast did not count as a click outside the form
    expect(await page.getByRole('alertdialog').count()).toBe(0);
    expect(await form.getByLabel('Admin title', { exact: true }).inputValue()).toBe('Probe retry, saved');
    await page.unroute('**/api/blog/articles/*');
    await page.keyboard.press('Escape');
    await eventually(async () => expect(await page.getByRole('dialog').count()).toBe(0));
  });
  it('a row that fails to load for a reason other than not existing says so with Retry, and is not called deleted', async () => {
    const article = await server.system('POST', '/api/blog/articles', { data: { adminTitle: 'Probe unreachable', slug: 'probe-unreachable' } });
    const id = article.body.data.id as string;
    const row = `**/api/blog/articles/${id}`;
    await page.route(row, (r) => (r.request().method() === 'GET' ? r.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ message: 'Internal Server Error', status: 500 }) }) : r.continue()));
    await page.goto(`${server.url}/admin/blog/articles/${id}`);
    const alert = dialog().getByRole('alert');
    await shown(alert);
    await eventually(async () => expect(await alert.innerText()).toContain('could not be loaded'));
    expect(await dialog().innerText()).not.toMatch(/does not exist|deleted|Not found/);
    await page.screenshot({ path: join(SCREENSHOTS, 'admin-probe-row-failed.png') });
    await page.unroute(row);
    await dialog().getByRole('button', { name: 'Retry' }).click();
    await shown(dialog().getByLabel('Admin title', { exact: true }));
    expect(await dialog().getByLabel('Admin title', { exact: true }).inputValue()).toBe('Probe unreachable');
    // a row that really is gone still says so
    await server.system('DELETE', `/api/blog/articles/${id}`);
    await page.reload();
    await shown(dialog().getByText('Not found: this article does not exist (it may have been deleted).'));
    await page.keyboard.press('Escape');
    await eventually(async () => expect(await page.getByRole('dialog').count()).toBe(0));
  });
  it("a list's search also finds rows by what their owned rows show (a subject by its identity's email)", async () => {
    await page.goto(`${server.url}/admin/rbac/subjects`);
    const subjects = page.locator('section[data-entity="rbac/subject"]');
    await shown(subjects.getByRole('link', { name: ADMIN }));
    await subjects.getByRole('searchbox').fill('probe@exa');
    await shown(subjects.getByText('1 item', { exact: true }));
    await shown(subjects.locator('tbody tr').getByRole('link', { name: ADMIN }));
    await page.screenshot({ path: join(SCREENSHOTS, 'admin-probe-subject-search.png') });
    // what matches nothing still says so
    await subjects.getByRole('searchbox').fill('nobody@nowhere');
    await shown(subjects.getByText('No found items'));
    await subjects.getByRole('searchbox').fill('');
  });
  it("a JSON field's entries marked for fixing survive a look at 'Edit as JSON' and back", async () => {
    await page.goto(`${server.url}/admin/crm/requests`);
    await page.locator('section[data-entity="crm/request"]').getByRole('button', { name: 'Add new' }).first().click();
    const form = dialog();
    await form.getByRole('button', { name: 'Add entry' }).click();
    await form.getByLabel('Key 1').fill('email');
    await form.getByLabel('Value of email').fill('a@b.c');
    await form.getByRole('button', { name: 'Add entry' }).click();
    await form.getByLabel('Key 2').fill('email');
    await form.getByLabel('Value of email').nth(1).fill('second@b.c');
    await form.getByRole('button', { name: 'Add entry' }).click();
    await form.getByLabel('Value 3').fill('no key yet');
    await shown(form.getByRole('alert').filter({ hasText: 'This key is already used above' }));
    await form.getByRole('button', { name: 'Edit as JSON' }).click();
    await form.getByRole('button', { name: 'Edit as key / value pairs' }).click();
    // all three entries are back, still marked
    await shown(form.getByLabel('Key 3'));
    expect(await form.getByLabel('Value of email').nth(1).inputValue()).toBe('second@b.c');
    expect(await form.getByLabel('Value 3').inputValue()).toBe('no key yet');
    await shown(form.getByRole('alert').filter({ hasText: 'This key is already used above' }));
    await shown(form.getByRole('alert').filter({ hasText: 'Give this value a key' }));
    // an edit made in the JSON is what comes back
    await form.getByRole('button', { name: 'Edit as JSON' }).click();
    await form.locator('textarea').first().fill('{"name": "Olga"}');
    await form.getByRole('button', { name: 'Edit as key / value pairs' }).click();
    expect(await form.getByLabel('Value of name').inputValue()).toBe('Olga');
    expect(await form.getByLabel('Key 2').count()).toBe(0);
    await page.keyboard.press('Escape');
    await page.getByRole('alertdialog', { name: 'Discard unsaved changes?' }).getByRole('button', { name: 'Discard' }).click();
    await eventually(async () => expect(await page.getByRole('dialog').count()).toBe(0));
  });
});
