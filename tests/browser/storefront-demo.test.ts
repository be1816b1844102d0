import { describe, it, expect, beforeAll, afterAll, afterEach } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { ROOT } from '../../engine/codegen.js';
import { DESKTOP, horizontalOverflow, PHONE, seriousViolations, shown, startStorefront, type Storefront } from '../helpers/storefront.js';

/** where the walk's screenshots go, to be looked at */
const SHOTS = join(ROOT, '.tmp', 'storefront-walk');

const box = async (l: Locator) => {
  const b = await l.boundingBox();
  if (!b) throw new Error(`not laid out: ${l}`);
  return b;
};

/** whether the element drawn at the centre of `l` is `l` or inside it: nothing overprints it */
const onTop = (l: Locator) =>
  l.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !!hit && el.contains(hit);
  });

/**
 * The demo site as a visitor and as a member sees it, at 1280 and 390 px: accessibility (axe-core), the header
 * with the account menu, tap targets, no sideways scrolling, and a walk through the ru site by its links alone.
 */
describe('the demo storefront in Chromium', () => {
  let site: Storefront;
  let url: string;

  beforeAll(async () => {
    site = await startStorefront('demo');
    url = site.server.url;
    mkdirSync(SHOTS, { recursive: true });
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await site?.failed(ctx.task.name);
  });
  afterAll(async () => site?.close());

  it('home, product, article and sign-in pages have no serious or critical axe-core violation, at 1280 and 390 px', async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const page = await site.open(viewport, `axe ${viewport.width}`, { audit: true });
      for (const path of ['/', '/ecommerce/products/shop-template', '/blog/articles/launch-week', '/rbac/subject/authentication/select-method', '/ru']) {
        await page.goto(url + path, { waitUntil: 'networkidle' });
        await shown(page.locator('footer'));
        expect(await seriousViolations(page), `${path} at ${viewport.width}`).toEqual([]);
      }
      await page.close();
    }
    expect(site.problems).toEqual([]);
  });

  it("names every card link by its card's item", async () => {
    const { page } = site;
    await page.goto(url + '/', { waitUntil: 'networkidle' });
    const products = page.getByRole('list', { name: 'Templates and plans' });
    for (const name of ['More: Landing template', 'More: Shop template', 'More: Hosting plan']) await shown(products.getByRole('link', { name, exact: true }));
    expect(await products.getByRole('link').count()).toBe(3);
    await shown(page.getByRole('link', { name: 'Read more: How to choose a template for your business' }));
  });

  it('a visitor finds Login in the header, and in the menu on a phone, which starts right under the header', async () => {
    const { page } = site;
    await page.goto(url + '/', { waitUntil: 'networkidle' });
    const banner = page.getByRole('banner');
    await shown(banner.getByRole('link', { name: 'Login' }));
    expect((await box(banner)).y).toBe(0);

    const phone = await site.open(PHONE, 'menu 390');
    await phone.goto(url + '/', { waitUntil: 'networkidle' });
    const header = phone.getByRole('banner');
    expect((await box(header)).y).toBe(0);
    // closed, the menu's items are not there; the bar has the logotype and the toggle only
    expect(await header.getByRole('link', { name: 'Login' }).count()).toBe(0);
    await phone.getByRole('button', { name: 'Open menu' }).click();
    const login = header.getByRole('link', { name: 'Login' });
    await shown(login);
    const bar = await box(header.getByRole('button', { name: 'Close menu' }));
    const first = await box(header.getByRole('navigation', { name: 'Main' }).getByRole('link').first());
    // the first item sits right below the bar: neither under it nor after a blank strip
    expect(first.y).toBeGreaterThanOrEqual(bar.y + bar.height);
    expect(first.y - (bar.y + bar.height)).toBeLessThan(48);
    expect((await box(login)).height).toBeGreaterThanOrEqual(24);
    await phone.screenshot({ path: join(SHOTS, 'menu-visitor-390.png') });
    await login.click();
    await phone.waitForURL(/\/rbac\/subject\/authentication\/select-method$/);
    await phone.close();
  });

  it('slider dots and footer links are tap targets of 24 px at least, on a phone', async () => {
    const phone = await site.open(PHONE, 'targets 390');
    await phone.goto(url + '/', { waitUntil: 'networkidle' });
    const dots = phone.getByRole('button', { name: /^Go to slide/ });
    expect(await dots.count()).toBe(3);
    const links = phone.getByRole('contentinfo').getByRole('link');
    expect(await links.count()).toBeGreaterThan(10);
    for (const target of [...(await dots.all()), ...(await links.all())]) {
      const b = await box(target);
      expect(Math.min(b.width, b.height), await target.textContent() || (await target.getAttribute('aria-label')) || '').toBeGreaterThanOrEqual(24);
    }
    await phone.close();
  });

  it("signed in, the account dropdown is above the navbar at 1280 and 390 px, 'Account' leads to the settings, and settings fit a phone", async () => {
    const { page } = site;
    await page.goto(url + '/rbac/subject/authentication/email-and-password/registration', { waitUntil: 'networkidle' });
    await page.getByLabel('Email').fill('a-rather-long-member-address@example.com');
    await page.getByLabel('Password').fill('member-password');
    await page.getByRole('button', { name: 'Create an account' }).click();
    await page.getByRole('status').getByText('Check your email').waitFor();
    await page.goto(url + '/', { waitUntil: 'networkidle' });
    const account = page.getByRole('banner').getByRole('button', { name: /a-rather-long-member-address/ });
    await account.click();
    const panel = page.getByText('Signed in as');
    await shown(panel);
    expect(await onTop(panel)).toBe(true);
    expect(await onTop(page.getByRole('banner').getByRole('link', { name: 'Settings' }))).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'account-menu-1280.png') });
    await page.keyboard.press('Escape');

    // the navbar's Account link goes to the account's settings, not to the sign-in form
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Account' }).click();
    await page.waitForURL(/\/rbac\/subjects\/settings$/);
    await shown(page.getByRole('columnheader', { name: 'Provider' }));
    expect(await page.getByLabel('Password').count()).toBe(0);

    const phone = await site.open(PHONE, 'member 390', { signedIn: true });
    await phone.goto(url + '/', { waitUntil: 'networkidle' });
    await phone.getByRole('button', { name: 'Open menu' }).click();
    await phone.getByRole('banner').getByRole('button', { name: /a-rather-long-member-address/ }).click();
    const phonePanel = phone.getByText('Signed in as');
    await shown(phonePanel);
    expect(await onTop(phonePanel)).toBe(true);
    expect(await onTop(phone.getByRole('banner').getByRole('button', { name: 'Logout' }))).toBe(true);
    await phone.screenshot({ path: join(SHOTS, 'account-menu-390.png') });

    await phone.goto(url + '/rbac/subjects/settings', { waitUntil: 'networkidle' });
    await shown(phone.getByRole('button', { name: 'Change email' }));
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    // every button shows its whole label on one line, inside the viewport
    for (const name of ['Change email', 'Change Password', 'Delete', 'Add email', 'Resend']) {
      const button = phone.getByRole('button', { name, exact: true }).first();
      const b = await box(button);
      expect(b.x + b.width, name).toBeLessThanOrEqual(PHONE.width);
      expect(await button.evaluate((el) => el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight), name).toBe(true);
      expect(b.height, name).toBeLessThan(48);
    }
    await phone.screenshot({ path: join(SHOTS, 'settings-390.png'), fullPage: true });
    await phone.close();
    expect(site.problems).toEqual([]);
  });

  it('walks the ru site from /ru to a product, an article, a store and a category by its links alone, each titled by its item', async () => {
    const page = await site.open(DESKTOP, 'walk');
    const api = async (path: string) => (await site.server.api('GET', path)).body.data;
    const bySlug = async (route: string, slug: string) => (await api(`/api/${route}?filters[and][0][column]=slug&filters[and][0][method]=eq&filters[and][0][value]=${slug}`))[0];
    /** the page shown is the item's: its h1 and the tab title are the item's ru title; screenshots at both widths */
    const isItem = async (route: string, name: string) => {
      await page.waitForURL(new RegExp(`/ru/${route}/[a-z0-9-]+$`));
      const row = await bySlug(route, page.url().split('/').pop()!);
      await shown(page.getByRole('heading', { level: 1, name: row.title.ru, exact: true }));
      // the site title in Russian too (the site-ru metadata row)
      expect(await page.title()).toBe(`${row.title.ru} | Студия — шаблоны сайтов`);
      expect(await page.getAttribute('html', 'lang')).toBe('ru');
      for (const viewport of [PHONE, DESKTOP]) {
        await page.setViewportSize(viewport);
        expect(await horizontalOverflow(page), `${name} at ${viewport.width}`).toBe(0);
        await page.screenshot({ path: join(SHOTS, `ru-${name}-${viewport.width}.png`), fullPage: true });
      }
    };
    const follow = async (link: Locator) => {
      await link.click();
      await page.waitForLoadState('networkidle');
    };
    const main = page.getByRole('main');
    const footer = page.getByRole('contentinfo');

    await page.goto(url + '/ru', { waitUntil: 'networkidle' });
    await shown(page.getByRole('heading', { level: 1 }));
    for (const viewport of [PHONE, DESKTOP]) {
      await page.setViewportSize(viewport);
      await page.screenshot({ path: join(SHOTS, `ru-home-${viewport.width}.png`), fullPage: true });
    }

    // a product, from the home page's product list
    await follow(main.getByRole('list', { name: 'Шаблоны и тарифы' }).getByRole('link', { name: /Шаблон магазина/ }));
    await isItem('ecommerce/products', 'product');

    // an article, through the blog's index page
    await follow(page.getByRole('navigation', { name: 'Главное меню' }).getByRole('link', { name: 'Блог', exact: true }));
    await page.waitForURL(/\/ru\/blog$/);
    await shown(page.getByRole('heading', { level: 1, name: 'Блог' }));
    await follow(main.getByRole('link', { name: /Как выбрать шаблон для своего бизнеса/ }));
    await isItem('blog/articles', 'article');

    // a store, through the stores page the footer links to
    await follow(footer.getByRole('link', { name: 'Магазины', exact: true }));
    await page.waitForURL(/\/ru\/ecommerce\/stores$/);
    await follow(main.getByRole('link', { name: /Магазин студии/ }));
    await isItem('ecommerce/stores', 'store');

    // a category, through the shop's categories page
    await follow(footer.getByRole('link', { name: 'Категории', exact: true }));
    await page.waitForURL(/\/ru\/ecommerce\/categories$/);
    await follow(main.getByRole('link', { name: /Хостинг/ }));
    await isItem('ecommerce/categories', 'category');

    // and a blog category, from the article list's category buttons
    await follow(page.getByRole('navigation', { name: 'Главное меню' }).getByRole('link', { name: 'Блог', exact: true }));
    await follow(main.getByRole('navigation', { name: 'Рубрики' }).getByRole('link', { name: 'Руководства' }));
    await isItem('blog/categories', 'blog-category');
    await page.close();
    expect(site.problems).toEqual([]);
  });

  it("an empty category, store and blog category say so ('No found items', in ru too) instead of ending at their title", async () => {
    const system = site.server.system;
    for (const [path, data] of [
      ['/api/ecommerce/categories', { slug: 'empty-shelf', title: { en: 'Empty shelf', ru: 'Пустая полка' } }],
      ['/api/ecommerce/stores', { slug: 'empty-store', title: { en: 'Empty store', ru: 'Пустой магазин' } }],
      ['/api/blog/categories', { slug: 'empty-topic', title: { en: 'Empty topic', ru: 'Пустая рубрика' } }],
    ] as const) expect((await system('POST', path, { data })).status, path).toBe(201);
    const page = await site.open(PHONE, 'empty');
    for (const [path, title, empty] of [
      ['/ecommerce/categories/empty-shelf', 'Empty shelf', 'No found items'],
      ['/ru/ecommerce/categories/empty-shelf', 'Пустая полка', 'Ничего не найдено'],
      ['/ecommerce/stores/empty-store', 'Empty store', 'No found items'],
      ['/ru/blog/categories/empty-topic', 'Пустая рубрика', 'Ничего не найдено'],
    ] as const) {
      await page.goto(url + path, { waitUntil: 'networkidle' });
      await shown(page.getByRole('heading', { name: title, level: 1 }));
      await shown(page.locator('main').getByText(empty, { exact: true }));
    }
    await page.screenshot({ path: join(SHOTS, 'empty-blog-category-390-ru.png') });
    await page.close();
    expect(site.problems).toEqual([]);
  });
});
