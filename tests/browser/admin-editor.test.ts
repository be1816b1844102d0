import { describe, it, expect, beforeAll, afterAll, afterEach, vi } from 'vitest';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { sqliteDatabase } from '../helpers/databases.js';
import { launchBrowser, SCREENSHOTS, startTestServer } from '../helpers/browser.js';

/**
 * Issue 17, done when: a content editor walks the admin of the demo site — signs in, searches a list, pages
 * through it and reloads (the page is kept), opens a row whose references show titles, adds a category to a
 * product by picking it, reorders, edits, sees the toast and deletes after the confirm — at 1280 and at 390 px,
 * with screenshots of each step in .tmp/screenshots/ (admin-editor-*.png).
 */

const shown = (l: Locator) => l.first().waitFor({ state: 'visible', timeout: 20_000 });
const hidden = (l: Locator) => l.first().waitFor({ state: 'hidden', timeout: 20_000 });
const eventually = <T>(fn: () => Promise<T>) => vi.waitFor(fn, { timeout: 20_000, interval: 100 });
const countIs = (l: Locator, n: number) => eventually(async () => expect(await l.count()).toBe(n));

/** a real PNG of the given size (grey pixels), so that its bytes say what it is */
function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale
  const raw = Buffer.alloc((width + 1) * height, 0x80);
  for (let y = 0; y < height; y++) raw[y * (width + 1)] = 0; // filter: none
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

const ADMIN = 'editor@example.com';
const PASSWORD = 'editor-password';
const PRODUCT = '6f1c2a40-0000-4000-8000-000000000301'; // the demo's 'Landing template'
const TEMPLATES = '6f1c2a40-0000-4000-8000-000000000201'; // the demo's 'Templates' category

