import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { bootApp, type TestApp } from '../helpers/app.js';
import { createHostPlugin } from '../../plugins/host/server/index.js';
import { notification } from '../../plugins/notification/server/index.js';
import { createRbacPlugin } from '../../plugins/rbac/server/index.js';
import { GENEROUS } from '../helpers/accounts.js';

const ORIGIN = 'https://shop.example.com';

/** every <url> of a sitemap: its loc, lastmod and alternates */
function urlsOf(xml: string) {
  return [...xml.matchAll(/<url>([\s\S]*?)<\/url>/g)].map(([, body]) => ({
    loc: /<loc>([^<]*)<\/loc>/.exec(body)![1],
    lastmod: /<lastmod>([^<]*)<\/lastmod>/.exec(body)![1],
    alternates: Object.fromEntries([...body.matchAll(/hreflang="([^"]+)" href="([^"]+)"/g)].map(([, l, h]) => [l, h])),
  }));
}

for (const d of DIALECTS) {
  describe(`discovery on ${d.name}: /sitemap.xml and /robots.txt`, () => {
    let t: TestApp;
    const get = async (path: string) => {
      const res = await t.app.request(path);
      return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
    };
    beforeAll(async () => {
      t = await bootApp(await d.make(), { plugins: [notification, createRbacPlugin({ limits: GENEROUS }), createHostPlugin()], env: { PUBLIC_URL: ORIGIN } });
      for (const url of ['/', '/about', '/blog/articles/[blog.article.slug]', '/404', '/500', '/rbac/subjects/[rbac.subject.slug]']) {
        expect((await t.call('POST', '/api/host/pages', { data: { url, title: url } })).status).toBe(201);
      }
      // a private entity's segment (orders) names no page: refused when the page is written
      expect((await t.call('POST', '/api/host/pages', { data: { url: '/orders/[ecommerce.order.id]', title: 'Orders' } })).body.cause[0]).toMatchObject({ field: 'url', rule: 'reference' });
      for (const slug of ['launch-week', 'second-post']) {
        expect((await t.call('POST', '/api/blog/articles', { data: { slug, title: { en: slug } } })).status).toBe(201);
      }
    });
    afterAll(async () => t?.close());

    it('lists every page url per language, absolute from PUBLIC_URL, with entity segments expanded to the real rows', async () => {
      const r = await get('/sitemap.xml');
      expect(r.status).toBe(200);
      expect(r.type).toContain('application/xml');
      expect(r.text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9" xmlns:xhtml="http:\/\/www.w3.org\/1999\/xhtml">/);
      const urls = urlsOf(r.text);
      expect(urls.map((u) => u.loc).sort()).toEqual(
        [
          `${ORIGIN}/`, `${ORIGIN}/ru`,
          `${ORIGIN}/about`, `${ORIGIN}/ru/about`,
          `${ORIGIN}/blog/articles/launch-week`, `${ORIGIN}/ru/blog/articles/launch-week`,
          `${ORIGIN}/blog/articles/second-post`, `${ORIGIN}/ru/blog/articles/second-post`,
        ].sort(),
      );
      // error pages and a private entity's segment (orders) are not listed; no placeholder is left
      expect(r.text).not.toContain('/404');
      expect(r.text).not.toContain('/orders/');
      expect(r.text).not.toContain('[');
      const about = urls.find((u) => u.loc === `${ORIGIN}/ru/about`)!;
      expect(about.alternates).toEqual({ en: `${ORIGIN}/about`, ru: `${ORIGIN}/ru/about`, 'x-default': `${ORIGIN}/about` });
      expect(Number.isNaN(Date.parse(about.lastmod))).toBe(false);
    });

    it("a visitor's anonymous session (a subject with no sign-in method) is not listed; a subject with one is", async () => {
      const init = await t.call('GET', '/api/rbac/subjects/authentication/init', undefined, { auth: false });
      expect(init.status).toBe(200);
      const anonymous = (await t.call('GET', '/api/rbac/subjects')).body.data as { slug: string }[];
      expect(anonymous.length).toBeGreaterThan(0);
      const registered = await t.call('POST', '/api/rbac/subjects/authentication/email-and-password/registration', { data: { login: 'listed@example.com', password: 'password123' } }, { auth: false });
      expect(registered.status).toBe(201);
      const me = (await t.call('GET', '/api/rbac/subjects/authentication/me', undefined, { token: registered.body.data.jwt })).body.data;
      const sitemap = (await get('/sitemap.xml')).text;
      const urls = ((await t.call('GET', '/api/host/pages/urls')).body.data.urls as { url: string }[]).map((u) => u.url);
      expect(sitemap).toContain(`${ORIGIN}/rbac/subjects/${me.slug}<`);
      expect(urls).toContain(`/rbac/subjects/${me.slug}`);
      for (const s of anonymous.filter((a) => a.slug !== me.slug)) {
        expect(sitemap).not.toContain(`/rbac/subjects/${s.slug}<`);
        expect(urls).not.toContain(`/rbac/subjects/${s.slug}`);
      }
    });

    it('a new row of a page\'s entity is listed at once, with its own lastmod', async () => {
      const a = (await t.call('POST', '/api/blog/articles', { data: { slug: 'fresh-news' } })).body.data;
      const urls = urlsOf((await get('/sitemap.xml')).text);
      const fresh = urls.find((u) => u.loc === `${ORIGIN}/blog/articles/fresh-news`)!;
      expect(new Date(fresh.lastmod).getTime()).toBe(new Date(a.updatedAt).getTime());
    });

    it("a page for the visitor alone (its own widget is a sign-in or account screen) is not listed; a layout's sign-in box changes nothing", async () => {
      /** a page at `url` whose own widgets show rbac widget rows of these variants, and whose layout shows `layoutVariant` */
      const pageWith = async (url: string, variants: string[], layoutVariant?: string) => {
        const page = (await t.call('POST', '/api/host/pages', { data: { url, title: url } })).body.data;
        const hostWidget = async (variant: string) => {
          const row = (await t.call('POST', '/api/rbac/widgets', { data: { variant } })).body.data;
          const widget = (await t.call('POST', '/api/host/widgets', { data: {} })).body.data;
          expect((await t.call('POST', '/api/host/widgets-to-external-widgets', { data: { widgetId: widget.id, externalModule: 'rbac', externalWidgetId: row.id } })).status).toBe(201);
          return widget.id as string;
        };
        for (const [i, v] of variants.entries()) expect((await t.call('POST', '/api/host/pages-to-widgets', { data: { pageId: page.id, widgetId: await hostWidget(v), orderIndex: i } })).status).toBe(201);
        if (layoutVariant) {
          const layout = (await t.call('POST', '/api/host/layouts', { data: {} })).body.data;
          expect((await t.call('POST', '/api/host/layouts-to-widgets', { data: { layoutId: layout.id, widgetId: await hostWidget(layoutVariant), orderIndex: 0 } })).status).toBe(201);
          expect((await t.call('POST', '/api/host/pages-to-layouts', { data: { pageId: page.id, layoutId: layout.id } })).status).toBe(201);
        }
      };
      await pageWith('/sign-in-here', ['subject-list', 'login']);
      await pageWith('/my-settings', ['identity-settings']);
      await pageWith('/members-here', ['subject-list'], 'login');
      const sitemap = (await get('/sitemap.xml')).text;
      expect(sitemap).not.toContain('/sign-in-here<');
      expect(sitemap).not.toContain('/my-settings<');
      expect(sitemap).toContain(`${ORIGIN}/members-here<`);
      expect(sitemap).toContain(`${ORIGIN}/ru/members-here<`);
    });

    it('robots.txt allows the site, keeps crawlers out of the admin and the API, and names the sitemap', async () => {
      const r = await get('/robots.txt');
      expect(r.status).toBe(200);
      expect(r.type).toContain('text/plain');
      expect(r.text).toContain('User-agent: *');
      expect(r.text).toContain('Disallow: /admin/');
      expect(r.text).toContain('Disallow: /api/');
      expect(r.text).toContain(`Sitemap: ${ORIGIN}/sitemap.xml`);
    });
  });
}
