import { describe, it, expect, beforeAll, afterAll, afterEach } from 'vitest';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { SCREENSHOTS } from '../helpers/browser.js';
import { eventually, PHONE, shown, startStorefront, type Storefront } from '../helpers/storefront.js';
import { resetCodeIn } from '../helpers/smtp.js';
import { mailMatching, RESET } from '../rbac/support.js';

describe('storefront in Chromium', () => {
  let site: Storefront;
  let server: Storefront['server'];
  let smtp: Storefront['smtp'];
  let page: Page;
  let problems: string[];

  beforeAll(async () => {
    site = await startStorefront('storefront');
    ({ server, smtp, page, problems } = site);
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await site?.failed(ctx.task.name);
  });
  afterAll(async () => site?.close());

  it('opens the home page with no console error and no hydration mismatch; screenshots at 1280 and 390 px', async () => {
    await page.goto(server.url + '/', { waitUntil: 'networkidle' });
    await shown(page.getByRole('heading', { name: 'From the blog' }));
    await page.screenshot({ path: join(SCREENSHOTS, 'home-1280.png'), fullPage: true });
    const phone = await site.open(PHONE, '390');
    await phone.goto(server.url + '/', { waitUntil: 'networkidle' });
    await phone.getByRole('button', { name: 'Open menu' }).click();
    await shown(phone.getByRole('button', { name: 'Close menu' }));
    await phone.keyboard.press('Escape');
    await phone.screenshot({ path: join(SCREENSHOTS, 'home-390.png'), fullPage: true });
    await phone.close();
    expect(problems).toEqual([]);
  });

  it('switches to /ru and shows the ru texts', async () => {
    await page.goto(server.url + '/ru', { waitUntil: 'networkidle' });
    await shown(page.getByRole('heading', { name: 'Блог' }));
    expect(await page.getAttribute('html', 'lang')).toBe('ru');
    expect(problems).toEqual([]);
  });

  it('opens an article from the list', async () => {
    await page.goto(server.url + '/', { waitUntil: 'networkidle' });
    const list = page.locator('section', { has: page.getByRole('heading', { name: 'From the blog' }) });
    await list.getByRole('link', { name: 'Read more' }).first().click();
    await page.waitForURL(/\/blog\/articles\/[a-z0-9-]+$/);
    const slug = page.url().split('/').pop();
    const article = (await server.api('GET', `/api/blog/articles?filters[and][0][column]=slug&filters[and][0][method]=eq&filters[and][0][value]=${slug}`)).body.data[0];
    await shown(page.getByRole('heading', { level: 1, name: article.title.en }));
  });

  it('submits the contact form', async () => {
    await page.goto(server.url + '/', { waitUntil: 'networkidle' });
    await page.getByLabel('Your name').fill('Ada');
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByLabel('Message').fill('A shop in two languages, please.');
    await page.getByRole('button', { name: 'Submit' }).click();
    await shown(page.getByText('Form submitted successfully'));
    const requests = (await server.system('GET', '/api/crm/requests')).body.data;
    expect(requests).toHaveLength(1);
    expect(JSON.stringify(requests[0].payload)).toContain('A shop in two languages, please.');
  });

  it('registers, logs out, logs in', async () => {
    await page.goto(server.url + '/rbac/subject/authentication/email-and-password/registration', { waitUntil: 'networkidle' });
    await page.getByLabel('Email').fill('visitor@example.com');
    await page.getByLabel('Password').fill('visitor-password');
    await page.getByRole('button', { name: 'Create an account' }).click();
    // item 3: the same message whether or not the address had an account: check the email
    await shown(page.getByRole('status').getByText('We sent a message to visitor@example.com. Open it to verify your address.'));
    await page.screenshot({ path: join(SCREENSHOTS, 'item3-registered.png') });
    await page.getByRole('link', { name: 'Continue' }).click();
    await page.waitForURL(server.url + '/');
    await shown(page.getByRole('button', { name: /visitor@example\.com/ }));
    await page.getByRole('button', { name: /visitor@example\.com/ }).click();
    await page.getByRole('button', { name: 'Logout' }).click();
    await shown(page.getByRole('link', { name: 'Login' }));
    expect(await page.evaluate(() => localStorage.getItem('rbac.subject.refresh'))).toBeNull();

    await page.getByRole('link', { name: 'Login' }).click();
    await page.waitForURL(/select-method$/);
    await page.getByLabel('Email').fill('visitor@example.com');
    await page.getByLabel('Password').fill('visitor-password');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await page.waitForURL(server.url + '/');
    await shown(page.getByRole('button', { name: /visitor@example\.com/ }));
  });

  it('resets the password with the code from the email', async () => {
    await page.getByRole('button', { name: /visitor@example\.com/ }).click();
    await page.getByRole('button', { name: 'Logout' }).click();
    await shown(page.getByRole('link', { name: 'Login' }));
    await page.goto(server.url + '/rbac/subject/authentication/email-and-password/forgot-password', { waitUntil: 'networkidle' });
    await page.getByLabel('Email').fill('visitor@example.com');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await shown(page.getByText('Reset link sent'));
    // registration sent a verification mail first: the reset mail is the one with the code
    const mail = await mailMatching(smtp, 'visitor@example.com', RESET);
    const code = resetCodeIn(mail.raw);
    await page.goto(`${server.url}/rbac/subject/authentication/email-and-password/reset-password?code=${encodeURIComponent(code)}`, { waitUntil: 'networkidle' });
    await page.getByLabel('New password', { exact: true }).fill('brand-new-password');
    await page.getByLabel(/Confirm/).fill('brand-new-password');
    await page.getByRole('button', { name: 'Reset password' }).click();
    await shown(page.getByText('Password reset successfully'));
    await eventually(async () => expect((await server.api('POST', '/api/rbac/subjects/authentication/email-and-password/authentication', { data: { login: 'visitor@example.com', password: 'brand-new-password' } })).status).toBe(200));
    expect((await server.api('POST', '/api/rbac/subjects/authentication/email-and-password/authentication', { data: { login: 'visitor@example.com', password: 'visitor-password' } })).status).toBe(401);
  });
});
