import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { bootAccounts, type AccountsApp } from '../helpers/accounts.js';

const MISSING = '00000000-0000-4000-8000-000000000000';

/**
 * A get by id of an entity the caller may not read is refused the same way whether the row exists or not: the
 * route's permission is decided before the row is looked up (it answered 404 for a missing id and 401 for a real
 * one, which told a visitor which private ids exist; the writes already decided first).
 */
for (const d of DIALECTS) {
  describe(`a private row's existence is not told to who may not read it, on ${d.name}`, () => {
    let t: AccountsApp;
    let identityId: string;
    let member: Awaited<ReturnType<AccountsApp['register']>>;
    beforeAll(async () => {
      t = (await bootAccounts(await d.make())) as AccountsApp;
      identityId = (await t.register('owner@example.com')).identityId;
      member = await t.register('other@example.com');
    });
    afterAll(async () => t?.close());

    it('a visitor gets 401 for a real id and for a missing one, on a get as on a patch and a delete', async () => {
      for (const id of [identityId, MISSING]) {
        for (const method of ['GET', 'PATCH', 'DELETE']) {
          const r = await t.anon(method, `/api/rbac/identities/${id}`, method === 'PATCH' ? { data: { account: 'x' } } : undefined);
          expect([method, id, r.status]).toEqual([method, id, 401]);
          expect(r.body.message).toBe('Not authorized');
        }
      }
    });

    it('a member without the permission gets 403 for both', async () => {
      const other = t.as(member.jwt);
      expect((await other('GET', `/api/rbac/identities/${identityId}`)).status).toBe(403);
      expect((await other('GET', `/api/rbac/identities/${MISSING}`)).status).toBe(403);
    });

    it('who may read it still tells a missing row (404) from a real one', async () => {
      expect((await t.call('GET', `/api/rbac/identities/${MISSING}`)).status).toBe(404);
      expect((await t.call('GET', `/api/rbac/identities/${identityId}`)).status).toBe(200);
    });
  });
}
