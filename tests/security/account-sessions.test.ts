import { describe, it, expect, beforeAll, afterAll, vi } from 'vitest';
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { DIALECTS } from '../helpers/databases.js';
import { GENEROUS, ROUTES, bootAccounts, type AccountsApp } from '../helpers/accounts.js';
import { readSse } from '../helpers/sse.js';
import { createBroadcastPlugin } from '../../plugins/broadcast/server/index.js';
import { closeRateLimitStore } from '../../plugins/rbac/server/rate-limit.js';
import { BOT_TOKEN, siwe, telegramPayload } from '../rbac/support.js';

/**
 * Sessions end with what made them (F02: a removed login; F14: an open event stream), an address is proven only as it
 * was mailed (F07), guessing locks nobody out (F09), rate-limit keys hold no address (F15), and a signed Telegram
 * payload works once and briefly (F11). Rows and sessions are asserted, not only statuses.
 */
const ADMINS = 'chief@example.com';


for (const d of DIALECTS) {
  describe(`sessions and logins on ${d.name}`, () => {
    let t: AccountsApp;
    beforeAll(async () => {
      t = (await bootAccounts(await d.make(), {
        env: { TELEGRAM_BOT_TOKEN: BOT_TOKEN, ADMIN_EMAILS: ADMINS },
        rbac: { limits: GENEROUS },
        plugins: [createBroadcastPlugin({ perAddress: 1000 })],
      })) as AccountsApp;
    });
    afterAll(async () => t?.close());

    const session = async (id: string) => {
      const s = t.database.tables['rbac/session'];
      return (await t.database.db.select().from(s).where(eq(s.id, id)))[0] as Record<string, any>;
    };
    const identity = async (id: string) => {
      const i = t.database.tables['rbac/identity'];
      return (await t.database.db.select().from(i).where(eq(i.id, id)))[0] as Record<string, any>;
    };
    const sessionId = (refresh: string) => refresh.split('.')[0]!;
    const nonce = async () => (await t.anon('GET', `${ROUTES.init.replace(/init$/, '')}ethereum-virtual-machine/nonce`)).body.data.nonce as string;
    const walletSignIn = async (wallet: ReturnType<typeof privateKeyToAccount>, token?: string, extra: Record<string, unknown> = {}) => {
      const message = siwe(wallet.address, await nonce());
      const body = { data: { message, signature: await wallet.signMessage({ message }), address: wallet.address, ...extra } };
      return token ? t.as(token)('POST', ROUTES.wallet, body) : t.anon('POST', ROUTES.wallet, body);
    };

    it('F02: removing a login ends the sessions it started, access and refresh alike; the others go on', async () => {
      const s = await t.registerVerified('remover@example.com');
      const wallet = privateKeyToAccount(generatePrivateKey());
      expect((await walletSignIn(wallet, s.jwt, { currentPassword: 'password123' })).status).toBe(200);
      const byWallet = await walletSignIn(wallet);
      expect((await t.as(byWallet.body.data.jwt)('GET', ROUTES.me)).body.data.id).toBe(s.id);
      expect((await session(sessionId(byWallet.body.data.refresh))).identityId).toBeTruthy();
      const walletId = (await t.as(s.jwt)('GET', ROUTES.me)).body.data.identities.find((i: { provider: string }) => i.provider === 'ethereum_virtual_machine').id;

      const removed = await t.as(s.jwt)('DELETE', `/api/rbac/subjects/${s.id}/identities/${walletId}`, { data: { currentPassword: 'password123' } });
      expect(removed.status).toBe(200);
      const ended = await session(sessionId(byWallet.body.data.refresh));
      expect(ended).toMatchObject({ revokedReason: 'login-removed' });
      expect(ended.revokedAt).not.toBeNull();
      expect((await t.as(byWallet.body.data.jwt)('GET', ROUTES.me)).body.data).toBeNull();
      expect((await t.anon('POST', ROUTES.refresh, { data: { refresh: byWallet.body.data.refresh } })).status).toBe(401);
      // the email login's own session was not started by the wallet: it goes on
      expect((await session(sessionId(s.refresh))).revokedAt).toBeNull();
      expect((await t.as(s.jwt)('GET', ROUTES.me)).body.data.id).toBe(s.id);

      // an admin removing a login through the generic API: the same, since the rule sits on the write itself
      const telegram = telegramPayload({ id: 7001, first_name: 'Linking', auth_date: Math.floor(Date.now() / 1000) });
      expect((await t.as(s.jwt)('POST', ROUTES.telegram, { data: { ...telegram, currentPassword: 'password123' } })).status).toBe(200);
      const byTelegram = await t.anon('POST', ROUTES.telegram, { data: telegramPayload({ id: 7001, first_name: 'Signing in', auth_date: Math.floor(Date.now() / 1000) }) });
      expect((await t.as(byTelegram.body.data.jwt)('GET', ROUTES.me)).body.data.id).toBe(s.id);
      const tgId = (await t.as(s.jwt)('GET', ROUTES.me)).body.data.identities.find((i: { provider: string }) => i.provider === 'telegram').id;
      expect((await t.call('DELETE', `/api/rbac/identities/${tgId}`)).status).toBe(200);
      expect((await session(sessionId(byTelegram.body.data.refresh))).revokedReason).toBe('login-removed');
      expect((await t.anon('POST', ROUTES.refresh, { data: { refresh: byTelegram.body.data.refresh } })).status).toBe(401);
    });

    it('F07: an address changed by any path is unproven again: a verified member renaming itself to an ADMIN_EMAILS address gains nothing', async () => {
      const m = await t.registerVerified('renamer@example.com');
      // members granted PATCH on identities (owner scoping keeps it to their own)
      const member = (await t.call('GET', '/api/rbac/roles?filters[and][0][column]=slug&filters[and][0][method]=eq&filters[and][0][value]=member')).body.data[0];
      const perm = (await t.call('POST', '/api/rbac/permissions', { data: { method: 'PATCH', route: '/api/rbac/identities/*' } })).body.data;
      await t.call('POST', '/api/rbac/roles-to-permissions', { data: { roleId: member.id, permissionId: perm.id } });
      expect((await identity(m.identityId)).emailVerifiedAt).not.toBeNull();
      // the reset code of the old address is void with it
      await t.anon('POST', ROUTES.forgot, { data: { email: 'renamer@example.com' } });
      await vi.waitFor(async () => expect((await identity(m.identityId)).code).toBeTruthy(), { timeout: 10_000, interval: 20 });

      const renamed = await t.as(m.jwt)('PATCH', `/api/rbac/identities/${m.identityId}`, { data: { email: 'Chief@Example.com' } });
      expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
      const row = await identity(m.identityId);
      expect(row).toMatchObject({ email: 'chief@example.com', account: 'chief@example.com', emailVerifiedAt: null, code: null, codeExpiresAt: null });
      expect((await t.as(m.jwt)('GET', ROUTES.me)).body.data.isAdmin).toBe(false);
      expect((await t.as(m.jwt)('POST', '/api/ecommerce/products', { data: { slug: 'by-renamer' } })).status).toBe(403);
      // nor can the member prove it by writing the date itself
      expect((await t.as(m.jwt)('PATCH', `/api/rbac/identities/${m.identityId}`, { data: { emailVerifiedAt: new Date().toISOString() } })).status).toBe(403);
      // changing the account alone moves the address with it, unproven as well
      const back = await t.call('PATCH', `/api/rbac/identities/${m.identityId}`, { data: { emailVerifiedAt: new Date().toISOString() } });
      expect(back.status).toBe(200);
      await t.as(m.jwt)('PATCH', `/api/rbac/identities/${m.identityId}`, { data: { account: 'renamer2@example.com' } });
      expect(await identity(m.identityId)).toMatchObject({ email: 'renamer2@example.com', account: 'renamer2@example.com', emailVerifiedAt: null });
    });

    it('F11: a signed Telegram payload signs in once, and only while fresh; its hash is kept, not the payload', async () => {
      const now = Math.floor(Date.now() / 1000);
      const payload = telegramPayload({ id: 8080, first_name: 'Once', auth_date: now });
      const first = await t.anon('POST', ROUTES.telegram, { data: payload });
      expect(first.status).toBe(200);
      const replay = await t.anon('POST', ROUTES.telegram, { data: payload });
      expect(replay.body).toMatchObject({ status: 401, message: 'Not authorized: this Telegram login was already used' });
      expect(replay.headers.get('set-cookie')).toBeNull();
      // eleven minutes old: too old, though signed
      const stale = await t.anon('POST', ROUTES.telegram, { data: telegramPayload({ id: 8080, auth_date: now - 11 * 60 }) });
      expect(stale.body).toMatchObject({ status: 401, message: 'Not authorized: the Telegram login is too old' });
      const nonces = t.database.tables['rbac/nonce'];
      const stored: { value: string }[] = await t.database.db.select({ value: nonces.value }).from(nonces);
      expect(stored.map((n) => n.value).join()).not.toContain(payload.hash);
      // a refused proof (linking without the password) does not use the payload up
      const s = await t.registerVerified('tg-linker@example.com');
      const linkPayload = telegramPayload({ id: 8181, auth_date: now });
      expect((await t.as(s.jwt)('POST', ROUTES.telegram, { data: linkPayload })).status).toBe(400);
      expect((await t.as(s.jwt)('POST', ROUTES.telegram, { data: { ...linkPayload, currentPassword: 'password123' } })).status).toBe(200);
    });

    it('F14: an open event stream ends when its session does (logout, a password change elsewhere), and reconnects as who the browser now is', async () => {
      const s = await t.registerVerified('streamer@example.com');
      const open = async (jwt: string) => {
        const res = await t.app.request('/api/broadcast/events', { headers: { authorization: `Bearer ${jwt}` } });
        const stream = readSse(res);
        await stream.waitFor((e) => e.event === 'ready');
        return stream;
      };
      const stream = await open(s.jwt);
      expect(stream.events[0]!.data).toEqual({ caller: 'subject' });
      expect((await t.as(s.jwt)('POST', ROUTES.logout, { data: {} })).status).toBe(200);
      await vi.waitFor(() => expect(stream.ended).toBe(true), { timeout: 20_000, interval: 20 });
      const again = await open(s.jwt);
      expect(again.events[0]!.data).toEqual({ caller: 'anonymous' });
      await again.close();

      // a session ended by another's act: the password changed on another device
      const other = await t.anon('POST', ROUTES.login, { data: { login: 'streamer@example.com', password: 'password123' } });
      const third = await t.anon('POST', ROUTES.login, { data: { login: 'streamer@example.com', password: 'password123' } });
      const watched = await open(other.body.data.jwt);
      const changed = await t.as(third.body.data.jwt)('PATCH', `/api/rbac/identities/${s.identityId}/change-password`, { data: { password: 'password123', newPassword: 'password456' } });
      expect(changed.status).toBe(200);
      await vi.waitFor(() => expect(watched.ended).toBe(true), { timeout: 20_000, interval: 20 });
    });
  });
}

