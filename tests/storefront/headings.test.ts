import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { sqliteDatabase } from '../helpers/databases.js';
import { startTestServer } from '../helpers/browser.js';

/** the h1 elements of a server-rendered page: their class and text */
const h1s = (html: string) => [...html.matchAll(/<h1( class="([^"]*)")?[^>]*>([\s\S]*?)<\/h1>/g)].map((m) => ({ className: m[2] ?? '', text: m[3]!.replace(/<[^>]+>/g, '').trim() }));

/**
 * Every page of the demo has exactly one h1 in its server HTML, its main title. The account and shop pages made only
 * of widgets that title themselves (no heading widget) get it from the widget that leads the page's content, drawn
 * with the classes its h2 had (the look is unchanged); the widgets after it keep h2.
 */
describe('one h1 per page, in the server HTML', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  const html = async (path: string) => {
    const res = await fetch(server.url + path);
    expect(res.status, path).toBe(200);
    return res.text();
  };
  beforeAll(async () => {
    server = await startTestServer(sqliteDatabase(), { SEED: 'true', PUBLIC_URL: 'https://shop.example.com' });
  });
  afterAll(async () => server?.close());

  it('the account and orders pages: their visible title is the h1, with the classes it had as h2', async () => {
    const pages: [string, string, string][] = [
      ['/rbac/subject/authentication/select-method', 'Sign in', 'text-2xl font-semibold tracking-tight text-slate-900'],
      ['/rbac/subject/authentication/email-and-password/forgot-password', 'Forgot your password?', 'text-2xl font-semibold tracking-tight text-slate-900'],
      ['/rbac/subject/authentication/email-and-password/registration', 'Create an account', 'text-2xl font-semibold tracking-tight text-slate-900'],
      ['/rbac/subjects', 'Members', 'section-title'],
      ['/rbac/subjects/settings', 'Profile', 'mb-4 text-2xl font-semibold tracking-tight'],
      ['/ecommerce/orders', 'Your orders', 'section-title'],
      ['/ru/ecommerce/orders', 'Ваши заказы', 'section-title'],
      ['/ru/rbac/subjects', 'Участники', 'section-title'],
    ];
    for (const [path, text, className] of pages) expect(h1s(await html(path)), path).toEqual([{ className, text }]);
    // the settings page's second widget keeps its h2
    expect(await html('/rbac/subjects/settings')).toContain('<h2 class="text-2xl font-semibold tracking-tight">Sign-in methods</h2>');
  });

  it('every page url, in both languages, has exactly one h1 (the logout screen, whose body is hidden, none)', async () => {
    // every url the site answers (the sitemap leaves out the visitor's own pages: sign-in, settings, orders)
    const urls = (await (await fetch(server.url + '/api/host/pages/urls')).json()).data.urls as { url: string }[];
    const paths = urls.flatMap(({ url }) => [url, url === '/' ? '/ru' : `/ru${url}`]);
    expect(paths).toContain('/ru/rbac/subjects/settings');
    expect(paths.length).toBeGreaterThan(60);
    const wrong: string[] = [];
    for (const path of paths) {
      const found = h1s(await html(path));
      const expected = /\/rbac\/subject\/authentication\/logout$/.test(path) ? 0 : 1;
      if (found.length !== expected) wrong.push(`${path}: ${found.map((h) => h.text).join(' / ') || 'none'}`);
    }
    expect(wrong).toEqual([]);
  });
});
