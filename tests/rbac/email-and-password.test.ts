import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { bootAccounts, ROUTES, ADMIN_EMAIL, type AccountsApp } from '../helpers/accounts.js';
import { startSmtp } from '../helpers/smtp.js';
import { mailMatching, textOf, verifyAddress, type Smtp } from './support.js';

for (const d of DIALECTS) {
  describe(`email and password accounts on ${d.name}`, () => {
    let t: AccountsApp;
    let smtp: Smtp;
    beforeAll(async () => {
      smtp = await startSmtp();
      t = (await bootAccounts(await d.make(), { env: { SMTP_URL: smtp.url } })) as AccountsApp;
    });
    afterAll(async () => {
      await t?.close();
      await smtp?.close();
    });
    const subjects = async () => (await t.call('GET', '/api/rbac/subjects/count')).body.data as number;

    it('registration answers jwt and refresh, sets an httpOnly SameSite=Lax cookie, and signs in', async () => {
      const r = await t.anon('POST', ROUTES.register, { data: { login: 'Ann@Example.com', password: 'password123' } });
      expect(r.status).toBe(201);
      expect(r.body.data).toEqual({ jwt: expect.stringMatching(/^ey/), refresh: expect.stringMatching(/^[0-9a-f-]{36}\.[\w-]{43}$/) });
      const cookie = r.headers.get('set-cookie')!;
      expect(cookie).toMatch(/^rbac\.subject\.jwt=ey/);
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Lax/);
      expect(cookie).not.toMatch(/Secure/); // only in production
      const viaCookie = await t.anon('GET', ROUTES.me, undefined, { cookie: cookie.split(';')[0] });
      expect(viaCookie.status).toBe(200);
      expect(viaCookie.body.data.identities).toEqual([expect.objectContaining({ provider: 'email_and_password', email: 'ann@example.com', account: 'ann@example.com' })]);
      expect(viaCookie.body.data.identities[0]).not.toHaveProperty('password');
      expect(viaCookie.body.data.roles.map((x: { slug: string }) => x.slug)).toEqual(['member']);
      expect(viaCookie.body.data.isAdmin).toBe(false);
      expect((await t.anon('GET', ROUTES.me)).body.data).toBeNull();
    });

    it('registration refuses roles, provider, subject ids and any other field, and stores nothing', async () => {
      const before = await subjects();
      for (const extra of [{ roles: ['admin'] }, { role: 'admin' }, { provider: 'telegram' }, { subjectId: '00000000-0000-4000-8000-000000000001' }, { isAdmin: true }]) {
        const r = await t.anon('POST', ROUTES.register, { data: { login: 'mallory@example.com', password: 'password123', ...extra } });
        expect(r.status).toBe(400);
        expect(r.body.cause[0]).toMatchObject({ field: Object.keys(extra)[0], rule: 'unknown' });
      }
      expect(await subjects()).toBe(before);
      expect((await t.anon('POST', ROUTES.login, { data: { login: 'mallory@example.com', password: 'password123' } })).status).toBe(401);
    });

    it('bad login or short password: 400 naming the field; a taken email: the answer a new one gets, and its owner is mailed (F10)', async () => {
      let r = await t.anon('POST', ROUTES.register, { data: { login: 'not-an-email', password: 'password123' } });
      expect(r.status).toBe(400);
      expect(r.body.cause[0]).toMatchObject({ field: 'login', rule: 'format', message: 'login must be an email address' });
      r = await t.anon('POST', ROUTES.register, { data: { login: 'short@example.com', password: 'seven77' } });
      expect(r.status).toBe(400);
      expect(r.body.cause[0]).toMatchObject({ field: 'password', rule: 'minLength' });
      const owner = await t.register('taken@example.com');
      const fresh = await t.anon('POST', ROUTES.register, { data: { login: 'untaken@example.com', password: 'password123' } });
      r = await t.anon('POST', ROUTES.register, { data: { login: 'TAKEN@example.com', password: 'other-password' } });
      expect(r.status).toBe(fresh.status);
      expect(Object.keys(r.body.data).sort()).toEqual(Object.keys(fresh.body.data).sort());
      expect(r.headers.get('set-cookie')).toMatch(/^rbac\.subject\.jwt=ey/);
      // the session is of no account: not the owner's, and no login of its own
      const me = (await t.as(r.body.data.jwt)('GET', ROUTES.me)).body.data;
      expect(me).toMatchObject({ isAnonymous: true, identities: [] });
      expect(me.id).not.toBe(owner.id);
      // the account is as it was: the owner's password still signs in, the one just typed does not
      expect((await t.anon('POST', ROUTES.login, { data: { login: 'taken@example.com', password: 'password123' } })).status).toBe(200);
      expect((await t.anon('POST', ROUTES.login, { data: { login: 'taken@example.com', password: 'other-password' } })).status).toBe(401);
      // the owner hears of it, with where to sign in or reset
      const told = textOf(await mailMatching(smtp, 'taken@example.com', /already has one/));
      expect(told).toContain('/rbac/subject/authentication/email-and-password/authentication');
      expect(told).toContain('/rbac/subject/authentication/email-and-password/forgot-password');
    });

    it('sign-in: the right password works; a wrong one and an unknown email get the same 401', async () => {
      await t.register('bob@example.com', 'correct horse');
      const ok = await t.anon('POST', ROUTES.login, { data: { login: 'BOB@example.com', password: 'correct horse' } });
      expect(ok.status).toBe(200);
      expect(ok.body.data.refresh).toBeTruthy();
      const wrong = await t.anon('POST', ROUTES.login, { data: { login: 'bob@example.com', password: 'wrong horse' } });
      const unknown = await t.anon('POST', ROUTES.login, { data: { login: 'nobody@example.com', password: 'wrong horse' } });
      expect(wrong).toMatchObject({ status: 401, body: { message: 'Invalid login or password', status: 401 } });
      expect(unknown.body).toEqual(wrong.body);
    });

    it('refresh rotates; a reused refresh token revokes the session and its access token at once', async () => {
      const s = await t.register('carol@example.com');
      const first = await t.anon('POST', ROUTES.refresh, { data: { refresh: s.refresh } });
      expect(first.status).toBe(200);
      expect(first.body.data.refresh).not.toBe(s.refresh);
      const second = await t.anon('POST', ROUTES.refresh, { data: { refresh: first.body.data.refresh } });
      expect(second.status).toBe(200);
      const jwt = second.body.data.jwt;
      expect((await t.as(jwt)('GET', ROUTES.me)).status).toBe(200);
      // the old token again: someone replayed it
      const reuse = await t.anon('POST', ROUTES.refresh, { data: { refresh: s.refresh } });
      expect(reuse.status).toBe(401);
      expect((await t.as(jwt)('GET', ROUTES.me)).body.data).toBeNull();
      expect((await t.as(s.jwt)('GET', ROUTES.me)).body.data).toBeNull();
      expect((await t.anon('POST', ROUTES.refresh, { data: { refresh: second.body.data.refresh } })).status).toBe(401);
      expect((await t.anon('POST', ROUTES.refresh, { data: { refresh: 'garbage' } })).status).toBe(401);
    });

    it('logout revokes the session on the server: its access token stops working at once', async () => {
      const s = await t.register('dave@example.com');
      const out = await t.as(s.jwt)('POST', ROUTES.logout);
      expect(out.status).toBe(200);
      expect(out.headers.get('set-cookie')).toMatch(/rbac\.subject\.jwt=;/);
      expect((await t.as(s.jwt)('GET', ROUTES.me)).body.data).toBeNull();
      expect((await t.anon('POST', ROUTES.refresh, { data: { refresh: s.refresh } })).status).toBe(401);
    });

    it('changing the password checks the current one and ends the other sessions', async () => {
      const s = await t.register('erin@example.com', 'first-password');
      const other = (await t.anon('POST', ROUTES.login, { data: { login: 'erin@example.com', password: 'first-password' } })).body.data;
      const form = new FormData();
      form.set('data', JSON.stringify({ password: 'not-the-password', newPassword: 'second-password' }));
      const wrong = await t.call('PATCH', `/api/rbac/identities/${s.identityId}/change-password`, form, { token: s.jwt });
      expect(wrong.status).toBe(400);
      form.set('data', JSON.stringify({ password: 'first-password', newPassword: 'second-password' }));
      const ok = await t.call('PATCH', `/api/rbac/identities/${s.identityId}/change-password`, form, { token: s.jwt });
      expect(ok.status).toBe(200);
      expect(JSON.stringify(ok.body)).not.toMatch(/"password"|"salt"/);
      expect((await t.as(s.jwt)('GET', ROUTES.me)).status).toBe(200);
      expect((await t.as(other.jwt)('GET', ROUTES.me)).body.data).toBeNull();
      expect((await t.anon('POST', ROUTES.login, { data: { login: 'erin@example.com', password: 'first-password' } })).status).toBe(401);
      expect((await t.anon('POST', ROUTES.login, { data: { login: 'erin@example.com', password: 'second-password' } })).status).toBe(200);
    });

    it("identities: one's own only; another subject's id is a 403 that changes nothing", async () => {
      const a = await t.register('frank@example.com');
      const b = await t.register('grace@example.com');
      const own = await t.as(a.jwt)('GET', `/api/rbac/subjects/${a.id}/identities`);
      expect(own.body.data.map((i: { email: string }) => i.email)).toEqual(['frank@example.com']);
      const attempts: [string, string, unknown][] = [
        ['GET', `/api/rbac/subjects/${b.id}/identities`, undefined],
        ['POST', `/api/rbac/subjects/${b.id}/identities`, { data: { email: 'evil@example.com', password: 'password123' } }],
        ['PATCH', `/api/rbac/subjects/${b.id}/identities/${b.identityId}`, { data: { email: 'evil@example.com' } }],
        ['DELETE', `/api/rbac/subjects/${b.id}/identities/${b.identityId}`, undefined],
      ];
      for (const [method, path, body] of attempts) expect((await t.as(a.jwt)(method, path, body)).status, `${method} ${path}`).toBe(403);
      // b's identity through a's own subject id: not found, not changed
      expect((await t.as(a.jwt)('PATCH', `/api/rbac/subjects/${a.id}/identities/${b.identityId}`, { data: { email: 'evil@example.com' } })).status).toBe(404);
      const form = new FormData();
      form.set('data', JSON.stringify({ password: 'password123', newPassword: 'hijacked-pass' }));
      expect((await t.call('PATCH', `/api/rbac/identities/${b.identityId}/change-password`, form, { token: a.jwt })).status).toBe(403);
      const bs = await t.as(b.jwt)('GET', `/api/rbac/subjects/${b.id}/identities`);
      expect(bs.body.data).toEqual([expect.objectContaining({ id: b.identityId, email: 'grace@example.com' })]);
      expect((await t.anon('POST', ROUTES.login, { data: { login: 'grace@example.com', password: 'password123' } })).status).toBe(200);
      expect((await t.anon('GET', `/api/rbac/subjects/${b.id}/identities`)).status).toBe(401);
    });

    it("identity routes: add, change email, 'identityId is required', keep at least one", async () => {
      const s = await t.register('heidi@example.com');
      await verifyAddress(t, smtp, 'heidi@example.com');
      const me = t.as(s.jwt);
      expect((await me('PATCH', `/api/rbac/subjects/${s.id}/identities`, { data: {} })).body.message).toBe('identityId is required');
      expect((await me('DELETE', `/api/rbac/subjects/${s.id}/identities`)).body.message).toBe('identityId is required');
      expect((await me('DELETE', `/api/rbac/subjects/${s.id}/identities/${s.identityId}`)).status).toBe(400);
      const added = await me('POST', '/api/rbac/identities/email-and-password', { data: { email: 'heidi2@example.com', password: 'password123', currentPassword: 'password123' } });
      expect(added.status).toBe(201);
      const changed = await me('PATCH', `/api/rbac/subjects/${s.id}/identities/${added.body.data.id}`, { data: { email: 'heidi3@example.com', password: 'password123' } });
      expect(changed.body.data).toMatchObject({ email: 'heidi3@example.com', account: 'heidi3@example.com' });
      // removing a login is a change of the account: the current password, and every address is told
      const removeFirst = (data?: unknown) => me('DELETE', `/api/rbac/subjects/${s.id}/identities/${s.identityId}`, data);
      const first = await removeFirst(); expect(first.body.cause, JSON.stringify(first.body)).toEqual([{ field: 'currentPassword', rule: 'required', message: 'currentPassword is required' }]);
      expect((await removeFirst({ data: { currentPassword: 'wrong-password' } })).body.cause).toEqual([{ field: 'currentPassword', rule: 'match', message: 'currentPassword is wrong' }]);
      expect((await removeFirst({ data: { currentPassword: 'password123', roles: ['admin'] } })).status).toBe(400);
      expect((await t.anon('POST', ROUTES.login, { data: { login: 'heidi@example.com', password: 'password123' } })).status).toBe(200);
      expect((await removeFirst({ data: { currentPassword: 'password123' } })).status).toBe(200);
      expect((await t.anon('POST', ROUTES.login, { data: { login: 'heidi@example.com', password: 'password123' } })).status).toBe(401);
      expect((await t.anon('POST', ROUTES.login, { data: { login: 'heidi3@example.com', password: 'password123' } })).status).toBe(200);
      for (const to of ['heidi@example.com', 'heidi3@example.com']) {
        expect(textOf(await mailMatching(smtp, to, /You can no longer sign in with the email heidi@example\.com\./))).toContain('reset your password');
      }
    });

    it('admins (ADMIN_EMAILS or the admin role) may write; members get 403 and nothing is stored', async () => {
      const admin = await t.register(ADMIN_EMAIL);
      const member = await t.register('ivan@example.com');
      // ADMIN_EMAILS counts once the address is proven: until then the admin email is a member's
      expect((await t.as(admin.jwt)('GET', ROUTES.me)).body.data.isAdmin).toBe(false);
      expect((await t.as(admin.jwt)('POST', '/api/ecommerce/products', { data: { slug: 'by-unverified' } })).status).toBe(403);
      await verifyAddress(t, smtp, ADMIN_EMAIL);
      const count = async () => (await t.call('GET', '/api/ecommerce/products/count')).body.data;
      const before = await count();
      expect((await t.as(member.jwt)('POST', '/api/ecommerce/products', { data: { slug: 'by-member' } })).status).toBe(403);
      expect((await t.anon('POST', '/api/ecommerce/products', { data: { slug: 'by-anon' } })).status).toBe(401);
      expect(await count()).toBe(before);
      const made = await t.as(admin.jwt)('POST', '/api/ecommerce/products', { data: { slug: 'by-admin' } });
      expect(made.status).toBe(201);
      expect((await t.as(admin.jwt)('GET', ROUTES.me)).body.data.isAdmin).toBe(true);
      expect((await t.as(member.jwt)('GET', '/api/rbac/identities')).status).toBe(403);
      // the admin role given to the member makes it an admin
      const roles = (await t.call('GET', '/api/rbac/roles?filters[and][0][column]=slug&filters[and][0][method]=eq&filters[and][0][value]=admin')).body.data;
      await t.as(admin.jwt)('POST', '/api/rbac/subjects-to-roles', { data: { subjectId: member.id, roleId: roles[0].id } });
      expect((await t.as(member.jwt)('POST', '/api/ecommerce/products', { data: { slug: 'by-promoted' } })).status).toBe(201);
    });

    it('permissions live in the database: a role permission grants its holders, one without a role is public', async () => {
      const admin = (await t.anon('POST', ROUTES.login, { data: { login: ADMIN_EMAIL, password: 'password123' } })).body.data.jwt;
      const member = await t.register('judy@example.com');
      const memberRole = (await t.call('GET', '/api/rbac/roles?filters[and][0][column]=slug&filters[and][0][method]=eq&filters[and][0][value]=member')).body.data[0];
      expect((await t.as(member.jwt)('POST', '/api/blog/articles', { data: {} })).status).toBe(403);
      const perm = await t.as(admin)('POST', '/api/rbac/permissions', { data: { method: 'POST', route: '/api/blog/articles' } });
      expect(perm.status).toBe(201);
      await t.as(admin)('POST', '/api/rbac/roles-to-permissions', { data: { roleId: memberRole.id, permissionId: perm.body.data.id } });
      expect((await t.as(member.jwt)('POST', '/api/blog/articles', { data: {} })).status).toBe(201);
      expect((await t.anon('POST', '/api/blog/articles', { data: {} })).status).toBe(401);
      await t.as(admin)('POST', '/api/rbac/permissions', { data: { method: 'POST', route: '/api/blog/categories' } });
      expect((await t.anon('POST', '/api/blog/categories', { data: {} })).status).toBe(201);
    });

    it('is-authorized answers for a method and route', async () => {
      const member = await t.register('ken@example.com');
      const admin = (await t.anon('POST', ROUTES.login, { data: { login: ADMIN_EMAIL, password: 'password123' } })).body.data.jwt;
      const q = (method: string, route: string) => `${ROUTES.isAuthorized}?action[method]=${method}&action[route]=${encodeURIComponent(route)}`;
      expect((await t.anon('GET', q('GET', '/api/ecommerce/products'))).status).toBe(200);
      expect((await t.anon('GET', q('GET', '/api/rbac/identities'))).status).toBe(401);
      expect((await t.as(member.jwt)('GET', q('POST', '/api/ecommerce/products'))).status).toBe(403);
      expect((await t.as(member.jwt)('GET', q('GET', `/api/rbac/subjects/${member.id}/identities`))).status).toBe(200);
      // the route as a request to it is routed: dot segments resolved, so the answer is the real route's
      expect((await t.as(member.jwt)('GET', q('POST', '/api/rbac/subjects/authentication/../../roles'))).status).toBe(403);
      expect((await t.as(member.jwt)('GET', q('POST', '/api/rbac/roles'))).status).toBe(403);
      expect((await t.as(member.jwt)('GET', q('GET', '//evil.example/api/ecommerce/products'))).status).toBe(400);
      // a route under another subject is that subject's: is-authorized says what the route answers (403), for each
      // route below a subject, and the route itself refuses the same
      const other = await t.register('other-ken@example.com');
      for (const [method, route] of [['GET', `/api/rbac/subjects/${other.id}/identities`], ['DELETE', `/api/rbac/subjects/${other.id}/identities/00000000-0000-4000-8000-000000000000`], ['GET', `/api/rbac/subjects/${other.id}/ecommerce-module/orders`], ['GET', `/api/rbac/subjects/${other.id.toUpperCase()}/ecommerce-module/orders`]]) {
        expect((await t.as(member.jwt)('GET', q(method, route))).status, `${method} ${route}`).toBe(403);
        // (this app has no shop: its routes are only asked about)
        if (route.includes('/identities')) expect((await t.as(member.jwt)(method, route)).status, `${method} ${route} itself`).toBe(403);
        expect((await t.as(other.jwt)('GET', q(method, route))).status, `${method} ${route} by its subject`).toBe(200);
        expect((await t.anon('GET', q(method, route))).status).toBe(401);
      }
      expect((await t.as(admin)('GET', q('GET', `/api/rbac/subjects/${other.id}/ecommerce-module/orders`))).status).toBe(200);
      expect((await t.as(admin)('GET', q('DELETE', '/api/ecommerce/products/00000000-0000-4000-8000-000000000000'))).body.data).toEqual({ ok: true, authorized: true });
      expect((await t.anon('GET', `${ROUTES.isAuthorized}?action[method]=FETCH&action[route]=/x`)).status).toBe(400);
      // the reference client's spelling: permission[route|method|type]
      const p = (method: string, route: string) => `${ROUTES.isAuthorized}?permission[route]=${encodeURIComponent(route)}&permission[method]=${method}&permission[type]=HTTP`;
      expect((await t.anon('GET', p('GET', '/api/ecommerce/products'))).body).toEqual({ data: { ok: true, authorized: true } });
      expect((await t.as(member.jwt)('GET', p('POST', '/api/ecommerce/products'))).status).toBe(403);
      expect((await t.anon('GET', `${ROUTES.isAuthorized}?permission[route]=/x&permission[method]=GET&permission[type]=WS`)).status).toBe(400);
      // an error names the parameter as the caller spelled it
      const named = async (query: string) => (await t.anon('GET', `${ROUTES.isAuthorized}?${query}`)).body.cause[0].field;
      expect(await named('action[method]=GET&action[route]=/api/blog/articles&action[type]=GRAPHQL')).toBe('action[type]');
      expect(await named('permission[method]=GET&permission[route]=/x&permission[type]=WS')).toBe('permission[type]');
      expect(await named('permission[method]=FETCH&permission[route]=/x')).toBe('permission[method]');
      expect(await named('method=GET&route=x')).toBe('route');
      expect(await named('action[route]=/x')).toBe('action[method]');
    });

    it('secret fields stay out of reach of an admin session too', async () => {
      const admin = (await t.anon('POST', ROUTES.login, { data: { login: ADMIN_EMAIL, password: 'password123' } })).body.data.jwt;
      for (const column of ['password', 'salt', 'code']) {
        expect((await t.as(admin)('GET', `/api/rbac/identities?filters[and][0][column]=${column}&filters[and][0][method]=isNotNull`)).status).toBe(400);
        expect((await t.as(admin)('GET', `/api/rbac/identities?orderBy[and][0][column]=${column}&orderBy[and][0][method]=asc`)).status).toBe(400);
      }
      const list = await t.as(admin)('GET', '/api/rbac/identities');
      expect(list.status).toBe(200);
      expect(JSON.stringify(list.body)).not.toMatch(/"password"|"salt"|"code"/);
      expect(JSON.stringify((await t.as(admin)('GET', '/api/rbac/sessions')).body)).not.toMatch(/refreshHash|previousRefreshHash/);
    });
  });
}

