import { describe, it, expect } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { shopPath, shopForSuite, type Catalog, type Shop } from '../ecommerce/support.js';
import { ownersOf } from '../../plugins/broadcast/server/revalidation.js';

const ADMIN_ROLE = '8b3e4c60-0000-4000-8000-000000000001';
const MEMBER_ROLE = '8b3e4c60-0000-4000-8000-000000000002';
const INVOICES = '/api/billing/invoices';

/**
 * F13: invoices had no owner, so a role granted `GET /api/billing/invoices` listed every buyer's invoice: their
 * emails and the payment links with their tokens. An invoice is owned through its payment intent
 * (billing/payment-intents-to-invoices), which is owned through rbac/subjects-to-billing-module-payment-intents: the
 * model's ownership follows that chain, and the one policy scopes lists, counts and reads by it.
 */
for (const d of DIALECTS) {
  describe(`invoices are owned through their payment intent on ${d.name}`, () => {
    let t: Shop;
    let c: Catalog;
    shopForSuite(d, (shop, catalog) => ((t = shop), (c = catalog)));

    async function grantMembers(routes: [string, string][]) {
      for (const [method, route] of routes) {
        const perm = (await t.call('POST', '/api/rbac/permissions/find-or-create', { data: { method, route } })).body.data;
        await t.call('POST', '/api/rbac/roles-to-permissions/find-or-create', { data: { roleId: MEMBER_ROLE, permissionId: perm.id } });
      }
    }
    /** a one-step checkout of the pen as `m`, with `email` typed into the invoice: the invoice made */
    async function buy(m: Awaited<ReturnType<Shop['register']>>, email: string) {
      const r = await m.call('POST', shopPath(m.id, `/products/${c.pen.id}/checkout`), { data: { provider: 'dummy', email, billingModule: { currency: { id: c.usd.id } } } });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body.data.billingModule.invoices[0] as { id: string; email: string; paymentUrl: string };
    }

    it('F13: a member granted GET on invoices lists, counts and reads its own only; admins see all', async () => {
      const a = await t.register(`f13-a-${d.name}@example.com`);
      const b = await t.register(`f13-b-${d.name}@example.com`);
      const mine = [await buy(a, `typed-a1-${d.name}@example.com`), await buy(a, `typed-a2-${d.name}@example.com`)];
      const theirs = await buy(b, `typed-b-${d.name}@elsewhere.example`);
      expect(theirs.paymentUrl).toMatch(/token=/);
      // not granted yet: members may not list invoices at all
      expect((await a.call('GET', INVOICES)).status).toBe(403);
      await grantMembers([['GET', INVOICES], ['GET', `${INVOICES}/*`]]);

      const listed = await a.call('GET', INVOICES);
      expect(listed.status).toBe(200);
      expect((listed.body.data as { id: string }[]).map((i) => i.id).sort()).toEqual(mine.map((i) => i.id).sort());
      expect(listed.headers.get('x-total-count')).toBe('2');
      // nothing of the other buyer's invoice anywhere in the answer: its id, email, payment link or token
      const token = new URL(theirs.paymentUrl, 'https://x').searchParams.get('token')!;
      for (const secret of [theirs.id, theirs.email, theirs.paymentUrl, token]) expect(JSON.stringify(listed.body)).not.toContain(secret);
      // a page of one: its total is counted under the same scope, as is /count
      const page = await a.call('GET', `${INVOICES}?limit=1`);
      expect(page.body.data).toHaveLength(1);
      expect(page.headers.get('x-total-count')).toBe('2');
      expect((await a.call('GET', `${INVOICES}/count`)).body.data).toBe(2);
      // a filter on the other buyer's email finds nothing
      const filtered = await a.call('GET', `${INVOICES}?filters[and][0][column]=email&filters[and][0][method]=eq&filters[and][0][value]=${encodeURIComponent(theirs.email)}`);
      expect([filtered.status, filtered.body.data, filtered.headers.get('x-total-count')]).toEqual([200, [], '0']);
      // a single read: its own, never the other's
      expect((await a.call('GET', `${INVOICES}/${mine[0].id}`)).body.data).toMatchObject({ id: mine[0].id, email: mine[0].email });
      const other = await a.call('GET', `${INVOICES}/${theirs.id}`);
      expect([403, 404]).toContain(other.status);
      expect(JSON.stringify(other.body)).not.toContain(theirs.email);
      // and the other buyer sees its own one
      expect((await b.call('GET', INVOICES)).body.data.map((i: { id: string }) => i.id)).toEqual([theirs.id]);
      // live events about an invoice are told to its owner only: the broadcast module follows the same chain
      expect(await ownersOf(t.ctx, t.model.byId['billing/invoice'], { id: theirs.id })).toEqual([b.id]);
      // a member may not make an invoice through the generic route (it would be owned by no one it could link)
      await grantMembers([['POST', INVOICES]]);
      const before = (await t.call('GET', `${INVOICES}/count`)).body.data;
      expect((await a.call('POST', INVOICES, { data: { email: 'made@example.com' } })).status).toBe(403);
      expect((await t.call('GET', `${INVOICES}/count`)).body.data).toBe(before);

      // an admin sees every invoice
      const admin = await t.register(`f13-admin-${d.name}@example.com`);
      await t.call('POST', '/api/rbac/subjects-to-roles', { data: { subjectId: admin.id, roleId: ADMIN_ROLE } });
      const all = (await admin.call('GET', `${INVOICES}?limit=1000`)).body.data.map((i: { id: string }) => i.id);
      for (const id of [...mine.map((i) => i.id), theirs.id]) expect(all).toContain(id);
    }, 60_000);

    it("F13: the class: every private entity linking a buyer's order, payment or request is owned; granted GET, a member lists none of another buyer's rows", async () => {
      // the links around a checkout (order ↔ payment intent, intent ↔ invoice and currency, webhook events) and a
      // form's requests: each is private, and each is owned through the row it hangs on
      const linked = ['billing/payment-intents-to-invoices', 'billing/payment-intents-to-currencies', 'billing/webhook-event', 'ecommerce/orders-to-billing-module-payment-intents', 'ecommerce/orders-to-billing-module-currencies', 'ecommerce/orders-to-file-storage-module-files', 'crm/forms-to-requests'];
      for (const id of linked) expect(t.model.byId[id]!.owner, id).toBeTruthy();
      // no private entity that references an owned entity is left without an owner of its own, but two links that hold
      // the site's configuration rather than anyone's data: a role's permissions, and which topics a notification went to
      const configuration = new Set(['rbac/roles-to-permissions', 'notification/topics-to-notifications']);
      for (const e of t.model.entities) {
        if (e.access !== 'private' || e.owner || configuration.has(e.id)) continue;
        const toOwned = e.fields.filter((f) => f.kind === 'reference' && t.model.byId[f.target!]?.owner && t.model.byId[f.target!]!.id !== 'rbac/subject');
        expect(toOwned.map((f) => f.name), `${e.id} references owned rows but has no owner`).toEqual([]);
      }
      const a = await t.register(`f13-class-a-${d.name}@example.com`);
      const b = await t.register(`f13-class-b-${d.name}@example.com`);
      await buy(a, `f13-class-a-${d.name}@example.com`);
      await buy(b, `f13-class-b-${d.name}@example.com`);
      for (const id of ['billing/payment-intents-to-invoices', 'billing/payment-intents-to-currencies', 'ecommerce/orders-to-billing-module-payment-intents']) {
        const e = t.model.byId[id]!;
        const path = `/api/${e.module}/${e.route}`;
        await grantMembers([['GET', path]]);
        const all = (await t.call('GET', `${path}?limit=1000`)).body.data as Record<string, unknown>[];
        const own = (await a.call('GET', `${path}?limit=1000`)).body.data as Record<string, unknown>[];
        expect(own.length, id).toBeGreaterThan(0);
        expect(own.length, id).toBeLessThan(all.length);
        const bs = (await b.call('GET', `${path}?limit=1000`)).body.data as Record<string, unknown>[];
        for (const row of bs) expect(own.map((r) => r.id), id).not.toContain(row.id);
      }
    }, 60_000);
  });
}
