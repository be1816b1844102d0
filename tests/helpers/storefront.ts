import { createRequire } from 'node:module';
import { join } from 'node:path';
import { vi } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { sqliteDatabase } from './databases.js';
import { launchBrowser, SCREENSHOTS, startTestServer } from './browser.js';
import { startSmtp } from './smtp.js';

/** waits until the first match is visible */
export const shown = (l: Locator, timeout = 20_000) => l.first().waitFor({ state: 'visible', timeout });
/** retries an assertion until it holds */
export const eventually = <T>(fn: () => Promise<T>) => vi.waitFor(fn, { timeout: 20_000, interval: 100 });

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 900 };

export interface Storefront {
  server: Awaited<ReturnType<typeof startTestServer>>;
  smtp: Awaited<ReturnType<typeof startSmtp>>;
  browser: Browser;
  /** a 1280 px context and its page, watched */
  context: BrowserContext;
  page: Page;
  /** console errors and warnings (hydration mismatches are reported there) and page errors, of every watched page */
  problems: string[];
  /** collects a page's console errors and warnings into `problems`, labelled */
  watch(page: Page, label: string): Page;
  /**
   * A new watched page (its own context) at a viewport, optionally with the 1280 context's session. `audit`
   * lets axe-core's injected script run (playwright's bypassCSP: the page policy allows no inline script).
   */
  open(viewport: { width: number; height: number }, label: string, options?: { signedIn?: boolean; audit?: boolean }): Promise<Page>;
  /** a screenshot of `page` on failure, named after the test */
  failed(name: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * The demo site for browser tests: the real server (seeded, built web apps) on a SQLite database of its own,
 * an SMTP server that keeps mails, Chromium, and one 1280 px page whose console problems are collected.
 */
export async function startStorefront(prefix: string, env: Record<string, string> = {}): Promise<Storefront> {
  const smtp = await startSmtp();
  const server = await startTestServer(sqliteDatabase(), { SEED: 'true', SMTP_URL: smtp.url, MAIL_FROM: 'shop@example.com', ADMIN_EMAILS: 'owner@example.com', ...env });
  const browser = await launchBrowser();
  const context = await browser.newContext({ viewport: DESKTOP });
  const problems: string[] = [];
  const watch = (p: Page, label: string) => {
    p.on('console', (m) => (m.type() === 'error' || m.type() === 'warning') && problems.push(`${label} ${m.type()}: ${m.text()}`));
    p.on('pageerror', (e) => problems.push(`${label} pageerror: ${e.message}`));
    return p;
  };
  const page = watch(await context.newPage(), String(DESKTOP.width));
  return {
    server,
    smtp,
    browser,
    context,
    page,
    problems,
    watch,
    async open(viewport, label, { signedIn = false, audit = false } = {}) {
      const p = await browser.newPage({ viewport, bypassCSP: audit, ...(signedIn && { storageState: await context.storageState() }) });
      return watch(p, label);
    },
    async failed(name) {
      await page.screenshot({ path: join(SCREENSHOTS, `${prefix}-failed-${name.slice(0, 30).replace(/\W+/g, '-')}.png`) }).catch(() => undefined);
    },
    async close() {
      await browser?.close();
      await server?.close();
      await smtp?.close();
    },
  };
}

const axeSource = createRequire(import.meta.url).resolve('axe-core');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/**
 * axe-core's violations of the page as it is now, its script injected from the installed package (no network);
 * the page must come from `open(…, { audit: true })`, since the page policy refuses an inline script.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: axeSource });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(c: Document, o: object): Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: string[]; html: string }[] }[] }> } }).axe;
    const { violations } = await axe.run(document, { resultTypes: ['violations'] });
    return violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => `${n.target.join(' ')} ${n.html.slice(0, 160)}`) }));
  });
}

/** the serious and critical ones */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  return (await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** the page's width beyond the viewport (0 when nothing overflows sideways) */
export const horizontalOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
