import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import fc from 'fast-check';
import qs from 'qs';
import type { Entity } from '../../engine/model.js';
import { DIALECTS } from '../helpers/databases.js';
import { bootAccounts, type AccountsApp } from '../helpers/accounts.js';

const ADMIN_ROLE = '8b3e4c60-0000-4000-8000-000000000001';
const MEMBER_ROLE = '8b3e4c60-0000-4000-8000-000000000002';
const METHODS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'like', 'ilike', 'notLike', 'notIlike', 'inArray', 'notInArray', 'isNull', 'isNotNull', 'between', '', 'EQ'];
const OPS = ['list', 'count', 'get', 'create', 'update', 'delete', 'findOrCreate', 'bulkCreate', 'bulkUpdate'] as const;
type Op = (typeof OPS)[number];
/** what members may do through the generic routes in this run: their orders and the links that own them, and blog rows */
const GRANTED = ['/api/ecommerce/orders/**', '/api/rbac/subjects-to-ecommerce-module-orders/**', '/api/ecommerce/orders-to-products/**', '/api/blog/**'];

/** the request an operation makes, from a random entity, id, query and body */
function request(entity: Entity, op: Op, id: string, query: Record<string, unknown>, body: unknown): [string, string, unknown?] {
  const base = `/api/${entity.module}/${entity.route}`;
  const q = Object.keys(query).length ? '?' + qs.stringify(query, { encodeValuesOnly: true }) : '';
  switch (op) {
    case 'list': return ['GET', base + q];
    case 'count': return ['GET', `${base}/count${q}`];
    case 'get': return ['GET', `${base}/${encodeURIComponent(id)}`];
    case 'create': return ['POST', base, { data: body }];
    case 'update': return ['PATCH', `${base}/${encodeURIComponent(id)}`, { data: body }];
    case 'delete': return ['DELETE', `${base}/${encodeURIComponent(id)}`];
    case 'findOrCreate': return ['POST', `${base}/find-or-create`, { data: body }];
    case 'bulkCreate': return ['POST', `${base}/bulk`, { data: [body, body] }];
    case 'bulkUpdate': return ['PATCH', `${base}/bulk`, { data: [{ ...(typeof body === 'object' && body ? body : {}), id }] }];
  }
}

const rowsOf = (data: unknown): Record<string, unknown>[] =>
  (Array.isArray(data) ? data : [data]).filter((r): r is Record<string, unknown> => !!r && typeof r === 'object');

/**
 * Random filters, orders, limits, ids and bodies at every generated route, as anonymous, member and admin:
 * never a 5xx, and never a row or field outside the caller's access in an answer.
 */
