import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { DIALECTS } from '../helpers/databases.js';
import { bootAccounts, ROUTES, type AccountsApp } from '../helpers/accounts.js';
import { resetCodeIn, startSmtp } from '../helpers/smtp.js';
import { closeRateLimitStore } from '../../plugins/rbac/server/rate-limit.js';
import { verificationCode as makeVerificationCode } from '../../plugins/rbac/server/verification.js';
import { RESEND_ROUTE, RESET, VERIFY, VERIFY_ROUTE, mailMatching, mailsMatching, siwe, textOf, verificationCode, verifyAddress, type Smtp } from './support.js';

/**
 * Named regressions for the findings of the security trial of the running server (accounts module).
 * Each asserts rows and mails, not only statuses.
 */

const ADMINS = 'ops@example.com,ops2@example.com,ops3@example.com,ops4@example.com';
const ADD_EMAIL = '/api/rbac/identities/email-and-password';
const changePasswordPath = (identityId: string) => `/api/rbac/identities/${identityId}/change-password`;
const identityPath = (subjectId: string, identityId: string) => `/api/rbac/subjects/${subjectId}/identities/${identityId}`;
const multipart = (data: unknown) => {
  const form = new FormData();
  form.set('data', JSON.stringify(data));
  return form;
};

/** rows read straight from the database, secrets included */
function rows(t: AccountsApp) {
  const identities = t.database.tables['rbac/identity'];
  const sessions = t.database.tables['rbac/session'];
  return {
    identity: async (email: string) => (await t.database.db.select().from(identities).where(eq(identities.email, email)))[0] as Record<string, any> | undefined,
    identityById: async (id: string) => (await t.database.db.select().from(identities).where(eq(identities.id, id)))[0] as Record<string, any>,
    session: async (id: string) => (await t.database.db.select().from(sessions).where(eq(sessions.id, id)))[0] as Record<string, any>,
    products: async () => (await t.call('GET', '/api/ecommerce/products/count')).body.data as number,
    subjects: async () => (await t.call('GET', '/api/rbac/subjects/count')).body.data as number,
  };
}

