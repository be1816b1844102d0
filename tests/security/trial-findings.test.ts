import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { DIALECTS, sqliteDatabase } from '../helpers/databases.js';
import { bootAccounts, type AccountsApp } from '../helpers/accounts.js';
import { startTestServer } from '../helpers/browser.js';
import { PageProvider } from '../../web/storefront/context.js';
import { ButtonLink } from '../../plugins/website-builder/web/button.js';
import { Logotype } from '../../plugins/website-builder/web/logotype.js';
import { BannerSlide } from '../../plugins/website-builder/web/slide.js';
import { isSafeLink } from '../../engine/links.js';

const ADMIN_ROLE = '8b3e4c60-0000-4000-8000-000000000001';
const MEMBER_ROLE = '8b3e4c60-0000-4000-8000-000000000002';
const ORDERS = '/api/ecommerce/orders';
const LINKS = '/api/rbac/subjects-to-ecommerce-module-orders';

/** the security trial of 2026-11-23: regression tests named after its findings (the rest live beside their modules) */
for (const d of DIALECTS) {
  describe(`security trial findings on ${d.name}`, () => {
    let t: AccountsApp;
    beforeAll(async () => {
      t = (await bootAccounts(await d.make())) as AccountsApp;
    });
    afterAll(async () => t?.close());

    async function grantMembers(routes: [string, string][]) {
      for (const [method, route] of routes) {
        const perm = (await t.call('POST', '/api/rbac/permissions/find-or-create', { data: { method, route } })).body.data;
        await t.call('POST', '/api/rbac/roles-to-permissions/find-or-create', { data: { roleId: MEMBER_ROLE, permissionId: perm.id } });
      }
    }

    it('finding 3: owner scoping holds once members may write orders — find-or-create, self-linking, status', async () => {
      const a = await t.register('victim-order@example.com');
      const m = await t.register('attacker-order@example.com');
      // the victim's order, with a receipt
      const order = (await t.call('POST', ORDERS, { data: { receipt: 'A-0001', comment: 'victim' } })).body.data;
      await t.call('POST', LINKS, { data: { subjectId: a.id, ecommerceModuleOrderId: order.id } });
      await grantMembers([['*', `${ORDERS}`], ['*', `${ORDERS}/*`], ['*', LINKS], ['*', `${LINKS}/*`]]);
      const attacker = t.as(m.jwt);

      // find-or-create on the victim's receipt: receipts are admin-write, and no other subject's row is ever found
      const byReceipt = await attacker('POST', `${ORDERS}/find-or-create`, { data: { receipt: 'A-0001' } });
      expect(byReceipt.status).toBe(403);
      expect(JSON.stringify(byReceipt.body)).not.toContain(order.id);
      const byComment = await attacker('POST', `${ORDERS}/find-or-create`, { data: { comment: 'victim' } });
      expect(byComment.status).toBe(201);
      expect(byComment.body.data.id).not.toBe(order.id);

      // linking oneself to the victim's order is refused, writes nothing, and gives no read or status change
      const links = (await t.call('GET', `${LINKS}/count`)).body.data;
      const link = await attacker('POST', LINKS, { data: { subjectId: m.id, ecommerceModuleOrderId: order.id } });
      expect(link.status).toBe(403);
      expect((await t.call('GET', `${LINKS}/count`)).body.data).toBe(links);
      expect((await attacker('GET', `${ORDERS}/${order.id}`)).status).toBe(403);
      expect((await attacker('PATCH', `${ORDERS}/${order.id}`, { data: { status: 'delivered' } })).status).toBe(403);
      expect((await attacker('PATCH', `${ORDERS}/${order.id}`, { data: { comment: 'mine now' } })).status).toBe(403);
      expect((await t.call('GET', `${ORDERS}/${order.id}`)).body.data).toMatchObject({ status: 'new', comment: 'victim' });
      // the attacker's list holds only its own orders
      const listed = (await attacker('GET', ORDERS)).body.data as { id: string }[];
      expect(listed.map((o) => o.id)).toEqual([byComment.body.data.id]);

      // on its own order a member may write the comment, never the status, type or receipt
      const own = byComment.body.data.id;
      expect((await attacker('PATCH', `${ORDERS}/${own}`, { data: { comment: 'gift wrap' } })).status).toBe(200);
      for (const field of ['status', 'type', 'receipt']) {
        const value = { status: 'delivered', type: 'history', receipt: 'X-1' }[field];
        const r = await attacker('PATCH', `${ORDERS}/${own}`, { data: { [field]: value } });
        expect(r.status).toBe(403);
        expect(r.body.cause).toEqual([expect.objectContaining({ field, rule: 'access' })]);
      }
      expect((await t.call('GET', `${ORDERS}/${own}`)).body.data).toMatchObject({ status: 'new', type: 'cart', receipt: '' });
      // and an admin may
      const admin = await t.register('admin-for-orders@example.com');
      await t.call('POST', '/api/rbac/subjects-to-roles', { data: { subjectId: admin.id, roleId: ADMIN_ROLE } });
      expect((await t.as(admin.jwt)('PATCH', `${ORDERS}/${own}`, { data: { status: 'paying' } })).body.data.status).toBe('paying');
    });

    it('finding 9: role membership is readable by admins and the subject itself only', async () => {
      const member = await t.register('curious-member@example.com');
      const admins = `/api/rbac/subjects-to-roles?filters[and][0][column]=roleId&filters[and][0][method]=eq&filters[and][0][value]=${ADMIN_ROLE}`;
      expect((await t.anon('GET', admins)).status).toBe(401);
      expect((await t.as(member.jwt)('GET', admins)).status).toBe(403);
      expect((await t.anon('GET', '/api/rbac/subjects-to-roles/count')).status).toBe(401);
      // the subject sees its own roles through /me; the system sees every row
      expect((await t.as(member.jwt)('GET', '/api/rbac/subjects/authentication/me')).body.data.roles.map((r: { slug: string }) => r.slug)).toEqual(['member']);
      expect((await t.call('GET', admins)).status).toBe(200);
    });

    it('a file field takes an https url, a stored key or a path on this site: no other scheme, no other site, no ..', async () => {
      const F = '/api/file-storage/files';
      const before = (await t.call('GET', `${F}/count`)).body.data;
      for (const file of ['//evil.example/x.png', '/\\evil.example/x.png', 'javascript:alert(1)', 'data:text/html,<b>x</b>', 'http://example.com/x.png', '../../etc/passwd', 'a/../../b.png', 'java\tscript:x', ' javascript:alert(1)', ' //evil.example/a.png', '\u00a0//evil.example', ' ../x', '/a/%2e%2e/b.png', '%2E%2e/x']) {
        const r = await t.call('POST', F, { data: { file } });
        expect(r.status, file).toBe(400);
        expect(r.body.cause[0]).toMatchObject({ field: 'file', rule: 'pattern', message: "file must be an https url, a stored file's key or a path on this site" });
      }
      expect((await t.call('GET', `${F}/count`)).body.data).toBe(before);
      for (const file of ['https://cdn.example.com/hero.jpg', 'team.png', 'assets/x.js', '/logo.svg', 'photo.jpg?v=2']) {
        expect((await t.call('POST', F, { data: { file } })).status, file).toBe(201);
      }
      const made = (await t.call('POST', F, { data: { file: 'ok.png' } })).body.data;
      expect((await t.call('PATCH', `${F}/${made.id}`, { data: { file: '//evil.example/y.png' } })).status).toBe(400);
    });

    it('finding 15: link urls are checked against one allow-list on write', async () => {
      const bad = ['javascript:alert(1)', 'JavaScript:alert(1)', ' javascript:alert(1)', 'java\tscript:alert(1)', 'data:text/html,<script>alert(1)</script>', '//evil.example/x', '/\\evil.example', 'vbscript:x'];
      for (const [route, extra] of [['buttons', {}], ['slides', {}], ['logotypes', {}]] as const) {
        const path = `/api/website-builder/${route}`;
        const before = (await t.call('GET', `${path}/count`)).body.data;
        for (const url of bad) {
          const r = await t.call('POST', path, { data: { url, ...extra } });
          expect(r.status, `${route} ${url}`).toBe(400);
          expect(r.body.cause[0]).toMatchObject({ field: 'url', rule: 'pattern' });
        }
        expect((await t.call('GET', `${path}/count`)).body.data).toBe(before);
        for (const url of ['https://example.com/x', '/blog', '#top', 'mailto:a@example.com', 'tel:+100', 'blog/articles']) {
          expect((await t.call('POST', path, { data: { url } })).status, `${route} ${url}`).toBe(201);
        }
        const made = (await t.call('POST', path, { data: { url: '/ok' } })).body.data;
        expect((await t.call('PATCH', `${path}/${made.id}`, { data: { url: 'javascript:alert(1)' } })).status).toBe(400);
      }
    });

    it("the shop's stored addresses (an order's receipt, an invoice's payment and return urls) pass the same allow-list; a receipt may stay empty", async () => {
      const order = (await t.call('POST', '/api/ecommerce/orders', { data: {} })).body.data;
      expect(order.receipt).toBe('');
      const invoice = (await t.call('POST', '/api/billing/invoices', { data: { paymentUrl: 'https://pay.example.com/x', successUrl: '/ecommerce/orders' } })).body.data;
      for (const url of ['javascript:alert(document.domain)', 'JavaScript:alert(1)', '//evil.example/r.png', 'data:image/svg+xml,x']) {
        const r = await t.call('PATCH', `/api/ecommerce/orders/${order.id}`, { data: { receipt: url } });
        expect(r.status, url).toBe(400);
        expect(r.body.cause[0]).toMatchObject({ field: 'receipt', rule: 'pattern' });
        for (const field of ['paymentUrl', 'successUrl', 'cancelUrl']) {
          const i = await t.call('PATCH', `/api/billing/invoices/${invoice.id}`, { data: { [field]: url } });
          expect(i.status, `${field} ${url}`).toBe(400);
          expect(i.body.cause[0]).toMatchObject({ field, rule: 'pattern' });
        }
      }
      for (const receipt of ['/files/receipt.png', 'https://cdn.example.com/r.png', '']) {
        expect((await t.call('PATCH', `/api/ecommerce/orders/${order.id}`, { data: { receipt } })).body.data.receipt).toBe(receipt);
      }
    });
  });
}

