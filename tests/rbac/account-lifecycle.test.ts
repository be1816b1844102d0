import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { bootAccounts, ROUTES, type AccountsApp } from '../helpers/accounts.js';

/**
 * A deleted subject takes its logins with it, so its address may register again; and the API never writes a
 * secret field (a password's hash, its salt, a reset code's hash), for any caller: such a value was stored as
 * sent, a password in clear text that no sign-in accepted.
 */
for (const d of DIALECTS) {
  describe(`account lifecycle on ${d.name}`, () => {
    let t: AccountsApp;
    beforeAll(async () => {
      t = (await bootAccounts(await d.make())) as AccountsApp;
    });
    afterAll(async () => t?.close());

    it('deleting a subject deletes the identities only it had: the email registers again and signs in', async () => {
      const s = await t.register('again@example.com', 'first-pass-1');
      expect((await t.call('DELETE', `/api/rbac/subjects/${s.id}`)).status).toBe(200);
      expect((await t.call('GET', `/api/rbac/identities/${s.identityId}`)).status).toBe(404);
      const again = await t.anon('POST', ROUTES.register, { data: { login: 'again@example.com', password: 'second-pass-2' } });
      expect(again.status).toBe(201);
      expect((await t.anon('POST', ROUTES.login, { data: { login: 'again@example.com', password: 'second-pass-2' } })).status).toBe(200);
      expect((await t.anon('POST', ROUTES.login, { data: { login: 'again@example.com', password: 'first-pass-1' } })).status).toBe(401);
    });

    it('an identity another subject also holds stays when one of them is deleted', async () => {
      const a = await t.register('shared@example.com');
      const b = await t.registerVerified('keeper@example.com');
      expect((await t.call('POST', '/api/rbac/subjects-to-identities', { data: { subjectId: b.id, identityId: a.identityId } })).status).toBe(201);
      expect((await t.call('DELETE', `/api/rbac/subjects/${a.id}`)).status).toBe(200);
      expect((await t.call('GET', `/api/rbac/identities/${a.identityId}`)).status).toBe(200);
      expect((await t.call('GET', `/api/rbac/identities/${b.identityId}`)).status).toBe(200);
    });

    it('password, salt and code are refused on create, update and bulk, naming each field, for the system key too', async () => {
      const s = await t.register('secret@example.com', 'real-pass-1');
      const create = await t.call('POST', '/api/rbac/identities', { data: { email: 'y@example.com', account: 'y@example.com', password: 'plain-pass-123' } });
      expect(create.status).toBe(400);
      expect(create.body).toMatchObject({ message: 'password is secret: only the server writes it', cause: [{ field: 'password', rule: 'secret' }] });
      const update = await t.call('PATCH', `/api/rbac/identities/${s.identityId}`, { data: { password: 'x', salt: 'y', code: 'knowncode123' } });
      expect(update.status).toBe(400);
      expect(update.body.cause.map((c: { field: string }) => c.field)).toEqual(['password', 'salt', 'code']);
      const bulk = await t.call('PATCH', '/api/rbac/identities/bulk', { data: [{ id: s.identityId, password: 'x' }] });
      expect(bulk.status).toBe(400);
      // the stored password is the one set through the accounts routes
      expect((await t.anon('POST', ROUTES.login, { data: { login: 'secret@example.com', password: 'real-pass-1' } })).status).toBe(200);
      // the fields the API may write still are
      expect((await t.call('PATCH', `/api/rbac/identities/${s.identityId}`, { data: { account: 'secret@example.com' } })).status).toBe(200);
    });

    it('a login (provider and account) belongs to one identity: a second is a 409 naming them', async () => {
      await t.register('twice@example.com');
      const again = await t.call('POST', '/api/rbac/identities', { data: { provider: 'email_and_password', account: 'twice@example.com', email: 'twice@example.com' } });
      expect(again.status).toBe(409);
      expect(again.body.cause.map((c: { field: string }) => c.field)).toEqual(expect.arrayContaining(['account']));
      expect((await t.call('POST', '/api/rbac/identities', { data: { provider: 'telegram', account: 'twice@example.com' } })).status).toBe(201);
    });

    it("a permission's route is one a request can match: a typo is refused naming route", async () => {
      for (const route of ['no-slash', '/api/rbac/***', '/api/**/x', '/api/x/', '//evil', '/a b', '/api/x?y=1']) {
        const r = await t.call('POST', '/api/rbac/permissions', { data: { method: 'GET', route } });
        expect(r.status, route).toBe(400);
        expect(r.body.cause, route).toEqual([expect.objectContaining({ field: 'route', rule: 'pattern' })]);
      }
      const made = await t.call('POST', '/api/rbac/permissions', { data: { method: 'GET', route: '/api/blog/articles/*/comments/**' } });
      expect(made.status).toBe(201);
      expect((await t.call('PATCH', `/api/rbac/permissions/${made.body.data.id}`, { data: { route: 'api/blog' } })).status).toBe(400);
      expect((await t.call('PATCH', `/api/rbac/permissions/${made.body.data.id}`, { data: { route: '/**' } })).status).toBe(200);
    });

    it("the system key on a route for one's own account is told which route names a subject, not a 401", async () => {
      const r = await t.call('POST', '/api/rbac/identities/email-and-password', { data: { email: 'sys@example.com', password: 'pass-12345' } });
      expect(r.status).toBe(400);
      expect(r.body.message).toBe('This route acts for the signed-in subject, and the system key is none: use POST /api/rbac/subjects/{id}/identities');
      expect((await t.anon('POST', '/api/rbac/identities/email-and-password', { data: { email: 'sys@example.com', password: 'pass-12345' } })).status).toBe(401);
    });
  });
}
