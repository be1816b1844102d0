import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { bootApp, type TestApp } from '../helpers/app.js';

const P = '/api/ecommerce/products';

/** every write needs authorization; a refused write leaves the rows exactly as they were */
for (const d of DIALECTS) {
  describe(`authorization of writes on ${d.name}`, () => {
    let t: TestApp;
    let row: Record<string, unknown>;
    beforeAll(async () => {
      t = await bootApp(await d.make());
      row = (await t.call('POST', P, { data: { slug: 'original', adminTitle: 'Original' } })).body.data;
    });
    afterAll(async () => t?.close());

    const snapshot = async () => (await t.call('GET', `${P}?limit=1000`)).body.data;

    it('without the key, or with a wrong one, every write is a 401 and changes nothing', async () => {
      const before = await snapshot();
      for (const headers of [{}, { 'x-rbac-secret-key': 'wrong' }, { 'x-rbac-secret-key': '' }] as Record<string, string>[]) {
        const attempts: [string, string, unknown][] = [
          ['POST', P, { data: { slug: 'sneaky' } }],
          ['POST', `${P}/find-or-create`, { data: { slug: 'sneaky' } }],
          ['POST', `${P}/bulk`, { data: [{ slug: 'sneaky' }] }],
          ['PATCH', `${P}/${row.id}`, { data: { adminTitle: 'Changed' } }],
          ['PATCH', `${P}/bulk`, { data: [{ id: row.id, adminTitle: 'Changed' }] }],
          ['DELETE', `${P}/${row.id}`, undefined],
        ];
        for (const [method, path, body] of attempts) {
          const r = await t.call(method, path, body, { auth: false, headers });
          expect(r.status, `${method} ${path}`).toBe(401);
          expect(r.body).toEqual({ message: 'Not authorized', status: 401 });
        }
      }
      expect(await snapshot()).toEqual(before);
    });

    it('public entities are readable by anyone; private ones need authorization', async () => {
      expect((await t.call('GET', P, undefined, { auth: false })).status).toBe(200);
      expect((await t.call('GET', `${P}/${row.id}`, undefined, { auth: false })).status).toBe(200);
      for (const path of ['/api/rbac/identities', '/api/ecommerce/orders', '/api/billing/invoices', '/api/crm/requests']) {
        const r = await t.call('GET', path, undefined, { auth: false });
        expect(r.status, path).toBe(401);
        expect((await t.call('GET', `${path}/count`, undefined, { auth: false })).status).toBe(401);
        expect((await t.call('GET', path)).status).toBe(200);
      }
      const identity = (await t.call('POST', '/api/rbac/identities', { data: { email: 'x@example.com' } })).body.data;
      expect((await t.call('GET', `/api/rbac/identities/${identity.id}`, undefined, { auth: false })).status).toBe(401);
    });
  });
}
