import { describe, it, expect, beforeAll, afterAll, afterEach } from 'vitest';
import { join } from 'node:path';
import type { Browser, Locator, Page, Response } from 'playwright-core';
import { sqliteDatabase } from '../helpers/databases.js';
import { launchBrowser, SCREENSHOTS, startTestServer } from '../helpers/browser.js';

const shown = (l: Locator) => l.first().waitFor({ state: 'visible', timeout: 15_000 });
const ADMIN = 'csp-admin@example.com';
const PASSWORD = 'admin-password';

declare global {
  interface Window {
    __cspViolations?: string[];
  }
}

/**
 * Finding 12 (security trial 2026-11-23): the pages had no Content-Security-Policy. They have one now, and
 * this is the proof that the storefront and the admin work under it: no `securitypolicyviolation` event and
 * no CSP console message on the home page, an article, the sign-in page and the admin (with a form that
 * validates in the browser).
 */
describe('finding 12: the storefront and the admin work under their Content-Security-Policy', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let browser: Browser;
  let page: Page;
  const console: string[] = [];

  beforeAll(async () => {
    server = await startTestServer(sqliteDatabase(), { SEED: 'true', ADMIN_EMAILS: ADMIN });
    const registered = await server.api('POST', '/api/rbac/subjects/authentication/email-and-password/registration', { data: { login: ADMIN, password: PASSWORD } });
    expect(registered.status).toBe(201);
    // an unverified ADMIN_EMAILS address grants nothing: the admin role is given by the system, as admin:create does
    const me = await server.api('GET', '/api/rbac/subjects/authentication/me', undefined, { authorization: `Bearer ${registered.body.data.jwt}` });
    expect((await server.system('POST', '/api/rbac/subjects-to-roles', { data: { subjectId: me.body.data.id, roleId: '8b3e4c60-0000-4000-8000-000000000001' } })).status).toBe(201);
    browser = await launchBrowser();
    page = await freshPage();
  });
  /** a page in a context of its own (no session), listening for violations */
  async function freshPage() {
    const p = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    // runs in every document before its own scripts (injected by the browser, outside the page's policy)
    await p.addInitScript(() => {
      window.__cspViolations = [];
      document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations!.push(`${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber}`), true);
    });
    p.on('console', (m) => /Content[- ]Security[- ]Policy/i.test(m.text()) && console.push(m.text()));
    return p;
  }
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await page?.screenshot({ path: join(SCREENSHOTS, `csp-failed-${ctx.task.name.slice(0, 30).replace(/\W+/g, '-')}.png`) });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** the violations the current document reported, plus CSP messages on the console */
  const violations = async () => [...console.splice(0), ...(await page.evaluate(() => window.__cspViolations ?? []))];
  /** goes to a page and checks that its answer did carry a policy with no inline scripts */
  async function open(path: string) {
    const res = (await page.goto(server.url + path, { waitUntil: 'networkidle' })) as Response;
    const csp = (await res.allHeaders())['content-security-policy'];
    expect(csp, path).toMatch(/script-src 'self'/);
    expect(csp, path).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  }

  it('finding 12: the home page renders and hydrates with no violation', async () => {
    await open('/');
    await shown(page.getByRole('heading', { name: 'From the blog' }));
    // hydrated: the client's React handles the menu
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Open menu' }).click();
    await shown(page.getByRole('button', { name: 'Close menu' }));
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(await violations()).toEqual([]);
  });

  it('finding 12: an article opens with no violation', async () => {
    await open('/blog/articles/launch-week');
    const article = (await server.api('GET', '/api/blog/articles?filters[and][0][column]=slug&filters[and][0][method]=eq&filters[and][0][value]=launch-week')).body.data[0];
    await shown(page.getByRole('heading', { level: 1, name: article.title.en }));
    expect(await violations()).toEqual([]);
  });

  it('finding 12: the sign-in page (both methods) signs in with no violation', async () => {
    await open('/rbac/subject/authentication/select-method');
    // the wallet panel is a chunk loaded after hydration
    await page.getByRole('button', { name: 'Ethereum Virtual Machine' }).click();
    await page.getByRole('button', { name: 'Login and Password' }).click();
    await page.getByLabel('Email').fill(ADMIN);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await page.waitForURL(server.url + '/');
    await shown(page.getByRole('button', { name: new RegExp(ADMIN.replace(/[.@]/g, '\\$&')) }));
    expect(await violations()).toEqual([]);
  });

  it('finding 12: the admin signs in, lists and validates a form in the browser with no violation', async () => {
    page = await freshPage();
    await open('/admin/');
    await page.getByLabel('Email').fill(ADMIN);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Login' }).click();
    const nav = page.getByRole('navigation', { name: 'Models' });
    await nav.getByRole('link', { name: 'Product', exact: true }).click();
    await page.waitForURL(/\/admin\/ecommerce\/products$/);
    const table = page.locator('section[data-entity="ecommerce/product"]').first();
    await table.getByRole('button', { name: 'Add new' }).click();
    const form = page.getByRole('dialog').last();
    await form.getByLabel('Slug').fill('Not A Slug');
    await form.getByRole('button', { name: 'Create' }).click();
    // the manifest's pattern, checked by the form's validator in the browser
    await shown(form.getByRole('alert').filter({ hasText: 'Use only lowercase letters, digits and hyphens' }));
    expect(await violations()).toEqual([]);
  });
});