describe('finding 15: a stored unsafe url renders no link', () => {
  const page = { language: 'en', languages: ['en', 'ru'], defaultLanguage: 'en', url: '/', params: {} };
  const render = (el: ReturnType<typeof createElement>) => renderToString(createElement(PageProvider, { value: page, children: el }));
  const row = (url: string) => ({ id: '00000000-0000-4000-8000-000000000001', variant: 'default', url, title: { en: 'Go' } });

  it('buttons, slides and logotypes drop javascript:, data: and //host urls, and keep safe ones', () => {
    for (const url of ['javascript:alert(1)', 'data:text/html,x', '//evil.example/x']) {
      for (const Component of [ButtonLink, BannerSlide, Logotype]) {
        const html = render(createElement(Component, { row: row(url) }));
        expect(html, `${Component.name} ${url}`).not.toContain('javascript:');
        expect(html).not.toContain('data:text');
        expect(html).not.toContain('evil.example');
      }
    }
    expect(render(createElement(ButtonLink, { row: row('/blog') }))).toContain('href="/blog"');
    expect(render(createElement(ButtonLink, { row: row('https://example.com/') }))).toContain('href="https://example.com/"');
  });

  it('the rich-text view and the url fields share the one allow-list', async () => {
    const { isSafeHref } = await import('../../web/ui/rich-text-view.js');
    expect(isSafeHref).toBe(isSafeLink);
  });
});

describe('finding 9: the subject page holds no role membership', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    server = await startTestServer(sqliteDatabase(), { SEED: 'true' });
  });
  afterAll(async () => server?.close());

  it('/rbac/subjects/{slug} page data has no subjectsToRoles', async () => {
    const registered = await server.api('POST', '/api/rbac/subjects/authentication/email-and-password/registration', { data: { login: 'page-subject@example.com', password: 'password123' } });
    const subject = (await server.api('GET', '/api/rbac/subjects/authentication/me', undefined, { authorization: `Bearer ${registered.body.data.jwt}` })).body.data;
    expect(subject.slug).toBeTruthy();
    await server.system('POST', '/api/rbac/subjects-to-roles', { data: { subjectId: subject.id, roleId: ADMIN_ROLE } });
    const res = await fetch(`${server.url}/rbac/subjects/${subject.slug}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).not.toContain('subjectsToRoles');
    expect(html).not.toContain(ADMIN_ROLE);
  });
});