for (const d of DIALECTS) {
  describe(`fuzzing every generated route on ${d.name}`, () => {
    let t: AccountsApp;
    let member: { jwt: string; id: string };
    let admin: { jwt: string; id: string };
    let victimOrder: Record<string, unknown>;
    let victimId: string;
    const ids = new Map<string, string[]>();

    beforeAll(async () => {
      t = (await bootAccounts(await d.make())) as AccountsApp;
      member = await t.register('fuzz-member@example.com');
      admin = await t.register('fuzz-admin@example.com');
      const victim = await t.register('fuzz-victim@example.com');
      victimId = victim.id;
      await t.call('POST', '/api/rbac/subjects-to-roles', { data: { subjectId: admin.id, roleId: ADMIN_ROLE } });
      for (const route of GRANTED) {
        const perm = (await t.call('POST', '/api/rbac/permissions/find-or-create', { data: { method: '*', route } })).body.data;
        await t.call('POST', '/api/rbac/roles-to-permissions', { data: { roleId: MEMBER_ROLE, permissionId: perm.id } });
      }
      victimOrder = (await t.call('POST', '/api/ecommerce/orders', { data: { comment: 'victim', receipt: 'V-1' } })).body.data;
      await t.call('POST', '/api/rbac/subjects-to-ecommerce-module-orders', { data: { subjectId: victim.id, ecommerceModuleOrderId: victimOrder.id } });
      await t.as(member.jwt)('POST', '/api/ecommerce/orders', { data: { comment: 'mine' } });
      await t.call('POST', '/api/blog/categories', { data: { adminTitle: 'fuzz' } });
      for (const e of t.model.entities) {
        const rows = (await t.call('GET', `/api/${e.module}/${e.route}?limit=3`)).body.data as { id: string }[];
        ids.set(e.id, rows.map((r) => r.id));
      }
    });
    afterAll(async () => t?.close());

    const entity = () => fc.constantFrom(...t.model.entities);
    const value = fc.oneof(fc.string({ maxLength: 12 }), fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string({ maxLength: 6 }), { maxLength: 3 }), fc.constantFrom('%', '_', "' OR 1=1 --", '__proto__', '2026-01-01T00:00:00Z', 'ffffffff-ffff-4fff-8fff-ffffffffffff', 'a\u0000b', '\u0000'));
    const column = (e: Entity) => fc.oneof(fc.constantFrom(...e.fields.map((f) => f.name)), fc.constantFrom('title.en', 'password', 't1.password', 'id', '', 'slug\u0000'), fc.string({ maxLength: 8 }));
    const query = (e: Entity) =>
      fc.record(
        {
          filters: fc.record({ and: fc.array(fc.record({ column: column(e), method: fc.constantFrom(...METHODS), value }), { maxLength: 3 }) }),
          orderBy: fc.record({ and: fc.array(fc.record({ column: column(e), method: fc.constantFrom('asc', 'desc', 'up') }), { maxLength: 2 }) }),
          limit: fc.oneof(fc.integer({ min: -5, max: 1500 }), fc.constantFrom('ten', '1e3')),
          offset: fc.oneof(fc.integer({ min: -5, max: 50 }), fc.constant('x')),
        },
        { requiredKeys: [] },
      );
    const body = (e: Entity) => fc.oneof(fc.dictionary(fc.oneof(fc.constantFrom(...e.fields.map((f) => f.name)), fc.string({ maxLength: 6 })), value, { maxKeys: 4 }), value);
    const idOf = (e: Entity) => fc.oneof(fc.constantFrom(...(ids.get(e.id)?.length ? ids.get(e.id)! : ['00000000-0000-4000-8000-000000000000'])), fc.uuid(), fc.string({ maxLength: 10 }));

    /** one random call, checked: no 5xx; nothing private to the anonymous; no secret or unreadable field */
    async function check(e: Entity, op: Op, who: 'anonymous' | 'member' | 'admin', id: string, q: Record<string, unknown>, b: unknown) {
      const [method, path, payload] = request(e, op, id, q, b);
      // an admin may change roles and permissions (and so who may do what): keep the run's access rules fixed
      if (who === 'admin' && e.module === 'rbac' && method !== 'GET') return;
      const r = who === 'anonymous' ? await t.anon(method, path, payload) : await t.as(who === 'member' ? member.jwt : admin.jwt)(method, path, payload);
      expect(r.status, `${who} ${method} ${path} ${JSON.stringify(payload)} → ${JSON.stringify(r.body)}`).toBeLessThan(500);
      if (r.status >= 300) return;
      if (who === 'anonymous') {
        expect(method, `anonymous ${method} ${path}`).toBe('GET');
        expect(e.access, `anonymous read of ${e.id}`).toBe('public');
      }
      if (op === 'count') return;
      for (const row of rowsOf(r.body.data)) {
        for (const f of e.fields) {
          if (f.secret) expect(row, `${who} ${path}: secret ${f.name}`).not.toHaveProperty(f.name);
          if (who === 'anonymous' && f.access?.read && !f.access.read.includes('public')) expect(row).not.toHaveProperty(f.name);
        }
        // a private owned row shown to the member is its own, at the time it is shown
        if (who === 'member' && e.owner && e.access === 'private' && op !== 'delete') {
          expect(await t.policy.ownsStored(e, member.id, row.id), `${e.id} ${row.id} shown to the member by ${method} ${path}`).toBe(true);
        }
      }
    }

    it('never answers 5xx nor shows a row or field outside the caller\'s access', async () => {
      await fc.assert(
        fc.asyncProperty(
          entity().chain((e) => fc.tuple(fc.constant(e), fc.constantFrom(...OPS), fc.constantFrom('anonymous' as const, 'member' as const, 'admin' as const), idOf(e), query(e), body(e))),
          async ([e, op, who, id, q, b]) => check(e, op, who, id, q as Record<string, unknown>, b),
        ),
        { numRuns: 1500 },
      );
    });

    it('a member, let loose on orders and their links, never reads or changes another subject\'s order', async () => {
      const owned = ['ecommerce/order', 'rbac/subjects-to-ecommerce-module-orders', 'ecommerce/orders-to-products'].map((id) => t.model.byId[id]);
      // a fresh victim order: the admin of the previous run may have deleted the first one
      victimOrder = (await t.call('POST', '/api/ecommerce/orders', { data: { comment: 'victim', receipt: 'V-1' } })).body.data;
      await t.call('POST', '/api/rbac/subjects-to-ecommerce-module-orders', { data: { subjectId: victimId, ecommerceModuleOrderId: victimOrder.id } });
      ids.set('ecommerce/order', [...(ids.get('ecommerce/order') ?? []), victimOrder.id as string]);
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...owned).chain((e) => fc.tuple(fc.constant(e), fc.constantFrom(...OPS), idOf(e), query(e), body(e))),
          async ([e, op, id, q, b]) => check(e, op, 'member', id, q as Record<string, unknown>, b),
        ),
        { numRuns: 600 },
      );
      expect((await t.call('GET', `/api/ecommerce/orders/${victimOrder.id}`)).body.data).toMatchObject({ comment: 'victim', status: 'new', receipt: 'V-1' });
      const links = (await t.call('GET', `/api/rbac/subjects-to-ecommerce-module-orders?filters[and][0][column]=ecommerceModuleOrderId&filters[and][0][method]=eq&filters[and][0][value]=${victimOrder.id}`)).body.data as { subjectId: string }[];
      expect(links.map((l) => l.subjectId)).not.toContain(member.id);
    });
  });
}
