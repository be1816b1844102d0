import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { sqliteDatabase } from './databases.js';
import { launchBrowser, SCREENSHOTS, startTestServer } from './browser.js';

/** the admin role of the seeded roles (schemas' defaults) */
export const ADMIN_ROLE = '8b3e4c60-0000-4000-8000-000000000001';

/**
 * The real server with the built web apps, an admin account and a Chromium page of 1400 × 900 for the admin's
 * browser tests. The address is listed in ADMIN_EMAILS, but an unverified one grants nothing: the admin role is
 * given by the system, as `npm run admin:create` does. `signIn` signs the page in through the admin's own form.
 */
export async function adminInBrowser(email: string, password = 'admin-password') {
  const server = await startTestServer(sqliteDatabase(), { ADMIN_EMAILS: email });
  const registered = await server.api('POST', '/api/rbac/subjects/authentication/email-and-password/registration', { data: { login: email, password } });
  if (registered.status !== 201) throw new Error(`registration answered ${registered.status}`);
  const me = await server.api('GET', '/api/rbac/subjects/authentication/me', undefined, { authorization: `Bearer ${registered.body.data.jwt}` });
  const granted = await server.system('POST', '/api/rbac/subjects-to-roles', { data: { subjectId: me.body.data.id, roleId: ADMIN_ROLE } });
  if (granted.status !== 201) throw new Error(`the admin role answered ${granted.status}`);
  const browser = await launchBrowser();
  const page: Page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  return {
    server,
    browser,
    page,
    async signIn(timeout = 15_000) {
      await page.goto(`${server.url}/admin/`);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Login' }).click();
      await page.getByRole('navigation', { name: 'Models' }).first().waitFor({ state: 'visible', timeout });
    },
    /** a failed test's last screen, under .tmp/screenshots */
    async screenshotIfFailed(ctx: { task: { name: string; result?: { state?: string } } }, prefix = 'failed') {
      if (ctx.task.result?.state === 'fail') await page.screenshot({ path: join(SCREENSHOTS, `${prefix}-${ctx.task.name.slice(0, 40).replace(/\W+/g, '-')}.png`) });
    },
    async close() {
      await browser.close();
      await server.close();
    },
  };
}
