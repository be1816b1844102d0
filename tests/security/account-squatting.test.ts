import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { ROOT } from '../../engine/codegen.js';
import { DIALECTS } from '../helpers/databases.js';
import { bootAccounts, ROUTES, type AccountsApp } from '../helpers/accounts.js';
import { resetCodeIn, startSmtp } from '../helpers/smtp.js';
import { BOT_TOKEN, RESET, VERIFY_ROUTE, mailMatching, siwe, telegramPayload, textOf, verificationCode, type Smtp } from '../rbac/support.js';

/**
 * F01 (high): an address registered by someone who does not hold it (a squatter) is a claim, not an account. The
 * squatter adds no login to it; the owner's first proof of the address (a reset with the mailed code) removes every
 * other login and ends every session; a verification code verifies only with the account's own proof beside it; and
 * `npm run admin:create` hands a squatted address over bare. F10: registration answers a taken address as a new one.
 * Each test asserts the rows (identities, links, sessions), not only statuses.
 */
const ADMINS = 'root@example.com,root2@example.com';


for (const d of DIALECTS) {
  describe(`squatted addresses on ${d.name}`, () => {
    let t: AccountsApp;
    let smtp: Smtp;
    let dbUrl: string;
    beforeAll(async () => {
      smtp = await startSmtp();
      const db = await d.make();
      dbUrl = db.url;
      t = (await bootAccounts(db, { env: { SMTP_URL: smtp.url, ADMIN_EMAILS: ADMINS, PUBLIC_URL: 'http://localhost:4000', TELEGRAM_BOT_TOKEN: BOT_TOKEN } })) as AccountsApp;
    });
    afterAll(async () => {
      await t?.close();
      await smtp?.close();
    });

    const tables = () => t.database.tables;
    const db = () => t.database.db;
    /** the subject's logins, read from the database */
    const loginsOf = async (subjectId: string) => {
      const [link, identity] = [tables()['rbac/subjects-to-identities'], tables()['rbac/identity']];
      const ids: { id: string }[] = await db().select({ id: link.identityId }).from(link).where(eq(link.subjectId, subjectId));
      return ids.length ? ((await db().select().from(identity).where(inArray(identity.id, ids.map((i) => i.id)))) as Record<string, any>[]) : [];
    };
    const sessionsOf = async (subjectId: string) => {
      const s = tables()['rbac/session'];
      return (await db().select().from(s).where(eq(s.subjectId, subjectId))) as Record<string, any>[];
    };
    const identityByAccount = async (account: string) => {
      const i = tables()['rbac/identity'];
      return (await db().select().from(i).where(eq(i.account, account)))[0] as Record<string, any> | undefined;
    };
    const nonce = async () => (await t.anon('GET', `${ROUTES.init.replace(/init$/, '')}ethereum-virtual-machine/nonce`)).body.data.nonce as string;
    const walletSignIn = async (wallet: ReturnType<typeof privateKeyToAccount>, token?: string, extra: Record<string, unknown> = {}) => {
      const message = siwe(wallet.address, await nonce());
      const body = { data: { message, signature: await wallet.signMessage({ message }), address: wallet.address, ...extra } };
      return token ? t.as(token)('POST', ROUTES.wallet, body) : t.anon('POST', ROUTES.wallet, body);
    };
    /** forgot-password and reset, as the holder of the mailbox does */
    const resetAs = async (email: string, password: string, n = 1) => {
      expect((await t.anon('POST', ROUTES.forgot, { data: { email } })).status).toBe(200);
      const code = resetCodeIn((await mailMatching(smtp, email, RESET, n)).raw);
      const r = await t.anon('POST', ROUTES.reset, { data: { code, password, passwordConfirmation: password } });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    };

    it('F01: an account whose only address was never proven adds no login of any kind, and nothing is written', async () => {
      const squatter = await t.register('victim@example.com', 'squatter-pass');
      const before = await loginsOf(squatter.id);
      const email = await t.as(squatter.jwt)('POST', `/api/rbac/subjects/${squatter.id}/identities`, { data: { email: 'squatter@example.com', password: 'squatter-pass', currentPassword: 'squatter-pass' } });
      expect(email).toMatchObject({ status: 403, body: { cause: [{ field: 'email', rule: 'verified' }] } });
      expect(email.body.message).toMatch(/^Verify your email address before adding another sign-in method/);
      const wallet = privateKeyToAccount(generatePrivateKey());
      const linked = await walletSignIn(wallet, squatter.jwt, { currentPassword: 'squatter-pass' });
      expect(linked.status).toBe(403);
      const message = siwe(wallet.address, await nonce());
      const viaIdentities = await t.as(squatter.jwt)('POST', `/api/rbac/subjects/${squatter.id}/identities`, { data: { message, signature: await wallet.signMessage({ message }), address: wallet.address, currentPassword: 'squatter-pass' } });
      expect(viaIdentities.status).toBe(403);
      // Telegram, signed in: the same rule, in the same write path
      const telegram = await t.as(squatter.jwt)('POST', ROUTES.telegram, { data: { ...telegramPayload({ id: 9191, auth_date: Math.floor(Date.now() / 1000) }), currentPassword: 'squatter-pass' } });
      expect(telegram.status).toBe(403);
      expect(await identityByAccount('9191')).toBeUndefined();
      expect((await loginsOf(squatter.id)).map((i) => i.id)).toEqual(before.map((i) => i.id));
      expect(await identityByAccount('squatter@example.com')).toBeUndefined();
      expect(await identityByAccount(wallet.address)).toBeUndefined();
      // once proven, the same account adds logins as before
      await t.verify(squatter, 'victim@example.com');
      expect((await t.as(squatter.jwt)('POST', `/api/rbac/subjects/${squatter.id}/identities`, { data: { email: 'second@example.com', password: 'squatter-pass', currentPassword: 'squatter-pass' } })).status).toBe(201);
    });

    it("F01: the owner's first proof of a squatted address (a reset) removes the squatter's own logins and ends every session", async () => {
      // a wallet account adds the victim's address (allowed: it has no address yet), then tries a second login
      const wallet = privateKeyToAccount(generatePrivateKey());
      const signedIn = await walletSignIn(wallet);
      expect(signedIn.status).toBe(200);
      const squatter = (await t.as(signedIn.body.data.jwt)('GET', ROUTES.me)).body.data;
      const claimed = await t.as(signedIn.body.data.jwt)('POST', `/api/rbac/subjects/${squatter.id}/identities`, { data: { email: 'owner@example.com', password: 'squatter-pass' } });
      expect(claimed.status).toBe(201);
      const another = privateKeyToAccount(generatePrivateKey());
      expect((await walletSignIn(another, signedIn.body.data.jwt, { currentPassword: 'squatter-pass' })).status).toBe(403);
      // a second session of the squatter, by the claimed address
      const bySquattedAddress = await t.anon('POST', ROUTES.login, { data: { login: 'owner@example.com', password: 'squatter-pass' } });
      expect(bySquattedAddress.status).toBe(200);

      // the owner: registration answers as for a new address (F10), and the mail says where to reset
      const registered = await t.anon('POST', ROUTES.register, { data: { login: 'owner@example.com', password: 'owner-pass-1' } });
      expect(registered.status).toBe(201);
      expect((await t.as(registered.body.data.jwt)('GET', ROUTES.me)).body.data).toMatchObject({ isAnonymous: true, identities: [] });
      expect(textOf(await mailMatching(smtp, 'owner@example.com', /already has one/))).toContain('/forgot-password');
      await resetAs('owner@example.com', 'owner-pass-1');

      // rows: the address is proven; the wallet is no login of the account any more, and was deleted (no other holder)
      const logins = await loginsOf(squatter.id);
      expect(logins.map((i) => i.account)).toEqual(['owner@example.com']);
      expect(logins[0]!.emailVerifiedAt).not.toBeNull();
      expect(await identityByAccount(wallet.address)).toBeUndefined();
      // every session ended, each with its reason
      const sessions = await sessionsOf(squatter.id);
      expect(sessions.length).toBeGreaterThanOrEqual(2);
      expect(sessions.filter((s) => s.revokedAt === null)).toEqual([]);
      expect(new Set(sessions.map((s) => s.revokedReason))).toEqual(new Set(['login-removed', 'address-proven']));
      // the squatter's tokens: no access, no refresh
      for (const jwt of [signedIn.body.data.jwt, bySquattedAddress.body.data.jwt]) expect((await t.as(jwt)('GET', ROUTES.me)).body.data).toBeNull();
      for (const refresh of [signedIn.body.data.refresh, bySquattedAddress.body.data.refresh]) expect((await t.anon('POST', ROUTES.refresh, { data: { refresh } })).status).toBe(401);
      // the squatter's password is gone; its wallet now signs in to an account of its own, not the owner's
      expect((await t.anon('POST', ROUTES.login, { data: { login: 'owner@example.com', password: 'squatter-pass' } })).status).toBe(401);
      const again = await walletSignIn(wallet);
      expect((await t.as(again.body.data.jwt)('GET', ROUTES.me)).body.data.id).not.toBe(squatter.id);
      // the owner signs in, and is told what was removed
      expect((await t.anon('POST', ROUTES.login, { data: { login: 'owner@example.com', password: 'owner-pass-1' } })).status).toBe(200);
      expect(textOf(await mailMatching(smtp, 'owner@example.com', /other sign-in methods were removed/))).toContain(`the wallet ${wallet.address}`);
    });

    it('F01: a verification code verifies only with the account\'s proof: its session, or its password; a mail scanner\'s request does nothing', async () => {
      const owner = await t.register('reader@example.com', 'reader-pass');
      const code = await verificationCode(smtp, 'reader@example.com');
      const identity = async () => (await identityByAccount('reader@example.com'))!;
      // a link scanner posts what the link holds; a stranger signed in as someone else has no better standing
      expect((await t.anon('POST', VERIFY_ROUTE, { data: { code } })).body.cause).toEqual([expect.objectContaining({ field: 'password', rule: 'required' })]);
      const stranger = await t.register('stranger@example.com');
      expect((await t.as(stranger.jwt)('POST', VERIFY_ROUTE, { data: { code } })).status).toBe(400);
      expect((await t.anon('POST', VERIFY_ROUTE, { data: { code, password: 'password123' } })).body.cause).toEqual([expect.objectContaining({ field: 'password', rule: 'match' })]);
      expect((await identity()).emailVerifiedAt).toBeNull();
      // signed in as the account, the code alone is enough; its sessions stay (the holder proved both)
      const ok = await t.as(owner.jwt)('POST', VERIFY_ROUTE, { data: { code } });
      expect(ok.body).toEqual({ data: { message: 'Email verified', email: 'reader@example.com' } });
      expect((await identity()).emailVerifiedAt).not.toBeNull();
      expect((await sessionsOf(owner.id)).filter((s) => s.revokedAt === null)).toHaveLength(1);
    });

    it('F01: npm run admin:create on a squatted address hands it over bare: other logins removed, sessions ended, then admin', async () => {
      const squatter = await t.register('root@example.com', 'squatter-pass');
      // the squatter's second way in, linked by the system before the rule (as an old database may hold)
      const loose = (await t.call('POST', '/api/rbac/identities', { data: { provider: 'telegram', account: 'tg-root-squat' } })).body.data;
      const link = tables()['rbac/subjects-to-identities'];
      await t.database.transaction((tx) => tx.insert(link).values({ id: crypto.randomUUID(), subjectId: squatter.id, identityId: loose.id, createdAt: new Date(), updatedAt: new Date() }));
      expect(await loginsOf(squatter.id)).toHaveLength(2);
      const out = execFileSync(join(ROOT, 'node_modules/.bin/tsx'), ['scripts/admin-create.ts', '--email', 'root@example.com', '--password', 'operator-pass'], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: dbUrl, LOG_LEVEL: 'silent', RBAC_JWT_SECRET: t.config.rbacJwtSecret, RBAC_SECRET_KEY: t.config.rbacSecretKey },
        encoding: 'utf8',
        stdio: 'pipe',
        timeout: 120_000,
      });
      expect(out).toContain('Updated admin root@example.com');
      expect(out).toContain('other sign-in methods were removed: telegram tg-root-squat');
      const logins = await loginsOf(squatter.id);
      expect(logins.map((i) => i.account)).toEqual(['root@example.com']);
      expect(logins[0]!.emailVerifiedAt).not.toBeNull();
      expect((await sessionsOf(squatter.id)).filter((s) => s.revokedAt === null)).toEqual([]);
      expect((await t.as(squatter.jwt)('GET', ROUTES.me)).body.data).toBeNull();
      expect((await t.anon('POST', ROUTES.login, { data: { login: 'root@example.com', password: 'squatter-pass' } })).status).toBe(401);
      const operator = await t.anon('POST', ROUTES.login, { data: { login: 'root@example.com', password: 'operator-pass' } });
      expect((await t.as(operator.body.data.jwt)('GET', ROUTES.me)).body.data.isAdmin).toBe(true);
    });

    it('F10: registering a taken address answers as a new one, changes nothing of the account, and mails its owner', async () => {
      const owner = await t.registerVerified('known@example.com', 'known-pass-1');
      const i = async () => (await identityByAccount('known@example.com'))!;
      const stored = await i();
      const known = await t.anon('POST', ROUTES.register, { data: { login: 'Known@Example.com', password: 'attacker-pass' } });
      const unknown = await t.anon('POST', ROUTES.register, { data: { login: 'unknown-f10@example.com', password: 'attacker-pass' } });
      expect(known.status).toBe(unknown.status);
      expect(Object.keys(known.body)).toEqual(Object.keys(unknown.body));
      expect(Object.keys(known.body.data).sort()).toEqual(Object.keys(unknown.body.data).sort());
      expect(known.headers.get('set-cookie')?.split('=')[0]).toBe(unknown.headers.get('set-cookie')?.split('=')[0]);
      const after = await i();
      expect([after.password, after.salt, after.emailVerifiedAt?.valueOf()]).toEqual([stored.password, stored.salt, stored.emailVerifiedAt?.valueOf()]);
      expect((await loginsOf(owner.id)).map((l) => l.id)).toEqual([stored.id]);
      expect((await sessionsOf(owner.id)).filter((s) => s.revokedAt === null)).toHaveLength(1);
      // no answer in the whole exchange says the address is taken
      expect(JSON.stringify(known.body)).not.toMatch(/exist|taken|already/i);
      await mailMatching(smtp, 'known@example.com', /already has one/);
    });
  });
}
