import { describe, it, expect, beforeAll, afterAll, afterEach } from 'vitest';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { sqliteDatabase } from '../helpers/databases.js';
import { launchBrowser, SCREENSHOTS, startTestServer } from '../helpers/browser.js';

/** an open storefront page hears of writes over the revalidation stream and shows the fresh data, with no reload */
describe('storefront: live data in Chromium', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];
  beforeAll(async () => {
    server = await startTestServer(sqliteDatabase(), { SEED: 'true' });
    browser = await launchBrowser();
    page = await browser.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await page?.screenshot({ path: join(SCREENSHOTS, `failed-${ctx.task.name.slice(0, 40).replace(/\W+/g, '-')}.png`) });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('an article page shows its new title once it is changed elsewhere', async () => {
    const [article] = (await server.api('GET', '/api/blog/articles?filters[and][0][column]=slug&filters[and][0][method]=eq&filters[and][0][value]=launch-week')).body.data;
    // the page listens once hydrated: wait for its event stream to be open before changing anything
    const listening = page.waitForResponse((r) => r.url().includes('/api/broadcast/events'), { timeout: 30_000 });
    await page.goto(`${server.url}/blog/articles/launch-week`);
    await page.getByText(article.title.en).first().waitFor({ state: 'visible', timeout: 20_000 });
    await listening;
    // a reload would lose this
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 7));
    const changed = await server.system('PATCH', `/api/blog/articles/${article.id}`, { data: { title: { ...article.title, en: 'Launch week, updated live' } } });
    expect(changed.status).toBe(200);
    await page.getByText('Launch week, updated live').first().waitFor({ state: 'visible', timeout: 20_000 });
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(7);
    expect(errors).toEqual([]);
  });
});