/** F09 and F15: the limits of sign-in, in memory and in Redis */
for (const store of ['memory', ...(process.env.REDIS_URL || process.env.CI ? ['redis'] : [])]) {
  describe(`sign-in limits (${store})`, () => {
    const apps: AccountsApp[] = [];
    afterAll(async () => {
      for (const a of apps) await a.close();
      await closeRateLimitStore();
    });
    const prefix = `f09-${randomBytes(6).toString('hex')}`;
    const waits: number[] = [];
    const boot = async () => {
      const env: Record<string, string> = { TRUST_PROXY: 'true', ...(store === 'redis' && { REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', REDIS_PREFIX: `${prefix}:` }) };
      const limits = { perAddress: { points: 1000, duration: 60 }, perAccount: { points: 5, duration: 60 }, slowDown: { free: 8, duration: 60, stepMs: 100, maxDelayMs: 400 } };
      const t = (await bootAccounts((await DIALECTS[0]!.make()), { env, rbac: { limits, keyPrefix: prefix, sleep: async (ms: number) => void waits.push(ms) } })) as AccountsApp;
      apps.push(t);
      return t;
    };
    const from = (ip: string) => ({ 'x-forwarded-for': ip });

    it('F09: wrong passwords from one address stop that address, not the owner elsewhere; the account as a whole is slowed, never locked', async () => {
      const t = await boot();
      const owner = await t.register('lockout@example.com', 'owner-password');
      const login = (password: string, ip: string) => t.anon('POST', ROUTES.login, { data: { login: 'lockout@example.com', password } }, from(ip));
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await login(`guess-${i}-wrong`, '203.0.113.7')).status);
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
      // the right password from that address waits too: the stop comes before the check
      expect((await login('owner-password', '203.0.113.7')).status).toBe(429);
      // the owner, elsewhere, signs in at once: a session is made
      const ok = await login('owner-password', '198.51.100.20');
      expect(ok.status).toBe(200);
      const sessions = t.database.tables['rbac/session'];
      const live = await t.database.db.select().from(sessions).where(eq(sessions.subjectId, owner.id));
      expect(live.filter((s: Record<string, unknown>) => s.revokedAt === null)).toHaveLength(2);
      expect(waits).toEqual([]);
      // guesses spread over many addresses: each is answered, ever slower, and the owner still gets in
      for (let i = 0; i < 6; i++) expect((await login(`spread-${i}-wrong`, `192.0.2.${i + 1}`)).status).toBe(401);
      expect(waits.length).toBeGreaterThan(0);
      expect(waits).toEqual([...waits].sort((a, b) => a - b));
      expect(Math.max(...waits)).toBeLessThanOrEqual(400);
      expect((await login('owner-password', '198.51.100.21')).status).toBe(200);
    });

    if (store === 'redis') {
      it("F15: no Redis key holds the account's email (an HMAC of it), and the counts still meet across instances", async () => {
        const a = await boot();
        const b = await boot();
        for (let i = 0; i < 3; i++) await a.anon('POST', ROUTES.login, { data: { login: 'Private.Person@example.com', password: `wrong-${i}-pass` } }, from('203.0.113.50'));
        for (let i = 0; i < 2; i++) await b.anon('POST', ROUTES.login, { data: { login: 'private.person@example.com', password: `wrong-${i}-pass` } }, from('203.0.113.50'));
        // the sixth from that address on either instance is stopped: one count
        expect((await a.anon('POST', ROUTES.login, { data: { login: 'private.person@example.com', password: 'wrong-x-pass' } }, from('203.0.113.50'))).status).toBe(429);
        const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
        try {
          const keys = await redis.keys(`${prefix}:*`);
          expect(keys.length).toBeGreaterThan(0);
          expect(keys.join('\n')).not.toMatch(/private|person|example\.com|@/i);
        } finally {
          redis.disconnect();
        }
      });
    }
  });
}
