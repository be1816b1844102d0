import { describe, it, expect, beforeAll, afterAll, afterEach } from 'vitest';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { SCREENSHOTS } from '../helpers/browser.js';
import { shown, startStorefront, type Storefront } from '../helpers/storefront.js';
import { verificationCode } from '../rbac/support.js';

/** what the probes type: a URL that holds it (in any case, encoded or not) carried a form's value */
const MARK = 'leak-probe';
const EMAIL = `${MARK}@example.com`;
const PASSWORD = `${MARK}-Secret-77`;
const carries = (url: string) => {
  const plain = (() => {
    try {
      return decodeURIComponent(url.replace(/\+/g, ' '));
    } catch {
      return url;
    }
  })();
  return plain.toLowerCase().includes(MARK) || /[?&](email|password|login|passwordConfirmation)=/i.test(plain);
};

/** the server-rendered pages whose forms take an address or a password (those without one as the server renders them still load) */
const PAGES = [
  '/rbac/subject/authentication/select-method',
  '/rbac/subject/authentication/email-and-password/authentication',
  '/rbac/subject/authentication/email-and-password/registration',
  '/rbac/subject/authentication/email-and-password/forgot-password',
  '/rbac/subject/authentication/email-and-password/reset-password?code=abc',
  '/rbac/subject/authentication/email-and-password/verify?code=abc',
  '/rbac/subjects/settings',
  '/rbac/subjects/settings/email',
  '/ru/rbac/subject/authentication/select-method',
  '/ru/rbac/subject/authentication/email-and-password/registration',
];

/** every request a context sends, and every address its pages' main frames go to (their history) */
function watchRequests(context: BrowserContext) {
  const requests: { method: string; url: string; body: string | null }[] = [];
  context.on('request', (r) => requests.push({ method: r.method(), url: r.url(), body: r.postData() }));
  return requests;
}
function watchHistory(page: Page) {
  const visited: string[] = [];
  page.on('framenavigated', (f) => f === page.mainFrame() && visited.push(f.url()));
  return visited;
}