for (const d of DIALECTS) {
  describe(`owner scoping through generic routes on ${d.name}`, () => {
    let t: AccountsApp;
    let smtp: Smtp;
    beforeAll(async () => {
      smtp = await startSmtp();
      t = (await bootAccounts(await d.make(), { env: { SMTP_URL: smtp.url } })) as AccountsApp;
    });
    afterAll(async () => {
      await t?.close();
      await smtp?.close();
    });

    it('a granted member reaches only its own rows, and cannot move a row to another subject', async () => {
      const admin = await t.register(ADMIN_EMAIL);
      await verifyAddress(t, smtp, ADMIN_EMAIL);
      const a = await t.register('owner-a@example.com');
      const b = await t.register('owner-b@example.com');
      const sys = (m: string, p: string, body?: unknown) => t.call(m, p, body);
      const profileA = (await sys('POST', '/api/social/profiles', { data: { slug: 'profile-a' } })).body.data;
      const profileB = (await sys('POST', '/api/social/profiles', { data: { slug: 'profile-b' } })).body.data;
      const linkA = (await sys('POST', '/api/rbac/subjects-to-social-module-profiles', { data: { subjectId: a.id, socialModuleProfileId: profileA.id } })).body.data;
      await sys('POST', '/api/rbac/subjects-to-social-module-profiles', { data: { subjectId: b.id, socialModuleProfileId: profileB.id } });
      const member = (await sys('GET', '/api/rbac/roles?filters[and][0][column]=slug&filters[and][0][method]=eq&filters[and][0][value]=member')).body.data[0];
      for (const [method, route] of [['PATCH', '/api/social/profiles/*'], ['PATCH', '/api/rbac/subjects-to-social-module-profiles/*'], ['GET', '/api/rbac/subjects-to-social-module-profiles']]) {
        const perm = (await t.as(admin.jwt)('POST', '/api/rbac/permissions', { data: { method, route } })).body.data;
        await t.as(admin.jwt)('POST', '/api/rbac/roles-to-permissions', { data: { roleId: member.id, permissionId: perm.id } });
      }
      expect((await t.as(a.jwt)('PATCH', `/api/social/profiles/${profileA.id}`, { data: { adminTitle: 'Mine' } })).status).toBe(200);
      // the server's fields (id, createdAt, updatedAt) in an owner's update are ignored, as they are for the system:
      // an id there was judged as the row's and refused with a bare 403
      const withId = await t.as(a.jwt)('PATCH', `/api/social/profiles/${profileA.id}`, { data: { id: profileB.id, createdAt: '2001-01-01T00:00:00.000Z', adminTitle: 'Still mine' } });
      expect(withId.status).toBe(200);
      expect(withId.body.data).toMatchObject({ id: profileA.id, adminTitle: 'Still mine' });
      expect(withId.body.data.createdAt).not.toBe('2001-01-01T00:00:00.000Z');
      expect((await sys('GET', `/api/social/profiles/${profileB.id}`)).body.data.adminTitle).not.toBe('Still mine');
      const other = await t.as(a.jwt)('PATCH', `/api/social/profiles/${profileB.id}`, { data: { adminTitle: 'Stolen' } });
      expect(other.status).toBe(403);
      expect((await sys('GET', `/api/social/profiles/${profileB.id}`)).body.data.adminTitle).not.toBe('Stolen');
      // moving one's own link to another subject: judged on the row after the write
      const moved = await t.as(a.jwt)('PATCH', `/api/rbac/subjects-to-social-module-profiles/${linkA.id}`, { data: { subjectId: b.id } });
      expect(moved.status).toBe(403);
      expect((await sys('GET', `/api/rbac/subjects-to-social-module-profiles/${linkA.id}`)).body.data.subjectId).toBe(a.id);
      expect((await t.as(a.jwt)('PATCH', `/api/rbac/subjects-to-social-module-profiles/${linkA.id}`, { data: { orderIndex: 3 } })).status).toBe(200);
      // the links are a public entity: a member lists them as any visitor does (private owned entities are
      // scoped to the caller's rows: tests/security/ownership.test.ts)
      const listed = await t.as(a.jwt)('GET', '/api/rbac/subjects-to-social-module-profiles');
      expect(listed.status).toBe(200);
      expect(listed.body.data.map((r: { subjectId: string }) => r.subjectId).sort()).toEqual([a.id, b.id].sort());
    });
  });
}
