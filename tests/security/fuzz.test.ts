import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import fc from 'fast-check';
import qs from 'qs';
import type { Entity } from '../../engine/model.js';
import { DIALECTS } from '../helpers/databases.js';
import { bootAccounts, type AccountsApp } from '../helpers/accounts.js';
import { bootApp, SECRET, type TestApp } from '../helpers/app.js';
import { ROOT } from '../../engine/codegen.js';
import { plugins } from '../../plugins/index.js';
import { createCrmPlugin } from '../../plugins/crm/server/index.js';
import { seed } from '../../runtime/seed.js';
import { mountWeb, type StorefrontRenderer } from '../../runtime/web.js';
import { MAX_PART_NAME } from '../../runtime/crud/body.js';

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

/** a multipart body written out by hand, so that a part's name may hold any character (FormData would escape some) */
function multipartOf(parts: { name: string; value: string }[], boundary: string): Uint8Array<ArrayBuffer> {
  const text = parts.map((p) => `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"\r\n\r\n${p.value}\r\n`).join('');
  return new TextEncoder().encode(`${text}--${boundary}--\r\n`);
}

/** a part name the multipart grammar can carry at all (a quote or a line break ends it) */
const carried = (name: string) => !/["\r\n]/.test(name);
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** a stack frame (`at fn (file:line:col)`), a path of this checkout, or a secret of the run */
function leaks(text: string, secrets: string[]): string | undefined {
  if (/\n\s+at .+:\d+:\d+/.test(text)) return 'a stack trace';
  if (text.includes(ROOT)) return 'a path of the server';
  return secrets.find((s) => text.includes(s));
}

/**
 * Every GET route an anonymous visitor can reach (the app's own route table, the storefront's pages included), with
 * random path segments and query strings, and every form with random part names: never a 5xx, never a stack trace,
 * a path of the server or a secret; a part name holding a control character is a 400 and stores nothing (F08).
 */
for (const d of DIALECTS) {
  describe(`fuzzing what an anonymous visitor can reach on ${d.name}`, () => {
    let t: TestApp;
    let formId: string;
    const ids: string[] = [];
    const secretFields = () => t.model.entities.flatMap((e) => e.fields.filter((f) => f.secret).map((f) => `"${f.name}":`));
    const secrets = () => [SECRET, 'test-jwt-secret-0123456789', ...secretFields()];

    beforeAll(async () => {
      const all = plugins.map((p) => (p.name === 'crm' ? createCrmPlugin({ formLimit: { points: 1_000_000, duration: 60 } }) : p));
      t = await bootApp(await d.make(), { plugins: all });
      await seed(t.repo, all.flatMap((p) => (p.seed ? [p.seed] : [])));
      await mountWeb(t.app, ROOT, 'built', t.ctx.services.storefront as StorefrontRenderer);
      formId = (await t.call('POST', '/api/crm/forms', { data: { slug: 'fuzz-form' } })).body.data.id;
      for (const e of t.model.entities.filter((x) => x.access === 'public').slice(0, 12)) {
        for (const row of ((await t.call('GET', `/api/${e.module}/${e.route}?limit=2`)).body.data ?? []) as { id: string }[]) ids.push(row.id);
      }
    });
    afterAll(async () => t?.close());

    /** an anonymous GET: status and body text (an event stream is cancelled unread) */
    async function anonymous(path: string) {
      const res = await t.app.request(path);
      if ((res.headers.get('content-type') ?? '').includes('event-stream')) {
        await res.body?.cancel();
        return { status: res.status, text: '' };
      }
      return { status: res.status, text: await res.text() };
    }

    it('never answers 5xx, a stack trace or a secret to any GET route with random segments and queries', async () => {
      const patterns = [...new Set(t.app.routes.filter((r) => r.method === 'GET' && r.path !== '*' && !r.path.includes('*')).map((r) => r.path))];
      expect(patterns).toContain('/api/openapi.json');
      expect(patterns).toContain('/api/host/pages/rows');
      const segment = fc.oneof(
        fc.constantFrom(...ids, ...t.model.entities.flatMap((e) => [e.module, e.route]), '__proto__', 'constructor', '..', '%2e%2e', '%2F', '%E0%A4%A', 'ru', '404', 'x'.repeat(3000)),
        fc.uuid(),
        fc.string({ maxLength: 12 }).map(encodeURIComponent),
      );
      const queryKey = fc.oneof(fc.constantFrom('url', 'at', 'row', 'relation', 'offset', 'limit', 'entity', 'id', 'path', 'type', 'tag', 'segment', 'days', 'filters[and][0][column]', 'filters[and][0][method]', 'filters[and][0][value]', 'orderBy[and][0][column]', '__proto__', 'a[b][c][d]'), fc.string({ maxLength: 8 }));
      const queryValue = fc.oneof(fc.constantFrom(...ids, '/', '/ecommerce/categories/x', '-1', '1e9', '999999999999', 'layout', '[blog.article.slug]', 'param:ecommerce/category', '%', "' OR 1=1 --", '../../etc/passwd'), fc.string({ maxLength: 16 }));
      const query = fc.array(fc.tuple(queryKey, queryValue), { maxLength: 4 }).map((pairs) => (pairs.length ? '?' + pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&') : ''));
      const path = fc.oneof(
        // a declared route, its parameters filled in
        fc.tuple(fc.constantFrom(...patterns), fc.array(segment, { minLength: 6, maxLength: 6 })).map(([p, segs]) => {
          let i = 0;
          return p.replace(/:\w+(\{[^}]*\})?/g, () => segs[i++ % segs.length]);
        }),
        // a page of the storefront, known or not, in either language
        fc.tuple(fc.constantFrom('', '/ru'), fc.array(segment, { maxLength: 4 })).map(([lang, segs]) => `${lang}/${segs.join('/')}`),
      );
      await fc.assert(
        fc.asyncProperty(path, query, async (p, q) => {
          const r = await anonymous(p + q);
          expect(r.status, `GET ${p}${q} → ${r.text.slice(0, 300)}`).toBeLessThan(500);
          expect(leaks(r.text, secrets()), `GET ${p}${q}`).toBeUndefined();
        }),
        { numRuns: 1000 },
      );
    });

    it('never answers 5xx to form parts with random names; a name with a control character is a 400 and stores nothing', async () => {
      const boundary = 'fuzz-boundary-0b1d';
      const name = fc.oneof(fc.string({ maxLength: 20 }), fc.string({ unit: 'binary', maxLength: 20 }), fc.constantFrom('\u0000', 'a\u0000b', '\u001b[2J', 'x'.repeat(300), 'data', '__proto__', 'constructor'));
      const requests = await (async () => (await t.call('GET', '/api/crm/requests/count')).body.data as number)();
      let stored = requests;
      await fc.assert(
        fc.asyncProperty(name.filter(carried), fc.constantFrom('form', 'generic'), async (partName, where) => {
          const body = multipartOf([{ name: 'data', value: where === 'form' ? '"not an object"' : '{"adminTitle":"fuzzed"}' }, { name: partName, value: 'v' }], boundary);
          const [path, headers] = where === 'form'
            ? [`/api/crm/forms/${formId}/requests`, {}]
            : ['/api/blog/categories', { 'x-rbac-secret-key': SECRET }];
          const res = await t.app.request(path, { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, ...headers }, body });
          const text = await res.text();
          expect(res.status, `${where} ${JSON.stringify(partName)} → ${text.slice(0, 300)}`).toBeLessThan(500);
          expect(leaks(text, secrets())).toBeUndefined();
          if (CONTROL.test(partName) || partName.length > MAX_PART_NAME) expect([res.status, JSON.parse(text).cause?.[0]?.field], JSON.stringify(partName)).toEqual([400, 'form']);
          if (where === 'form') {
            const now = (await t.call('GET', '/api/crm/requests/count')).body.data as number;
            expect(now, JSON.stringify(partName)).toBe(stored + (res.status === 201 ? 1 : 0));
            stored = now;
          }
        }),
        { numRuns: 300 },
      );
    });
  });
}