describe('forms that take a secret never put it in a URL', () => {
  let site: Storefront;
  /** every request the server got: method and url as sent */
  const got: string[] = [];

  beforeAll(async () => {
    site = await startStorefront('secret-forms');
    site.server.http.on('request', (req: { method?: string; url?: string }) => got.push(`${req.method} ${req.url}`));
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') await site?.failed(ctx.task.name);
  });
  afterAll(async () => site?.close());

  it('item 8: with JavaScript off, a click or Enter on any such form sends nothing: no URL, history entry or server GET holds an email or password', async () => {
    const context = await site.browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
    const requests = watchRequests(context);
    const page = await context.newPage();
    const visited = watchHistory(page);
    let probed = 0;
    for (const path of PAGES) {
      await page.goto(site.server.url + path);
      const forms = await page.locator('form:has(input[type="password"]), form:has(input[type="email"])').all();
      for (const form of forms) {
        expect(await form.getAttribute('method'), path).toBe('post');
        const submit = form.locator('button[type="submit"]');
        expect(await submit.isDisabled(), path).toBe(true);
        const inputs = await form.locator('input[type="password"], input[type="email"]').all();
        for (const input of inputs) await input.fill((await input.getAttribute('type')) === 'email' ? EMAIL : PASSWORD);
        // a browser without script tells the visitor why the button does nothing (playwright's switch parses <noscript> as text: read, not shown)
        expect(await form.locator('noscript').textContent(), path).toMatch(/JavaScript/);
        if (path.startsWith('/rbac/subject/authentication/select-method')) await page.screenshot({ path: join(SCREENSHOTS, 'item8-no-script-sign-in.png') });
        // a click on the (disabled) button, and Enter in every field (implicit submission)
        await submit.click({ force: true });
        for (const input of inputs) await input.press('Enter');
        expect(page.url(), path).toBe(site.server.url + path);
        probed++;
      }
    }
    // sign-in twice (email and /ru), the sign-in page, registration twice, forgot and reset password
    expect(probed).toBe(7);
    expect(requests.filter((r) => carries(r.url)).map((r) => r.url)).toEqual([]);
    expect(requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.url}`)).toEqual([]);
    expect(visited.filter(carries)).toEqual([]);
    expect(visited.map((u) => u.slice(site.server.url.length))).toEqual(PAGES);
    expect(got.filter(carries)).toEqual([]);
    await context.close();
  });

  it("item 8: were the disabled button's guard gone, the browser's own submission is a POST answered by a 303 back to the page: still nothing in a URL", async () => {
    const context = await site.browser.newContext({ javaScriptEnabled: false });
    const requests = watchRequests(context);
    const page = await context.newPage();
    const visited = watchHistory(page);
    const path = '/rbac/subject/authentication/email-and-password/reset-password?code=abc';
    await page.goto(site.server.url + path);
    const form = page.locator('form:has(input[type="password"])');
    for (const input of await form.locator('input[type="password"]').all()) await input.fill(PASSWORD);
    // page.evaluate runs with the page's script off: the guard is taken away as an old or odd browser might ignore it
    await form.locator('button[type="submit"]').evaluate((b) => b.removeAttribute('disabled'));
    await form.locator('button[type="submit"]').click();
    await page.waitForURL(site.server.url + path);
    const sent = requests.find((r) => r.method === 'POST');
    expect(sent?.url).toBe(site.server.url + path);
    expect(sent?.body).toContain(MARK);
    expect(requests.filter((r) => carries(r.url))).toEqual([]);
    expect(visited.filter(carries)).toEqual([]);
    expect(got.filter(carries)).toEqual([]);
    await context.close();
  });

  it("item 8: a form the browser sends itself is a POST the server answers with a 303 back to the page, its body unread", async () => {
    const post = (path: string) =>
      fetch(site.server.url + path, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ email: EMAIL, password: PASSWORD }).toString() });
    for (const path of ['/rbac/subject/authentication/select-method', '/rbac/subject/authentication/email-and-password/reset-password?code=abc', '/ru/rbac/subject/authentication/email-and-password/registration']) {
      const res = await post(path);
      expect(res.status, path).toBe(303);
      expect(res.headers.get('location'), path).toBe(path);
      expect(await res.text(), path).not.toContain(MARK);
    }
    // the redirect stays on this site whatever the path's slashes say
    const res = await post('//elsewhere.example/rbac');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/elsewhere.example/rbac');
    // the API is not a page: its routes answer as before
    expect((await post('/api/rbac/subjects/authentication/email-and-password/authentication')).status).not.toBe(303);
  });

  it("item 8: a click and Enter before the page's script has run send nothing; once it has run, the same form signs in, its values in the request's body", async () => {
    const email = 'quick-clicker@example.com';
    expect((await site.server.api('POST', '/api/rbac/subjects/authentication/email-and-password/registration', { data: { login: email, password: PASSWORD } })).status).toBe(201);
    const context = await site.browser.newContext({ viewport: { width: 390, height: 844 } });
    const requests = watchRequests(context);
    const page = site.watch(await context.newPage(), 'quick');
    const visited = watchHistory(page);
    // the storefront's scripts are held back, as on a slow phone, until the visitor has clicked and pressed Enter
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    await page.route('**/assets/*.js', async (route) => {
      await released;
      await route.continue();
    });
    await page.goto(`${site.server.url}/rbac/subject/authentication/select-method`, { waitUntil: 'commit' });
    const form = page.getByRole('form', { name: 'Sign in' });
    await shown(form.getByLabel('Email'));
    await form.getByLabel('Email').fill(EMAIL);
    await form.getByLabel('Password').fill(PASSWORD);
    await form.getByRole('button', { name: 'Login', exact: true }).click({ force: true });
    await form.getByLabel('Password').press('Enter');
    expect(page.url()).toBe(`${site.server.url}/rbac/subject/authentication/select-method`);
    release();
    await shown(page.locator('form[data-hydrated]'));
    expect(requests.filter((r) => carries(r.url) || r.method === 'POST').map((r) => `${r.method} ${r.url}`)).toEqual([]);

    await form.getByLabel('Email').fill(email);
    await form.getByLabel('Password').fill(PASSWORD);
    await form.getByRole('button', { name: 'Login', exact: true }).click();
    await page.waitForURL(`${site.server.url}/`);
    const posts = requests.filter((r) => r.method === 'POST');
    expect(posts.map((r) => r.url.slice(site.server.url.length))).toEqual(['/api/rbac/subjects/authentication/email-and-password/authentication']);
    expect(JSON.parse(posts[0]!.body!)).toEqual({ data: { login: email, password: PASSWORD } });
    expect(requests.filter((r) => carries(r.url))).toEqual([]);
    expect(visited.filter(carries)).toEqual([]);
    expect(got.filter(carries)).toEqual([]);
    // no hydration mismatch (the form's disabled button, its <noscript>) nor any other console problem
    expect(site.problems).toEqual([]);
    await context.close();
  });

  it('item 2: opening the verification link sends nothing; the button, with the account\'s password, verifies the address', async () => {
    const email = 'verify-by-click@example.com';
    expect((await site.server.api('POST', '/api/rbac/subjects/authentication/email-and-password/registration', { data: { login: email, password: PASSWORD } })).status).toBe(201);
    const code = await verificationCode(site.smtp, email);
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const requests = watchRequests(context);
    const page = site.watch(await context.newPage(), 'verify');
    const verifyPosts = () => requests.filter((r) => r.method === 'POST' && r.url.endsWith('/email-and-password/verify'));
    await page.goto(`${site.server.url}/rbac/subject/authentication/email-and-password/verify?code=${encodeURIComponent(code)}`, { waitUntil: 'networkidle' });
    const form = page.getByRole('form', { name: 'Verify your email' });
    await shown(form.getByLabel('Password of your account'));
    await shown(page.getByRole('link', { name: 'Reset the password' }));
    expect(await form.getByRole('button', { name: 'Verify email' }).isEnabled()).toBe(true);
    expect(verifyPosts()).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, 'item2-verify-before-click.png') });

    await form.getByLabel('Password of your account').fill(PASSWORD);
    await form.getByRole('button', { name: 'Verify email' }).click();
    await shown(page.getByText(`Email verified: ${email} is confirmed as yours.`));
    await page.screenshot({ path: join(SCREENSHOTS, 'item2-verify-done.png') });
    expect(verifyPosts().map((r) => JSON.parse(r.body!))).toEqual([{ data: { code, password: PASSWORD } }]);
    expect(site.problems).toEqual([]);
    await context.close();
  });
});
