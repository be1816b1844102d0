import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { SignJWT } from 'jose';
import { DIALECTS } from '../helpers/databases.js';
import { GENEROUS, ROUTES } from '../helpers/accounts.js';
import { createCrmPlugin } from '../../plugins/crm/server/index.js';
import { notification } from '../../plugins/notification/server/index.js';
import { createRbacPlugin } from '../../plugins/rbac/server/index.js';
import { bootApp, type TestApp } from '../helpers/app.js';
import { PUBLIC_BODY_BYTES, SIGNED_BODY_BYTES } from '../../runtime/http/limits.js';

/** a CRM form body between the public limit and the signed one: twenty fields of 4000 characters (the form takes 50 of 5000) */
const fields = () => Object.fromEntries([['name', 'Visitor'], ...Array.from({ length: 20 }, (_, i) => [`field${i}`, 'x'.repeat(4000)])]);

/**
 * F12 (red-team of the running server): `GET /api/rbac/subjects/authentication/init`, which anyone may call, hands out
 * a session token signed by this server, and any signed token got the signed caller's 4 MiB body limit. A body gets
 * the signed limit only when its session is a signed-in caller's (a subject with a login, an admin) or the system
 * key's: the subject of an anonymous session keeps the public limit; a token signed here whose session no longer
 * answers (expired, revoked) is told to refresh (401) rather than read past the public limit.
 */
for (const d of DIALECTS) {
  describe(`F12: an anonymous session keeps the public body limit (${d.name})`, () => {
    let t: TestApp;
    let formId: string;
    const form = () => `/api/crm/forms/${formId}/requests`;
    const stored = async () => (await t.call('GET', '/api/crm/requests/count')).body.data as number;
    const send = (headers: Record<string, string>) => t.call('POST', form(), { data: fields() }, { auth: false, headers });

    beforeAll(async () => {
      t = await bootApp(await d.make(), { plugins: [notification, createRbacPlugin({ limits: GENEROUS }), createCrmPlugin({ formLimit: { points: 10_000, duration: 60 } })] });
      formId = (await t.call('POST', '/api/crm/forms', { data: { slug: 'f12-form' } })).body.data.id;
      const size = JSON.stringify({ data: fields() }).length;
      expect(size).toBeGreaterThan(PUBLIC_BODY_BYTES);
      expect(size).toBeLessThan(SIGNED_BODY_BYTES);
    });
    afterAll(async () => t?.close());

    it('F12: with an /init session token, a body past the public limit is a 413 and nothing is stored', async () => {
      const init = await t.call('GET', ROUTES.init, undefined, { auth: false });
      expect(init.status).toBe(200);
      const before = await stored();
      const r = await send({ authorization: `Bearer ${init.body.data.jwt}` });
      expect(r.status, JSON.stringify(r.body)).toBe(413);
      expect(r.body).toEqual({ message: 'The body is larger than 64 KiB', status: 413 });
      // the session cookie /init set is the same session
      const cookie = init.headers.get('set-cookie')?.split(';')[0];
      expect(cookie).toMatch(/^rbac\.subject\.jwt=/);
      expect((await send({ cookie: cookie! })).status).toBe(413);
      expect(await stored()).toBe(before);
      // a body within the public limit goes through for the same session
      expect((await t.call('POST', form(), { data: { name: 'small' } }, { auth: false, headers: { authorization: `Bearer ${init.body.data.jwt}` } })).status).toBe(201);
      expect(await stored()).toBe(before + 1);
    });

    it('F12: a signed-in caller (a registered subject) sends the same body: past the limit check, stored', async () => {
      const registered = await t.call('POST', ROUTES.register, { data: { login: `f12-${d.name}@example.com`, password: 'password123' } }, { auth: false });
      expect(registered.status, JSON.stringify(registered.body)).toBe(201);
      const before = await stored();
      const r = await send({ authorization: `Bearer ${registered.body.data.jwt}` });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      expect(await stored()).toBe(before + 1);
    });

    it('F12: a token signed here whose session no longer answers is told to refresh (401), and nothing is read past the public limit or stored', async () => {
      const registered = await t.call('POST', ROUTES.register, { data: { login: `f12-expired-${d.name}@example.com`, password: 'password123' } }, { auth: false });
      const me = await t.call('GET', ROUTES.me, undefined, { token: registered.body.data.jwt });
      const claims = JSON.parse(Buffer.from(registered.body.data.jwt.split('.')[1], 'base64url').toString());
      const now = Math.floor(Date.now() / 1000);
      const expired = await new SignJWT({ sid: claims.sid }).setProtectedHeader({ alg: 'HS256' }).setSubject(me.body.data.id).setIssuedAt(now - 3600).setExpirationTime(now - 60).sign(new TextEncoder().encode('test-jwt-secret-0123456789'));
      const before = await stored();
      const r = await send({ authorization: `Bearer ${expired}` });
      expect(r.status, JSON.stringify(r.body)).toBe(401);
      expect(r.body.message).toMatch(/refresh/);
      expect(await stored()).toBe(before);
    });
  });
}
