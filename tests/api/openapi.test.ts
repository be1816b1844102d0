import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { sqliteDatabase } from '../helpers/databases.js';
import { bootAccounts, type AccountsApp } from '../helpers/accounts.js';
import { DEFAULT_LIMIT, FILTER_METHODS, MAX_LIMIT, MIN_LIMIT, filterMethodsOf } from '../../runtime/crud/query.js';

const ADMIN_ROLE = '8b3e4c60-0000-4000-8000-000000000001';

/** GET /api/openapi.json: generated from the model and the mounted routes, valid OpenAPI 3.1, per caller */
describe('OpenAPI document', () => {
  let t: AccountsApp;
  beforeAll(async () => {
    t = (await bootAccounts(sqliteDatabase())) as AccountsApp;
  });
  afterAll(async () => t?.close());

  it('is a valid OpenAPI 3.1 document for the system, for a visitor and for a member', async () => {
    const member = await t.register('openapi-member@example.com');
    for (const r of [await t.call('GET', '/api/openapi.json'), await t.anon('GET', '/api/openapi.json'), await t.as(member.jwt)('GET', '/api/openapi.json')]) {
      expect(r.status).toBe(200);
      expect(r.body.openapi).toBe('3.1.0');
      const validator = new Validator();
      const result = await validator.validate(r.body);
      expect(result.errors ?? [], JSON.stringify(result.errors)?.slice(0, 2000)).toEqual([]);
      expect(result.valid).toBe(true);
    }
  });

  it('describes every mounted /api route for an admin: generic routes of every entity and every plugin route', async () => {
    const admin = await t.register('openapi-admin@example.com');
    await t.call('POST', '/api/rbac/subjects-to-roles', { data: { subjectId: admin.id, roleId: ADMIN_ROLE } });
    const doc = (await t.as(admin.jwt)('GET', '/api/openapi.json')).body;
    for (const e of t.model.entities) {
      const base = `/api/${e.module}/${e.route}`;
      expect(Object.keys(doc.paths[base] ?? {}).sort(), base).toEqual(['get', 'post']);
      expect(Object.keys(doc.paths[`${base}/{id}`]).sort()).toEqual(['delete', 'get', 'patch']);
      for (const p of ['count', 'find-or-create', 'bulk']) expect(doc.paths[`${base}/${p}`], `${base}/${p}`).toBeDefined();
    }
    const mounted = t.app.routes.filter((r) => r.path.startsWith('/api/') && !r.path.includes('*') && !r.path.startsWith('/api/:module/:route') && ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method));
    expect(mounted.length).toBeGreaterThan(10);
    for (const r of mounted) {
      const path = r.path.replace(/:(\w+)(\{[^}]*\})?/g, '{$1}');
      expect(doc.paths[path]?.[r.method.toLowerCase()], `${r.method} ${r.path}`).toBeDefined();
    }
    // the filter grammar, bodies, errors and security schemes
    const list = doc.paths['/api/ecommerce/products'].get;
    expect(list.parameters.map((p: { name: string }) => p.name)).toEqual(['filters', 'orderBy', 'limit', 'offset']);
    expect(list.parameters[0].schema.properties.and.items.properties.method.enum).toContain('inArray');
    expect(doc.paths['/api/ecommerce/products'].post.requestBody.content['application/json']).toBeDefined();
    expect(doc.components.schemas.EcommerceProductCreate.additionalProperties).toBe(false);
    expect(doc.components.securitySchemes).toHaveProperty('systemKey');
    expect(doc.components.responses.E400.content['application/json'].schema.$ref).toBe('#/components/schemas/Error');
  });

  it('says what the list route does: limit\'s default and range, and every filter method the API takes', async () => {
    const doc = (await t.call('GET', '/api/openapi.json')).body;
    const list = doc.paths['/api/ecommerce/products'].get;
    const param = (name: string) => list.parameters.find((p: { name: string }) => p.name === name);
    expect(param('limit').schema).toEqual({ type: 'integer', minimum: MIN_LIMIT, maximum: MAX_LIMIT, default: DEFAULT_LIMIT });
    expect([MIN_LIMIT, MAX_LIMIT, DEFAULT_LIMIT]).toEqual([1, 1000, 1000]);
    // the document agrees with the API: the default is what a list without limit gets, the bounds what it takes
    const rows = Array.from({ length: 3 }, (_, i) => ({ slug: `openapi-limit-${i}` }));
    expect((await t.call('POST', '/api/ecommerce/products/bulk', { data: rows })).status).toBe(201);
    expect((await t.call('GET', `/api/ecommerce/products?limit=${param('limit').schema.minimum}`)).body.data).toHaveLength(1);
    expect((await t.call('GET', `/api/ecommerce/products?limit=${param('limit').schema.minimum - 1}`)).status).toBe(400);
    expect((await t.call('GET', `/api/ecommerce/products?limit=${param('limit').schema.maximum}`)).status).toBe(200);
    expect((await t.call('GET', `/api/ecommerce/products?limit=${param('limit').schema.maximum + 1}`)).status).toBe(400);
    // every entity's method list is the methods the API checks its columns against, isNull and isNotNull included
    for (const e of t.model.entities) {
      const base = `/api/${e.module}/${e.route}`;
      for (const path of [base, `${base}/count`]) {
        const methods: string[] = doc.paths[path].get.parameters[0].schema.properties.and.items.properties.method.enum;
        expect(methods, path).toContain('isNull');
        expect(methods, path).toContain('isNotNull');
        expect(FILTER_METHODS.filter((m) => methods.includes(m)), path).toEqual(methods);
        const open = new Set(e.fields.filter((f) => !f.secret).flatMap((f) => [...filterMethodsOf(f), ...(f.kind === 'localized' ? t.model.languages.flatMap((l) => filterMethodsOf(f, l)) : [])]));
        expect(methods, path).toEqual(FILTER_METHODS.filter((m) => open.has(m)));
      }
    }
    // and the API takes what the document lists: isNull / isNotNull on a column, like on an id
    const products: string[] = list.parameters[0].schema.properties.and.items.properties.method.enum;
    expect(products).toEqual([...FILTER_METHODS]);
    for (const method of ['isNull', 'isNotNull']) {
      expect((await t.call('GET', `/api/ecommerce/products?filters[and][0][column]=className&filters[and][0][method]=${method}`)).status, method).toBe(200);
    }
    expect((await t.call('GET', '/api/ecommerce/products?filters[and][0][column]=id&filters[and][0][method]=like&filters[and][0][value]=0')).status).toBe(200);
  });

  it('shows a visitor only what it may call: public entities\' reads and the open routes, no private entity, no secret field', async () => {
    const doc = (await t.anon('GET', '/api/openapi.json')).body;
    expect(doc.paths['/api/ecommerce/products'].get).toBeDefined();
    expect(doc.paths['/api/ecommerce/products'].post).toBeUndefined();
    expect(doc.paths['/api/rbac/identities']).toBeUndefined();
    expect(doc.paths['/api/ecommerce/orders']).toBeUndefined();
    expect(doc.components.schemas.RbacIdentity).toBeUndefined();
    expect(doc.paths['/api/rbac/subjects/authentication/email-and-password/authentication'].post).toBeDefined();
    expect(JSON.stringify(doc)).not.toContain('"password":');
    expect(doc.paths['/api/admin/model']).toBeUndefined();
  });

  it('/api/docs renders the document with Swagger UI served by this server, with no CDN and no inline script', async () => {
    const r = await t.anon('GET', '/api/docs');
    expect(r.status).toBe(200);
    const html = r.body as string;
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toMatch(/<script>(?!<\/script>)/);
    for (const src of html.match(/(?:src|href)="([^"]+)"/g)!.map((m) => m.split('"')[1])) {
      const asset = await t.anon('GET', src);
      expect(asset.status, src).toBe(200);
    }
  });
});
