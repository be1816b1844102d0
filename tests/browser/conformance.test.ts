import { describe, it, expect, beforeAll, afterAll, afterEach, vi } from 'vitest';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { sqliteDatabase } from '../helpers/databases.js';
import { launchBrowser, SCREENSHOTS, startTestServer } from '../helpers/browser.js';
import { startSmtp } from '../helpers/smtp.js';
import { mailMatching, verificationCode, VERIFY } from '../rbac/support.js';
import { registerPluginVariants } from '../../plugins/web.js';
import { lookup, register } from '../../web/registry.js';

const shown = (l: Locator) => l.first().waitFor({ state: 'visible', timeout: 15_000 });
const eventually = <T>(fn: () => Promise<T>) => vi.waitFor(fn, { timeout: 15_000, interval: 100 });
const EMAIL = 'member@example.com';
const PASSWORD = 'member-password';

/**
 * Issue 13 in Chromium: the subject overview with its products, the identity create-by-email flow, the
 * signed-in CRM request, and a render failure that revalidates, reloads once, then shows 'Reload'.
 */
describe('spec screens in Chromium', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let subject: { id: string; slug: string };
  const problems: string[] = [];

  beforeAll(async () => {
    smtp = await startSmtp();
    server = await startTestServer(sqliteDatabase(), { SEED: 'true', SMTP_URL: smtp.url, MAIL_FROM: 'shop@example.com' });
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    // signed in through the registration screen, as a visitor does
    await page.goto(server.url + '/rbac/subject/authentication/email-and-password/registration', { waitUntil: 'networkidle' });
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create an account' }).click();
    await page.getByRole('status').getByText('Check your email').waitFor();
    // the member proves the address from the mailed link, signed in in this browser: one click (an account whose only
    // address is unproven adds no login)
    const code = await verificationCode(smtp, EMAIL);
    await page.goto(`${server.url}/rbac/subject/authentication/email-and-password/verify?code=${encodeURIComponent(code)}`, { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: 'Verify email' }).click();
    await page.getByText(`Email verified: ${EMAIL} is confirmed as yours.`).waitFor();
    const login = await server.api('POST', '/api/rbac/subjects/authentication/email-and-password/authentication', { data: { login: EMAIL, password: PASSWORD } });
    subject = (await server.api('GET', '/api/rbac/subjects/authentication/me', undefined, { authorization: `Bearer ${login.body.data.jwt}` })).body.data;
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await page?.screenshot({ path: join(SCREENSHOTS, `conformance-failed-${ctx.task.name.slice(0, 30).replace(/\W+/g, '-')}.png`) });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await smtp?.close();
  });

  it('the members list leads to a subject overview with its products and profiles; a visitor never gets a private field', async () => {
    await page.goto(server.url + '/rbac/subjects', { waitUntil: 'networkidle' });
    const members = page.getByRole('list', { name: 'Members' });
    await shown(members);
    // a member is named by its social profile's title (the 'Studio team' subject's is 'Design studio')
    await members.getByRole('listitem').filter({ hasText: 'Design studio' }).getByRole('link', { name: 'View profile' }).click();
    await page.waitForURL(server.url + '/rbac/subjects/studio-team');
    await shown(page.getByRole('heading', { level: 1, name: 'Design studio' }));
    const linked = (await server.api('GET', '/api/rbac/subjects-to-ecommerce-module-products')).body.data as { ecommerceModuleProductId: string }[];
    expect(linked.length).toBeGreaterThan(0);
    const products = page.getByRole('list', { name: 'Profile' });
    for (const { ecommerceModuleProductId } of linked) {
      const product = (await server.api('GET', `/api/ecommerce/products/${ecommerceModuleProductId}`)).body.data;
      await shown(products.getByRole('heading', { name: product.title.en }));
    }
    // the profile itself is listed under the member, by the same title
    expect(await page.getByRole('heading', { name: 'Design studio' }).count()).toBeGreaterThan(1);
    await page.screenshot({ path: join(SCREENSHOTS, 'subject-overview-products-1280.png'), fullPage: true });
    // the member's own profile page, as a visitor: its email and secrets are in neither the HTML nor the page data
    const html = await (await fetch(`${server.url}/rbac/subjects/${subject.slug}`)).text();
    expect(html).toContain(subject.slug);
    // as a key (the footer links to 'Forgot password'): no field of an identity is in the page
    for (const secret of [EMAIL, '"password"', 'salt', '"code"', 'identities']) expect(html).not.toContain(secret);
  });

  it("adds an email with the create-by-email screen: 'Type your email', Submit, the current password; the address gets a verification mail", async () => {
    await page.goto(server.url + '/rbac/subjects/settings/email', { waitUntil: 'networkidle' });
    await page.getByPlaceholder('Type your email').fill('second@example.com');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Add email' }).click();
    await shown(page.getByRole('status').filter({ hasText: 'second@example.com' }));
    await page.screenshot({ path: join(SCREENSHOTS, 'identity-create-by-email-1280.png') });
    await mailMatching(smtp, 'second@example.com', VERIFY);
    // the new address signs in with the same password
    const signIn = await server.api('POST', '/api/rbac/subjects/authentication/email-and-password/authentication', { data: { login: 'second@example.com', password: PASSWORD } });
    expect(signIn.status).toBe(200);
    await page.goto(server.url + '/rbac/subjects/settings', { waitUntil: 'networkidle' });
    const row = page.getByRole('row').filter({ hasText: 'second@example.com' });
    await shown(row.getByText('Not verified'));
  });

  it('a signed-in subject sends the contact form: the request is linked to it', async () => {
    await page.goto(server.url + '/', { waitUntil: 'networkidle' });
    await shown(page.getByText('You are signed in: your request is linked to your account.'));
    await page.getByLabel('Your name').fill('Member');
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Message').fill('A members-only request.');
    await page.getByRole('button', { name: 'Submit' }).click();
    await shown(page.getByText('Form submitted successfully'));
    const links = await eventually(async () => {
      const r = (await server.system('GET', `/api/rbac/subjects-to-crm-module-requests?filters[and][0][column]=subjectId&filters[and][0][method]=eq&filters[and][0][value]=${subject.id}`)).body.data;
      expect(r).toHaveLength(1);
      return r as { crmModuleRequestId: string }[];
    });
    const request = (await server.system('GET', `/api/crm/requests/${links[0]!.crmModuleRequestId}`)).body.data;
    expect(request.payload.fields).toEqual({ name: 'Member', email: EMAIL, message: 'A members-only request.' });
  });

  it("a page that fails to render revalidates, reloads once, then shows 'Reload'; it draws again after 'Reload'", async () => {
    await registerPluginVariants();
    const original = lookup('website-builder', 'widget', 'content-default')!;
    register('website-builder/widget/content-default', () => {
      throw new Error('forced render failure');
    });
    // the home page may be cached from an earlier visit (every visitor is served from the cache): draw it anew
    await server.system('GET', '/api/revalidation/revalidate?path=/&type=layout');
    const visitor = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const tab = await visitor.newPage();
    const documents: number[] = [];
    const revalidations: string[] = [];
    tab.on('response', (r) => r.request().resourceType() === 'document' && documents.push(r.status()));
    tab.on('request', (r) => r.url().includes('/api/revalidation/revalidate') && revalidations.push(r.url()));
    try {
      await tab.goto(server.url + '/');
      const screen = tab.locator('[data-recovery="shown"]');
      await shown(screen);
      await shown(screen.getByRole('button', { name: 'Reload' }));
      // the screen decided not to reload again: exactly two loads and one revalidation, never a loop
      expect(documents).toEqual([500, 500]);
      expect(revalidations.map((u) => new URL(u).search)).toEqual(['?path=/&type=layout']);
      await tab.screenshot({ path: join(SCREENSHOTS, 'render-error-reload-1280.png') });
      register('website-builder/widget/content-default', original);
      await screen.getByRole('button', { name: 'Reload' }).click();
      await shown(tab.getByRole('heading', { name: 'From the blog' }));
      expect(documents).toEqual([500, 500, 200]);
      await eventually(async () => expect(await tab.evaluate(() => sessionStorage.getItem('storefront.recovery'))).toBeNull());
    } finally {
      register('website-builder/widget/content-default', original);
      await visitor.close();
    }
    expect(problems).toEqual([]);
  });
});