for (const d of DIALECTS) {
  describe(`security trial findings on ${d.name}`, () => {
    let t: AccountsApp;
    let smtp: Smtp;
    let db: ReturnType<typeof rows>;
    beforeAll(async () => {
      smtp = await startSmtp();
      t = (await bootAccounts(await d.make(), { env: { SMTP_URL: smtp.url, ADMIN_EMAILS: ADMINS, PUBLIC_URL: 'http://localhost:4000' } })) as AccountsApp;
      db = rows(t);
    });
    afterAll(async () => {
      await t?.close();
      await smtp?.close();
    });

    describe('finding 1: admin by claiming an ADMIN_EMAILS address', () => {
      it('finding 1: registering an ADMIN_EMAILS address (any case) grants nothing until the code mailed to it comes back', async () => {
        const s = await t.register('OPS@Example.com');
        const me = (await t.as(s.jwt)('GET', ROUTES.me)).body.data;
        expect(me.isAdmin).toBe(false);
        expect(me.identities[0]).toMatchObject({ email: 'ops@example.com', emailVerifiedAt: null });
        const before = await db.products();
        expect((await t.as(s.jwt)('POST', '/api/ecommerce/products', { data: { slug: 'by-squatter' } })).status).toBe(403);
        expect(await db.products()).toBe(before);

        // the code went to the address, with a link to the storefront's verify page
        const mail = await mailMatching(smtp, 'ops@example.com', VERIFY);
        const code = await verificationCode(smtp, 'ops@example.com');
        expect(textOf(mail)).toContain(`http://localhost:4000/rbac/subject/authentication/email-and-password/verify?code=${encodeURIComponent(code)}`);
        // a tampered or made-up code proves nothing
        const tampered = code.slice(0, -2) + (code.endsWith('AA') ? 'BB' : 'AA');
        const bad = await t.anon('POST', VERIFY_ROUTE, { data: { code: tampered } });
        expect(bad.status).toBe(400);
        expect(bad.body).toMatchObject({ message: 'The verification code is invalid or has expired', cause: [{ field: 'code', rule: 'code' }] });
        const expired = makeVerificationCode(t.config.rbacJwtSecret, s.identityId, 'ops@example.com', Date.now() - 2 * 24 * 60 * 60 * 1000);
        expect((await t.anon('POST', VERIFY_ROUTE, { data: { code: expired } })).status).toBe(400);
        expect((await t.anon('POST', VERIFY_ROUTE, { data: {} })).body.cause[0]).toMatchObject({ field: 'code', rule: 'required' });
        expect((await db.identity('ops@example.com'))!.emailVerifiedAt).toBeNull();
        expect((await t.as(s.jwt)('GET', ROUTES.me)).body.data.isAdmin).toBe(false);

        // the code alone, as a mail scanner opening the link would send it, proves nothing: the account's proof goes with it
        const alone = await t.anon('POST', VERIFY_ROUTE, { data: { code } });
        expect(alone).toMatchObject({ status: 400, body: { cause: [{ field: 'password', rule: 'required' }] } });
        expect((await t.anon('POST', VERIFY_ROUTE, { data: { code, password: 'not-the-password' } })).body.cause[0]).toMatchObject({ field: 'password', rule: 'match' });
        expect((await db.identity('ops@example.com'))!.emailVerifiedAt).toBeNull();
        // the holder of the address proves it: only now does ADMIN_EMAILS apply
        const ok = await t.anon('POST', VERIFY_ROUTE, { data: { code, password: 'password123' } });
        expect(ok.body).toEqual({ data: { message: 'Email verified', email: 'ops@example.com' } });
        expect((await db.identity('ops@example.com'))!.emailVerifiedAt).toBeInstanceOf(Date);
        expect((await t.as(s.jwt)('GET', ROUTES.me)).body.data.isAdmin).toBe(true);
        expect((await t.as(s.jwt)('POST', '/api/ecommerce/products', { data: { slug: 'by-verified-ops' } })).status).toBe(201);
        // the stored notification does not keep the code
        const stored = await t.call('GET', '/api/notification/notifications?filters[and][0][column]=recipient&filters[and][0][method]=eq&filters[and][0][value]=ops@example.com');
        expect(stored.body.data).toEqual([expect.objectContaining({ title: 'Verify your email', status: 'sent' })]);
        expect(JSON.stringify(stored.body)).not.toContain(code.split('.')[2]);
      });

      it('finding 1: a member adding an ADMIN_EMAILS address as a login is no admin, and its own code cannot prove it', async () => {
        const m = await t.register('member1@example.com');
        await verifyAddress(t, smtp, 'member1@example.com');
        const added = await t.as(m.jwt)('POST', ADD_EMAIL, { data: { email: 'Ops2@EXAMPLE.com', password: 'password123', currentPassword: 'password123' } });
        expect(added.status).toBe(201);
        expect(added.body.data).toMatchObject({ email: 'ops2@example.com', emailVerifiedAt: null });
        expect((await t.as(m.jwt)('GET', ROUTES.me)).body.data.isAdmin).toBe(false);
        expect((await t.as(m.jwt)('POST', '/api/ecommerce/products', { data: { slug: 'by-claimer' } })).status).toBe(403);
        // the member's own code, aimed at the new identity, fails: a code is bound to its identity and address
        const [, expiry, mac] = (await verificationCode(smtp, 'member1@example.com')).split('.');
        expect((await t.anon('POST', VERIFY_ROUTE, { data: { code: `${added.body.data.id}.${expiry}.${mac}` } })).status).toBe(400);
        expect((await db.identity('ops2@example.com'))!.emailVerifiedAt).toBeNull();
        expect((await t.as(m.jwt)('GET', ROUTES.me)).body.data.isAdmin).toBe(false);
        // the code went to the claimed address, which the member does not read
        await mailMatching(smtp, 'ops2@example.com', VERIFY);
        expect(mailsMatching(smtp, 'member1@example.com', VERIFY)).toHaveLength(1);
      });

      it("finding 1: changing one's email to an ADMIN_EMAILS address clears the verified state and grants nothing", async () => {
        const m = await t.register('member2@example.com');
        await verifyAddress(t, smtp, 'member2@example.com');
        expect((await db.identity('member2@example.com'))!.emailVerifiedAt).toBeInstanceOf(Date);
        const oldCode = await verificationCode(smtp, 'member2@example.com');
        const changed = await t.as(m.jwt)('PATCH', identityPath(m.id, m.identityId), { data: { email: 'OPS3@example.com', password: 'password123' } });
        expect(changed.status).toBe(200);
        expect(changed.body.data).toMatchObject({ email: 'ops3@example.com', account: 'ops3@example.com', emailVerifiedAt: null });
        expect((await db.identityById(m.identityId)).emailVerifiedAt).toBeNull();
        expect((await t.as(m.jwt)('GET', ROUTES.me)).body.data.isAdmin).toBe(false);
        // the code sent to the old address does not prove the new one
        expect((await t.anon('POST', VERIFY_ROUTE, { data: { code: oldCode } })).status).toBe(400);
        expect((await db.identityById(m.identityId)).emailVerifiedAt).toBeNull();
        await mailMatching(smtp, 'ops3@example.com', VERIFY);
      });

      it('finding 1: resend sends a new code to an unverified address of one\'s own; not for others, not once verified', async () => {
        const m = await t.register('member3@example.com');
        const other = await t.register('member4@example.com');
        await verificationCode(smtp, 'member3@example.com');
        expect((await t.anon('POST', RESEND_ROUTE, { data: { identityId: m.identityId } })).status).toBe(401);
        expect((await t.as(other.jwt)('POST', RESEND_ROUTE, { data: { identityId: m.identityId } })).status).toBe(404);
        expect((await t.as(m.jwt)('POST', RESEND_ROUTE, { data: { identityId: 'nope' } })).body.cause[0]).toMatchObject({ field: 'identityId', rule: 'format' });
        const resent = await t.as(m.jwt)('POST', RESEND_ROUTE, { data: { identityId: m.identityId } });
        expect(resent.body).toEqual({ data: { message: 'Verification email sent' } });
        await verifyAddress(t, smtp, 'member3@example.com', 2);
        expect(mailsMatching(smtp, 'member3@example.com', VERIFY)).toHaveLength(2);
        const again = await t.as(m.jwt)('POST', RESEND_ROUTE, { data: { identityId: m.identityId } });
        expect(again.status).toBe(400);
        expect(again.body.cause[0]).toMatchObject({ field: 'identityId', rule: 'verified' });
      });
    });

    describe('finding 4: logins added with a bare session', () => {
      it('finding 4: adding an email login needs the current password, and the existing address is told', async () => {
        const s = await t.register('dora@example.com', 'dora-password');
        await verifyAddress(t, smtp, 'dora@example.com', 1, 'dora-password');
        const me = t.as(s.jwt);
        const bare = await me('POST', ADD_EMAIL, { data: { email: 'dora2@example.com', password: 'password123' } });
        expect(bare.status).toBe(400);
        expect(bare.body.cause[0]).toMatchObject({ field: 'currentPassword', rule: 'required' });
        const wrong = await me('POST', `/api/rbac/subjects/${s.id}/identities`, { data: { email: 'dora2@example.com', password: 'password123', currentPassword: 'not-dora-password' } });
        expect(wrong.status).toBe(400);
        expect(wrong.body.cause[0]).toMatchObject({ field: 'currentPassword', rule: 'match' });
        expect(await db.identity('dora2@example.com')).toBeUndefined();
        expect(smtp.mails.some((m) => m.to.includes('dora2@example.com'))).toBe(false);
        const ok = await me('POST', ADD_EMAIL, { data: { email: 'dora2@example.com', password: 'password123', currentPassword: 'dora-password' } });
        expect(ok.status).toBe(201);
        expect(await db.identity('dora2@example.com')).toMatchObject({ id: ok.body.data.id, emailVerifiedAt: null });
        const notice = await mailMatching(smtp, 'dora@example.com', /dora2@example\.com was added/);
        expect(textOf(notice)).toContain('A sign-in email was added to your account');
        await mailMatching(smtp, 'dora2@example.com', VERIFY);
      });

      it("finding 4: changing the email needs the identity's password, and the previous address is told", async () => {
        const s = await t.register('emil@example.com', 'emil-password');
        const me = t.as(s.jwt);
        const bare = await me('PATCH', identityPath(s.id, s.identityId), { data: { email: 'emil2@example.com' } });
        expect(bare.status).toBe(400);
        expect(bare.body.cause[0]).toMatchObject({ field: 'password', rule: 'required' });
        const wrong = await me('PATCH', identityPath(s.id, s.identityId), { data: { email: 'emil2@example.com', password: 'wrong-password' } });
        expect(wrong.body.cause[0]).toMatchObject({ field: 'password', rule: 'match' });
        expect((await db.identityById(s.identityId)).email).toBe('emil@example.com');
        expect((await me('PATCH', identityPath(s.id, s.identityId), { data: { email: 'emil2@example.com', password: 'emil-password' } })).status).toBe(200);
        expect((await db.identityById(s.identityId)).email).toBe('emil2@example.com');
        const notice = await mailMatching(smtp, 'emil@example.com', /changed from emil@example\.com to emil2@example\.com/);
        expect(textOf(notice)).toContain('Your sign-in email was changed');
        await mailMatching(smtp, 'emil2@example.com', VERIFY);
        expect((await t.anon('POST', ROUTES.login, { data: { login: 'emil2@example.com', password: 'emil-password' } })).status).toBe(200);
      });

      it('finding 4: a cookie-authenticated write from a foreign Origin is refused with 403 on every route and changes nothing', async () => {
        const s = await t.register('fay@example.com');
        await verifyAddress(t, smtp, 'fay@example.com');
        const cookie = s.cookie.split(';')[0]!;
        const body = { email: 'fay-evil@example.com', password: 'password123', currentPassword: 'password123' };
        const viaCookie = (method: string, path: string, data: unknown, headers: Record<string, string>) => t.call(method, path, data, { auth: false, headers: { cookie, ...headers } });

        // a cross-origin multipart form post carrying the cookie
        const cross = await viaCookie('POST', ADD_EMAIL, multipart(body), { origin: 'https://evil.example' });
        expect(cross).toMatchObject({ status: 403, body: { message: 'Not authorized: a request from another origin' } });
        for (const headers of [{ origin: 'null' }, { referer: 'https://evil.example/page' }, { 'sec-fetch-site': 'cross-site' }] as Record<string, string>[]) {
          expect((await viaCookie('POST', ADD_EMAIL, { data: body }, headers)).status, JSON.stringify(headers)).toBe(403);
        }
        expect((await viaCookie('PATCH', identityPath(s.id, s.identityId), { data: { email: 'fay-evil@example.com', password: 'password123' } }, { origin: 'https://evil.example' })).status).toBe(403);
        expect((await viaCookie('DELETE', identityPath(s.id, s.identityId), undefined, { origin: 'https://evil.example' })).status).toBe(403);
        expect((await viaCookie('POST', ROUTES.logout, { data: {} }, { origin: 'https://evil.example' })).status).toBe(403);
        // another Authorization (a browser adds Basic by itself behind a password-protected proxy) or a wrong system key
        // leaves the cookie as what signs the request in: refused alike
        for (const extra of [{ authorization: 'Basic dXNlcjpwYXNz' }, { authorization: 'Bearer' }, { 'x-rbac-secret-key': 'x' }] as Record<string, string>[]) {
          expect((await viaCookie('POST', ROUTES.logout, { data: {} }, { origin: 'https://evil.example', ...extra })).status, JSON.stringify(extra)).toBe(403);
          expect((await viaCookie('POST', ADD_EMAIL, { data: body }, { origin: 'https://evil.example', ...extra })).status, JSON.stringify(extra)).toBe(403);
        }
        expect(await db.identity('fay-evil@example.com')).toBeUndefined();
        expect((await db.identityById(s.identityId)).email).toBe('fay@example.com');
        expect((await db.session(s.refresh.split('.')[0]!)).revokedAt).toBeNull();

        // generic CRUD routes too: an admin's cookie from another origin creates nothing
        const admin = await t.register('ops4@example.com');
        await verifyAddress(t, smtp, 'ops4@example.com');
        const adminCookie = admin.cookie.split(';')[0]!;
        const before = await db.products();
        const crud = await t.call('POST', '/api/ecommerce/products', { data: { slug: 'cross-site-product' } }, { auth: false, headers: { cookie: adminCookie, origin: 'https://evil.example' } });
        expect(crud.status).toBe(403);
        expect(await db.products()).toBe(before);
        // the server's own origin (PUBLIC_URL or the request's) and a token in the header are fine
        expect((await t.call('POST', '/api/ecommerce/products', { data: { slug: 'same-site-product' } }, { auth: false, headers: { cookie: adminCookie, origin: 'http://localhost:4000' } })).status).toBe(201);
        expect((await t.call('POST', '/api/ecommerce/products', { data: { slug: 'own-origin-product' } }, { auth: false, headers: { cookie: adminCookie, origin: 'http://localhost' } })).status).toBe(201);
        expect((await t.call('POST', '/api/ecommerce/products', { data: { slug: 'bearer-product' } }, { token: admin.jwt, headers: { origin: 'https://evil.example' } })).status).toBe(201);
        // the valid system key is the caller's own code, whatever cookie rides along
        expect((await t.call('POST', '/api/ecommerce/products', { data: { slug: 'system-product' } }, { headers: { cookie: adminCookie, origin: 'https://evil.example' } })).status).toBe(201);
        expect(await db.products()).toBe(before + 4);
        // reads are not state changes
        expect((await viaCookie('GET', ROUTES.me, undefined, { origin: 'https://evil.example' })).status).toBe(200);
        const same = await viaCookie('POST', ADD_EMAIL, multipart(body), { origin: 'http://localhost:4000' });
        expect(same.status).toBe(201);
        expect(await db.identity('fay-evil@example.com')).toMatchObject({ id: same.body.data.id });
      });
    });

    it('login CSRF: a page of another site cannot sign the visitor into an account (sign-in and registration from a foreign origin are 403)', async () => {
      await t.register('csrf-owner@example.com');
      for (const headers of [{ origin: 'https://evil.example' }, { origin: 'null' }, { referer: 'https://evil.example/page' }, { 'sec-fetch-site': 'cross-site' }] as Record<string, string>[]) {
        // a plain HTML form can post multipart with no preflight
        const signIn = await t.anon('POST', ROUTES.login, multipart({ login: 'csrf-owner@example.com', password: 'password123' }), headers);
        expect([signIn.status, signIn.body.message], JSON.stringify(headers)).toEqual([403, 'Not authorized: a request from another origin']);
        expect(signIn.headers.get('set-cookie')).toBeNull();
        const register = await t.anon('POST', ROUTES.register, { data: { login: 'csrf-new@example.com', password: 'password123' } }, headers);
        expect(register.status, JSON.stringify(headers)).toBe(403);
      }
      expect(await db.identity('csrf-new@example.com')).toBeUndefined();
      // the site's own pages, and clients that name no origin (apps, scripts), sign in as before
      expect((await t.anon('POST', ROUTES.login, { data: { login: 'csrf-owner@example.com', password: 'password123' } }, { origin: 'http://localhost:4000' })).status).toBe(200);
      expect((await t.anon('POST', ROUTES.login, { data: { login: 'csrf-owner@example.com', password: 'password123' } })).status).toBe(200);
    });

    describe('finding 6: wallet sign-in accepts any message holding a nonce', () => {
      it('finding 6: a signature on a message for another site, chain or time, or on a bare nonce, does not sign in', async () => {
        const wallet = privateKeyToAccount(generatePrivateKey());
        const other = privateKeyToAccount(generatePrivateKey());
        const nonce = (await t.anon('GET', ROUTES.init)).body.data.nonce as string;
        expect(nonce).toMatch(/^[a-zA-Z0-9]{8,}$/);
        const attempt = async (message: string) => t.anon('POST', ROUTES.wallet, { data: { message, signature: await wallet.signMessage({ message }), address: wallet.address } });
        const before = await db.subjects();
        const minute = 60 * 1000;
        const refused: [string, number, RegExp | string][] = [
          [`Sign in to example.com. Nonce: ${nonce}`, 400, 'message must be a Sign-In with Ethereum (EIP-4361) message'],
          [siwe(wallet.address, nonce) + '\nSigned for evil.example too', 400, /EIP-4361/],
          [siwe(wallet.address, nonce, { domain: 'evil.example', uri: 'https://evil.example/login' }), 401, 'Not authorized: the message is for another domain'],
          [siwe(wallet.address, nonce, { scheme: 'https' }), 401, 'Not authorized: the message is for another domain'],
          [siwe(wallet.address, nonce, { uri: 'https://evil.example/login' }), 401, 'Not authorized: the message is for another site'],
          [siwe(wallet.address, nonce, { chainId: 137 }), 401, /chain 137/],
          [siwe(other.address, nonce), 401, 'Not authorized: the message is signed for another address'],
          [siwe(wallet.address, nonce, { expirationTime: new Date(Date.now() - minute) }), 401, 'Not authorized: the message has expired or is not valid yet'],
          [siwe(wallet.address, nonce, { notBefore: new Date(Date.now() + 5 * minute) }), 401, 'Not authorized: the message has expired or is not valid yet'],
          [siwe(wallet.address, nonce, { issuedAt: new Date(Date.now() - 60 * minute) }), 401, 'Not authorized: the message was not issued now'],
          [siwe(wallet.address, nonce, { issuedAt: new Date(Date.now() + 10 * minute) }), 401, 'Not authorized: the message was not issued now'],
          [siwe(wallet.address, 'abcdefgh12345678'), 401, 'Not authorized: unknown nonce'],
        ];
        for (const [message, status, text] of refused) {
          const r = await attempt(message);
          expect(r.status, message).toBe(status);
          expect(r.body.message, message).toMatch(text instanceof RegExp ? text : new RegExp(`^${text.replace(/[()]/g, '\\$&')}$`));
          if (status === 400) expect(r.body.cause[0]).toMatchObject({ field: 'message', rule: 'siwe' });
        }
        expect(await db.subjects()).toBe(before);
        // the message this site asks for signs in, once
        const good = siwe(wallet.address, nonce);
        const ok = await attempt(good);
        expect(ok.status, JSON.stringify(ok.body)).toBe(200);
        expect(await db.subjects()).toBe(before + 1);
        expect((await attempt(good)).body.message).toBe('Not authorized: the nonce was already used');
      });
    });

    describe('finding 7: a reset code survives a password change and an email change', () => {
      it('finding 7: an outstanding reset code is void after a password change and after an email change', async () => {
        const s = await t.register('ivy@example.com', 'ivy-password');
        await t.anon('POST', ROUTES.forgot, { data: { email: 'ivy@example.com' } });
        const first = resetCodeIn((await mailMatching(smtp, 'ivy@example.com', RESET)).raw);
        expect((await db.identityById(s.identityId)).code).toBeTruthy();
        expect((await t.call('PATCH', changePasswordPath(s.identityId), multipart({ password: 'ivy-password', newPassword: 'ivy-password-2' }), { token: s.jwt })).status).toBe(200);
        expect(await db.identityById(s.identityId)).toMatchObject({ code: null, codeExpiresAt: null });
        const afterPassword = await t.anon('POST', ROUTES.reset, { data: { code: first, password: 'stolen-password', passwordConfirmation: 'stolen-password' } });
        expect(afterPassword.body).toMatchObject({ status: 400, message: 'The reset code is invalid or has expired' });

        await t.anon('POST', ROUTES.forgot, { data: { email: 'ivy@example.com' } });
        const second = resetCodeIn((await mailMatching(smtp, 'ivy@example.com', RESET, 2)).raw);
        expect((await t.as(s.jwt)('PATCH', identityPath(s.id, s.identityId), { data: { email: 'ivy2@example.com', password: 'ivy-password-2' } })).status).toBe(200);
        expect(await db.identityById(s.identityId)).toMatchObject({ code: null, codeExpiresAt: null });
        const afterEmail = await t.anon('POST', ROUTES.reset, { data: { code: second, password: 'stolen-password', passwordConfirmation: 'stolen-password' } });
        expect(afterEmail.status).toBe(400);
        expect((await t.anon('POST', ROUTES.login, { data: { login: 'ivy2@example.com', password: 'stolen-password' } })).status).toBe(401);
        expect((await t.anon('POST', ROUTES.login, { data: { login: 'ivy2@example.com', password: 'ivy-password-2' } })).status).toBe(200);
      });
    });

    it('a reset code sent four times at once resets the password once: one 200, three 400s, and the winner\'s password is the one that signs in', async () => {
      await t.register('race@example.com', 'race-password');
      await t.anon('POST', ROUTES.forgot, { data: { email: 'race@example.com' } });
      const code = resetCodeIn((await mailMatching(smtp, 'race@example.com', RESET)).raw);
      const passwords = ['first-password', 'second-password', 'third-password', 'fourth-password'];
      const answers = await Promise.all(passwords.map((password) => t.anon('POST', ROUTES.reset, { data: { code, password, passwordConfirmation: password } })));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 400, 400, 400]);
      for (const a of answers.filter((x) => x.status === 400)) expect(a.body.message).toBe('The reset code is invalid or has expired');
      const winner = passwords[answers.findIndex((a) => a.status === 200)];
      const signIns = await Promise.all(passwords.map(async (password) => (await t.anon('POST', ROUTES.login, { data: { login: 'race@example.com', password } })).status));
      expect(signIns).toEqual(passwords.map((p) => (p === winner ? 200 : 401)));
    });

    describe('finding 8: anyone can end any session knowing its id', () => {
      it('finding 8: an anonymous logout with a session id and a wrong secret ends nothing; the whole refresh token does', async () => {
        const victim = await t.register('jay@example.com');
        const sessionId = victim.refresh.split('.')[0]!;
        for (const refresh of [`${sessionId}.x`, `${sessionId}.${'A'.repeat(43)}`, sessionId, `${sessionId}.`]) {
          expect((await t.anon('POST', ROUTES.logout, { data: { refresh } })).status).toBe(200);
          expect((await db.session(sessionId)).revokedAt, refresh).toBeNull();
        }
        // another subject's session holding the id does not help either
        const mallory = await t.register('mallory-8@example.com');
        await t.as(mallory.jwt)('POST', ROUTES.logout, { data: { refresh: `${sessionId}.${'B'.repeat(43)}` } });
        expect((await db.session(sessionId)).revokedAt).toBeNull();
        expect((await t.as(victim.jwt)('GET', ROUTES.me)).status).toBe(200);
        // the holder of the whole token ends it
        expect((await t.anon('POST', ROUTES.logout, { data: { refresh: victim.refresh } })).status).toBe(200);
        expect(await db.session(sessionId)).toMatchObject({ revokedAt: expect.any(Date), revokedReason: 'logout' });
        expect((await t.as(victim.jwt)('GET', ROUTES.me)).body.data).toBeNull();
      });
    });
  });

  describe(`finding 5: current-password checks under the sign-in limit on ${d.name}`, () => {
    let t: AccountsApp;
    let db: ReturnType<typeof rows>;
    beforeAll(async () => {
      const env: Record<string, string> = process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {};
      t = (await bootAccounts(await d.make(), {
        env,
        rbac: { limits: { perAddress: { points: 10_000, duration: 60 }, perAccount: { points: 5, duration: 60 } }, keyPrefix: `trial-${randomBytes(6).toString('hex')}` },
      })) as AccountsApp;
      db = rows(t);
    });
    afterAll(async () => {
      await t?.close();
      await closeRateLimitStore();
    });

    it('finding 5: 40 wrong guesses on change-password get 429 after the per-account limit, and the right password waits too', async () => {
      const s = await t.register('gus@example.com', 'gus-password');
      const stored = (await db.identityById(s.identityId)).password;
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) {
        statuses.push((await t.call('PATCH', changePasswordPath(s.identityId), multipart({ password: `wrong-guess-${i}`, newPassword: 'new-gus-password' }), { token: s.jwt })).status);
      }
      expect(statuses.slice(0, 5)).toEqual([400, 400, 400, 400, 400]);
      expect(new Set(statuses.slice(5))).toEqual(new Set([429]));
      const right = await t.call('PATCH', changePasswordPath(s.identityId), multipart({ password: 'gus-password', newPassword: 'new-gus-password' }), { token: s.jwt });
      expect(right.status).toBe(429);
      expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await db.identityById(s.identityId)).password).toBe(stored);
      // the same counter as sign-in: guessing here does not reset or avoid it
      expect((await t.anon('POST', ROUTES.login, { data: { login: 'gus@example.com', password: 'gus-password' } })).status).toBe(429);
    });

    it('finding 5: 10 wrong guesses on the identity update (and then adding a login) get 429; nothing changes', async () => {
      const s = await t.register('hal@example.com', 'hal-password');
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++) {
        statuses.push((await t.as(s.jwt)('PATCH', identityPath(s.id, s.identityId), { data: { email: 'hal-new@example.com', password: `wrong-guess-${i}` } })).status);
      }
      expect(statuses).toEqual([400, 400, 400, 400, 400, 429, 429, 429, 429, 429]);
      expect((await t.as(s.jwt)('PATCH', identityPath(s.id, s.identityId), { data: { email: 'hal-new@example.com', password: 'hal-password' } })).status).toBe(429);
      expect((await t.as(s.jwt)('POST', ADD_EMAIL, { data: { email: 'hal-2@example.com', password: 'password123', currentPassword: 'hal-password' } })).status).toBe(429);
      expect((await db.identityById(s.identityId)).email).toBe('hal@example.com');
      expect(await db.identity('hal-new@example.com')).toBeUndefined();
      expect(await db.identity('hal-2@example.com')).toBeUndefined();
    });
  });

  describe(`finding 10: forgot-password timing on ${d.name}`, () => {
    let t: AccountsApp;
    let smtp: Smtp;
    let db: ReturnType<typeof rows>;
    const jobs: (() => Promise<unknown>)[] = [];
    beforeAll(async () => {
      smtp = await startSmtp();
      // the work deferred past the answer is kept here, to be run when the test says
      t = (await bootAccounts(await d.make(), { env: { SMTP_URL: smtp.url }, rbac: { later: (job) => void jobs.push(job) } })) as AccountsApp;
      db = rows(t);
    });
    afterAll(async () => {
      await t?.close();
      await smtp?.close();
    });
    const resetRows = async (email: string) =>
      (await t.call('GET', `/api/notification/notifications?filters[and][0][column]=recipient&filters[and][0][method]=eq&filters[and][0][value]=${email}&filters[and][1][column]=title&filters[and][1][method]=eq&filters[and][1][value]=Reset%20your%20password`)).body.data as unknown[];

    it('finding 10: forgot-password answers before it looks up, writes or mails anything, the same way for a missing and an existing account', async () => {
      const s = await t.register('kim@example.com');
      for (const job of jobs.splice(0)) await job(); // registration's verification mail
      const existing = await t.anon('POST', ROUTES.forgot, { data: { email: 'kim@example.com' } });
      // answered, and nothing done yet: one job waits, the identity holds no code, no mail row exists
      expect(jobs).toHaveLength(1);
      expect((await db.identityById(s.identityId)).code).toBeNull();
      expect(await resetRows('kim@example.com')).toHaveLength(0);
      const missing = await t.anon('POST', ROUTES.forgot, { data: { email: 'nobody-10@example.com' } });
      expect(jobs).toHaveLength(2);
      expect(missing.status).toBe(existing.status);
      expect(missing.body).toEqual(existing.body);
      expect(existing.body).toEqual({ data: { message: 'Reset link sent' } });

      // the work, after both answers: the existing account gets its code and its mail, the missing one nothing
      for (const job of jobs.splice(0)) await job();
      expect((await db.identityById(s.identityId)).code).toEqual(expect.any(String));
      expect(await resetRows('kim@example.com')).toHaveLength(1);
      expect(resetCodeIn((await mailMatching(smtp, 'kim@example.com', RESET)).raw)).toBeTruthy();
      expect(await resetRows('nobody-10@example.com')).toHaveLength(0);
      expect(smtp.mails.some((m) => m.to.includes('nobody-10@example.com'))).toBe(false);
    });
  });
}
