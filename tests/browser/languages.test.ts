import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { sqliteDatabase } from '../helpers/databases.js';
import { launchBrowser, startTestServer } from '../helpers/browser.js';

const shown = (l: Locator) => l.first().waitFor({ state: 'visible', timeout: 15_000 });

/** the demo in Chromium: the language switcher, by keyboard and in the phone menu, and a Russian page without English words of the interface */
describe('languages in Chromium', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let browser: Browser;
  const problems: string[] = [];
  const open = async (width: number): Promise<Page> => {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    page.on('console', (m) => (m.type() === 'error' || m.type() === 'warning') && problems.push(`${m.type()}: ${m.text()}`));
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    return page;
  };

  beforeAll(async () => {
    server = await startTestServer(sqliteDatabase(), { SEED: 'true' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('the navbar switches an article to Russian and back, by keyboard; the current language is marked', async () => {
    const page = await open(1280);
    await page.goto(`${server.url}/blog/articles/launch-week`, { waitUntil: 'networkidle' });
    const languages = page.getByRole('navigation', { name: 'Language' });
    await shown(languages);
    expect(await languages.getByRole('link', { name: 'EN English' }).getAttribute('aria-current')).toBe('true');
    const ru = languages.getByRole('link', { name: 'RU Русский' });
    const box = await ru.boundingBox();
    expect(box!.height).toBeGreaterThanOrEqual(24);
    expect(box!.width).toBeGreaterThanOrEqual(24);
    await ru.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.url}/ru/blog/articles/launch-week`);
    expect(await page.getAttribute('html', 'lang')).toBe('ru');
    const back = page.getByRole('navigation', { name: 'Язык' });
    expect(await back.getByRole('link', { name: 'RU Русский' }).getAttribute('aria-current')).toBe('true');
    await back.getByRole('link', { name: 'EN English' }).click();
    await page.waitForURL(`${server.url}/blog/articles/launch-week`);
    await page.close();
    expect(problems).toEqual([]);
  });

  it('the phone menu lists the languages; the Russian home page speaks Russian', async () => {
    const page = await open(390);
    await page.goto(`${server.url}/`, { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: 'Open menu' }).click();
    const languages = page.getByRole('navigation', { name: 'Language' });
    await shown(languages.getByRole('link', { name: 'Русский' }));
    await languages.getByRole('link', { name: 'Русский' }).click();
    await page.waitForURL(`${server.url}/ru`);
    await shown(page.getByRole('heading', { name: 'Блог' }));
    const toggle = page.getByRole('button', { name: 'Открыть меню' });
    await shown(toggle);
    const text = await page.locator('body').innerText();
    for (const english of ['Read more', 'Login', 'Open menu', 'Submit', 'All rights reserved']) expect(text, english).not.toContain(english);
    await page.close();
    expect(problems).toEqual([]);
  });
});