describe('issue 17: an editor walks the admin at 1280 and 390 px', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const errors: string[] = [];
  let plans: string;

  beforeAll(async () => {
    server = await startTestServer(sqliteDatabase(), { SEED: 'true', ADMIN_EMAILS: ADMIN });
    const registered = await server.api('POST', '/api/rbac/subjects/authentication/email-and-password/registration', { data: { login: ADMIN, password: PASSWORD } });
    expect(registered.status).toBe(201);
    // an unverified ADMIN_EMAILS address grants nothing: the admin role is given by the system, as admin:create does
    const me = await server.api('GET', '/api/rbac/subjects/authentication/me', undefined, { authorization: `Bearer ${registered.body.data.jwt}` });
    expect((await server.system('POST', '/api/rbac/subjects-to-roles', { data: { subjectId: me.body.data.id, roleId: '8b3e4c60-0000-4000-8000-000000000001' } })).status).toBe(201);
    // enough products for two pages, and a second category to pick
    const bulk = Array.from({ length: 24 }, (_, i) => ({ slug: `walk-${String(i).padStart(2, '0')}`, adminTitle: `Walk item ${String(i).padStart(2, '0')}`, title: { en: `Walk item ${i}`, ru: `Товар ${i}` } }));
    expect((await server.system('POST', '/api/ecommerce/products/bulk', { data: bulk })).status).toBe(201);
    const category = await server.system('POST', '/api/ecommerce/categories', { data: { adminTitle: 'Plans', slug: 'plans', title: { en: 'Plans', ru: 'Тарифы' } } });
    expect(category.status).toBe(201);
    plans = category.body.data.id;
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await page?.screenshot({ path: join(SCREENSHOTS, `admin-editor-failed-${ctx.task.name.slice(0, 40).replace(/\W+/g, '-')}.png`) });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const shot = (name: string) => page.screenshot({ path: join(SCREENSHOTS, `admin-editor-${page.viewportSize()!.width}-${name}.png`) });
  const products = () => page.locator('section[data-entity="ecommerce/product"]').first();
  const dialog = () => page.getByRole('dialog').last();
  const categories = () => dialog().locator('section[data-relation="Categories"]');

  it('signs in (the email field has focus) and lands on the dashboard', async () => {
    await page.goto(`${server.url}/admin/`);
    await eventually(async () => expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type)).toBe('email'));
    await page.keyboard.type(ADMIN);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Login' }).click();
    await shown(page.getByRole('heading', { name: 'Dashboard' }));
    await shown(page.getByText(ADMIN));
    await shown(page.getByRole('heading', { name: 'Recent changes' }));
    expect(await page.title()).toBe('Dashboard · Admin');
    await shot('dashboard');
  });

  it('finds the products in the list of models and searches them', async () => {
    const nav = page.getByRole('navigation', { name: 'Models' });
    await nav.getByRole('searchbox').fill('prod');
    await nav.getByRole('link', { name: 'Product', exact: true }).click();
    await page.waitForURL(/\/admin\/ecommerce\/products$/);
    await shown(products().getByText('27 items'));
    expect(await page.title()).toBe('Products · Admin');
    // headers and choices in words
    await shown(products().getByRole('columnheader', { name: 'Admin title' }));
    await shown(products().getByRole('cell', { name: 'One off' }));
    // the search looks in every language of the titles
    await products().getByRole('searchbox').fill('Товар 1');
    await shown(products().getByText('11 items'));
    expect(new URL(page.url()).searchParams.get('q')).toBe('Товар 1');
    await products().getByRole('searchbox').fill('');
    await shown(products().getByText('27 items'));
  });

  it('pages through the list, and a reload keeps the page', async () => {
    await products().getByRole('button', { name: 'Next page' }).click();
    await shown(products().getByText('Page 2 of 2'));
    await countIs(products().locator('tbody tr'), 7);
    await shot('products-page-2');
    await page.reload();
    await shown(products().getByText('Page 2 of 2'));
    await countIs(products().locator('tbody tr'), 7);
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');
  });

  it('opens a row whose relations show titles; the address and the tab title follow, Back closes it', async () => {
    await products().getByRole('searchbox').fill('Landing');
    await countIs(products().locator('tbody tr'), 1);
    await products().locator('tbody tr').first().getByRole('cell', { name: 'Landing template' }).first().click();
    await page.waitForURL(new RegExp(`/admin/ecommerce/products/${PRODUCT}`));
    await shown(dialog().getByLabel('Admin title'));
    await eventually(async () => expect(await page.title()).toBe('Landing template · Product · Admin'));
    // the linked category by its title, as a link to it
    await shown(categories().getByRole('link', { name: 'Templates' }));
    expect(await categories().getByRole('link', { name: 'Templates' }).getAttribute('href')).toBe(`/admin/ecommerce/categories/${TEMPLATES}`);
    await shot('product');
    await page.goBack();
    await countIs(page.getByRole('dialog'), 0);
    await page.goForward();
    await shown(dialog().getByLabel('Admin title'));
  });

  it('adds a category by picking it, then reorders by keyboard', async () => {
    await categories().getByRole('button', { name: 'Add' }).click();
    const pick = page.getByRole('dialog', { name: 'Add categories' });
    await pick.getByRole('searchbox').fill('Pla');
    await pick.getByRole('checkbox', { name: /Plans/ }).check();
    await shot('pick-category');
    await pick.getByRole('button', { name: 'Add 1' }).click();
    await hidden(pick);
    await shown(categories().getByRole('link', { name: 'Plans' }));
    const links = async () =>
      (await server.system('GET', `/api/ecommerce/categories-to-products?filters[and][0][column]=productId&filters[and][0][method]=eq&filters[and][0][value]=${PRODUCT}&orderBy[and][0][column]=orderIndex&orderBy[and][0][method]=asc`)).body.data as { categoryId: string; orderIndex: number }[];
    expect((await links()).map((l) => l.categoryId)).toEqual([TEMPLATES, plans]);

    // drag handle by keyboard: Space lifts, ArrowUp moves, Space drops
    // the moves are announced: each key waits for the announcement of the one before
    const said = (text: string) => eventually(async () => expect(await page.locator('[aria-live]').allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining(text)])));
    await categories().getByRole('button', { name: 'Reorder Plans' }).focus();
    await page.keyboard.press('Space');
    await said('position 2 of 2.');
    await page.keyboard.press('ArrowUp');
    await said('Plans is over position 1 of 2.');
    await page.keyboard.press('Space');
    await said('Plans dropped at position 1 of 2.');
    await eventually(async () => expect((await links()).map((l) => l.categoryId)).toEqual([plans, TEMPLATES]));
    const order = await categories().getByRole('link').allTextContents();
    expect(order).toEqual(['Plans', 'Templates']);
  });

  it('edits, sees the toast and the save status; Escape with unsaved changes asks first', async () => {
    const form = dialog();
    await form.getByLabel('Admin title').fill('Landing template v2');
    await form.getByRole('button', { name: 'Update' }).click();
    await shown(page.getByText('Updated successfully'));
    await eventually(async () => expect(await form.getByRole('button', { name: 'Update' }).getAttribute('data-status')).toBe('success'));
    await shot('updated');
    // unsaved work is not thrown away by Escape
    await form.getByLabel('Slug').fill('landing-template-two');
    await page.keyboard.press('Escape');
    const ask = page.getByRole('alertdialog', { name: 'Discard unsaved changes?' });
    await shown(ask);
    await ask.getByRole('button', { name: 'Keep editing' }).click();
    expect(await form.getByLabel('Slug').inputValue()).toBe('landing-template-two');
    await page.keyboard.press('Escape');
    await page.getByRole('alertdialog', { name: 'Discard unsaved changes?' }).getByRole('button', { name: 'Discard' }).click();
    await countIs(page.getByRole('dialog'), 0);
    expect((await server.api('GET', `/api/ecommerce/products/${PRODUCT}`)).body.data).toMatchObject({ adminTitle: 'Landing template v2', slug: 'landing-template' });
  });

  it('opens a row whose rich text another client wrote (keys in another order): the editor shows it, nothing breaks', async () => {
    const doc = '{"type":"doc","content":[{"type":"paragraph","content":[{"type":"text","text":"Written elsewhere","marks":[{"type":"bold"}]}]}]}';
    const widget = (await server.system('POST', '/api/website-builder/widgets', { data: { adminTitle: 'Foreign rich text', variant: 'content-default', description: { en: doc } } })).body.data;
    const before = errors.length;
    await page.goto(`${server.url}/admin/website-builder/widgets/${widget.id}`);
    const form = dialog();
    await shown(form.getByRole('textbox', { name: /Description/ }).locator('strong', { hasText: 'Written elsewhere' }));
    // the crash drew the widget error screen in the dialog and logged a TypeError
    expect(await form.getByText('Something went wrong').count()).toBe(0);
    expect(errors.slice(before)).toEqual([]);
    // opening is not an edit: Escape closes without asking
    await page.keyboard.press('Escape');
    await countIs(page.getByRole('dialog'), 0);
    await page.goto(`${server.url}/admin/ecommerce/products`);
    await shown(products().locator('tbody tr'));
  });

  it('deletes after a confirm that names the row and what goes with it', async () => {
    await products().getByRole('searchbox').fill('v2');
    await countIs(products().locator('tbody tr'), 1);
    await products().locator('tbody tr').first().getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete?' });
    await shown(confirm.getByText('Landing template v2'));
    // the rows of every reference to products that cascades go with it (its categories, attribute, store…)
    const model = (await server.system('GET', '/api/admin/model')).body.data as { entities: { module: string; route: string; fields: { name: string; kind: string; target?: string; onDelete?: string }[] }[] };
    let linked = 0;
    for (const e of model.entities) {
      for (const f of e.fields.filter((x) => x.kind === 'reference' && x.target === 'ecommerce/product' && x.onDelete === 'cascade')) {
        linked += (await server.system('GET', `/api/${e.module}/${e.route}/count?filters[and][0][column]=${f.name}&filters[and][0][method]=eq&filters[and][0][value]=${PRODUCT}`)).body.data;
      }
    }
    expect(linked).toBeGreaterThanOrEqual(3);
    await shown(confirm.getByText(`${linked} linked rows go with it.`));
    await shot('delete');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await countIs(products().locator('tbody tr'), 1);
    await products().locator('tbody tr').first().getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog', { name: 'Delete?' }).getByRole('button', { name: 'Delete' }).click();
    await shown(page.getByText('Deleted successfully'));
    await shown(products().getByText('No found items'));
    // focus stays in the list (here its search box: no row is left), not on the page's body
    await eventually(async () => expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type)).toBe('search'));
    expect((await server.api('GET', `/api/ecommerce/products/${PRODUCT}`)).status).toBe(404);
  });

  it('uploads a file: its name is the default title, its size, type and pixels fill in, the list shows a thumbnail', async () => {
    await page.goto(`${server.url}/admin/file-storage/files`);
    const files = page.locator('section[data-entity="file-storage/file"]').first();
    await files.getByRole('button', { name: 'Add new' }).first().click();
    const form = dialog();
    await form.getByLabel('Upload a file').setInputFiles({ name: 'team_photo.png', mimeType: 'image/png', buffer: png(12, 7) });
    await eventually(async () => expect(await form.getByLabel('Admin title').inputValue()).toBe('team photo'));
    expect(await form.getByLabel('Slug').inputValue()).toBe('team-photo');
    expect(await form.getByLabel('MIME type').inputValue()).toBe('image/png');
    expect(await form.getByLabel('Extension').inputValue()).toBe('png');
    expect(Number(await form.getByLabel('Size').inputValue())).toBe(png(12, 7).length);
    expect([await form.getByLabel('Width').inputValue(), await form.getByLabel('Height').inputValue()]).toEqual(['12', '7']);
    await shown(form.locator('img[src^="/files/"]'));
    await form.getByRole('button', { name: 'Create' }).click();
    await shown(page.getByText('Created successfully'));
    // the new row opens at its own url, in its edit form (nothing unsaved): Escape then closes it without asking
    await page.waitForURL(/\/admin\/file-storage\/files\/[0-9a-f-]{36}/);
    await shown(page.getByRole('dialog').getByRole('button', { name: 'Update' }));
    await page.keyboard.press('Escape');
    await countIs(page.getByRole('dialog'), 0);
    await shown(files.locator('tbody img[src^="/files/"]'));
    const row = (await server.api('GET', '/api/file-storage/files?filters[and][0][column]=slug&filters[and][0][method]=eq&filters[and][0][value]=team-photo')).body.data[0];
    expect(row).toMatchObject({ adminTitle: 'team photo', mimeType: 'image/png', extension: 'png', width: 12, height: 7, size: png(12, 7).length });
    await shot('files');
  });

  it('at 390 px: the models are a drawer, rows are cards with their actions in view, the form fills the screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${server.url}/admin/ecommerce/categories`);
    await shown(page.getByRole('button', { name: 'Open menu' }));
    expect(await page.getByRole('navigation', { name: 'Models' }).count()).toBe(0);
    const list = page.locator('section[data-entity="ecommerce/category"]').first();
    const card = list.locator('li[data-row-id]').filter({ hasText: 'Templates' });
    await shown(card);
    for (const name of ['Edit', 'Delete']) {
      const box = (await card.getByRole('button', { name }).boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      expect(box.width).toBeGreaterThanOrEqual(24);
    }
    await shot('categories');
    await page.getByRole('button', { name: 'Open menu' }).click();
    const nav = page.getByRole('navigation', { name: 'Models' });
    await shown(nav);
    await shot('drawer');
    await nav.getByRole('link', { name: 'Store', exact: true }).click();
    await page.waitForURL(/\/admin\/ecommerce\/stores$/);
    await hidden(nav);
    const store = page.locator('section[data-entity="ecommerce/store"] li[data-row-id]').first();
    await store.getByRole('button', { name: 'Edit' }).click();
    await shown(dialog().getByLabel('Admin title'));
    const box = (await dialog().boundingBox())!;
    expect(box.width).toBeGreaterThan(360);
    await shot('store');
    // the page's horizontal size stays the screen's
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.keyboard.press('Escape');
    await countIs(page.getByRole('dialog'), 0);
    expect(errors).toEqual([]);
  });

  it('at 390 px: the menu drawer gives the focus back to its button when closed, and to the page shown when a model is chosen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${server.url}/admin/ecommerce/categories`);
    const menu = page.getByRole('button', { name: 'Open menu' });
    const drawer = page.getByRole('dialog', { name: 'Models' });
    const onMenu = () => eventually(async () => expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.tagName)).toBe('Open menu'));
    await shown(menu);
    // by keyboard: Enter opens it, Escape closes it
    await menu.focus();
    await page.keyboard.press('Enter');
    await shown(drawer);
    await page.keyboard.press('Escape');
    await hidden(drawer);
    await onMenu();
    // its close button
    await menu.click();
    await drawer.getByRole('button', { name: 'Close menu' }).click();
    await hidden(drawer);
    await onMenu();
    // a click outside it, on the shade over the page
    await menu.click();
    await shown(drawer);
    await page.mouse.click(370, 600);
    await hidden(drawer);
    await onMenu();
    // a model chosen: the focus is in the page now shown (never on the body), and Tab goes on into its list
    await menu.click();
    await drawer.getByRole('link', { name: 'Store', exact: true }).click();
    await page.waitForURL(/\/admin\/ecommerce\/stores$/);
    await hidden(drawer);
    await eventually(async () => expect(await page.evaluate(() => document.activeElement?.id)).toBe('admin-content'));
    await page.keyboard.press('Tab');
    const search = page.locator('section[data-entity="ecommerce/store"]').first().getByRole('searchbox');
    expect(await search.evaluate((input) => input === document.activeElement)).toBe(true);
    expect(errors).toEqual([]);
  });

  it('at 390 px: a list that is loading, failed to load or is empty says so in full, not cut off inside the wide table', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    const stores = () => page.locator('section[data-entity="ecommerce/store"]').first();
    /** drawn whole: inside the screen's width (the desktop table scrolls sideways, and cut these off) */
    const whole = async (l: Locator) => {
      await shown(l);
      for (const box of await l.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as DOMRect))) {
        expect(box.width).toBeGreaterThan(0);
        expect(box.left).toBeGreaterThanOrEqual(0);
        expect(box.right).toBeLessThanOrEqual(390);
      }
    };
    const list = (url: URL) => url.pathname === '/api/ecommerce/stores';

    // loading: the list's answer held back
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(list, async (route) => (await held, route.continue()));
    await page.goto(`${server.url}/admin/ecommerce/stores`);
    await shown(stores().getByText('Loading…'));
    await whole(stores().locator('.animate-pulse'));
    await shot('list-loading');
    release();
    await shown(stores().locator('li[data-row-id]'));
    await page.unroute(list);

    // failed: the message and Retry
    const message = 'The stores could not be listed: the database did not answer in time';
    await page.route(list, (route) => route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ message }) }));
    await page.goto(`${server.url}/admin/ecommerce/stores`);
    const alert = stores().getByRole('alert');
    await shown(alert.getByText(message));
    await whole(alert);
    await whole(alert.getByText(message));
    await whole(alert.getByRole('button', { name: 'Retry' }));
    await shown(stores().getByText('Not loaded'));
    await shot('list-error');
    await page.unroute(list);
    await alert.getByRole('button', { name: 'Retry' }).click();
    await shown(stores().locator('li[data-row-id]'));

    // empty: a search nothing matches, and the way back
    await stores().getByRole('searchbox').fill('no-store-is-called-this');
    await whole(stores().getByText('No found items'));
    await whole(stores().getByText('Nothing matches "no-store-is-called-this"'));
    await whole(stores().getByRole('button', { name: 'Clear search and filters' }));
    await shot('list-empty');
    await stores().getByRole('button', { name: 'Clear search and filters' }).click();
    await shown(stores().locator('li[data-row-id]'));
    // an empty list with nothing searched offers to add one
    await page.goto(`${server.url}/admin/crm/requests`);
    const requests = page.locator('section[data-entity="crm/request"]').first();
    await shown(requests.getByText('0 items'));
    await whole(requests.getByText('No found items'));
    await whole(requests.getByRole('button', { name: 'Add new' }));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(errors).toEqual([]);
  });
});
