import { describe, it, expect, afterAll } from 'vitest';
import { randomBytes } from 'node:crypto';
import { sqliteDatabase } from '../helpers/databases.js';
import { bootAccounts, ROUTES, type AccountsApp } from '../helpers/accounts.js';
import { closeRateLimitStore } from '../../plugins/rbac/server/rate-limit.js';

const TIGHT = { perAddress: { points: 6, duration: 60 }, perAccount: { points: 3, duration: 60 } };

/**
 * Sign-in, registration, forgot-password and wallet sign-in are limited per client address and per
 * account — never by anything else in the body, so changing other fields does not reset a limit.
 */
for (const store of ['memory', ...(process.env.REDIS_URL || process.env.CI ? ['redis'] : [])]) {
  describe(`rate limits (${store})`, () => {
    const apps: AccountsApp[] = [];
    afterAll(async () => {
      for (const a of apps) await a.close();
      await closeRateLimitStore();
    });
    const boot = async () => {
      const env: Record<string, string> = { TRUST_PROXY: 'true', ...(store === 'redis' && { REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' }) };
      const t = (await bootAccounts(sqliteDatabase(), { env, rbac: { limits: TIGHT, keyPrefix: `test-${randomBytes(6).toString('hex')}` } })) as AccountsApp;
      apps.push(t);
      return t;
    };
    const from = (ip: string) => ({ 'x-forwarded-for': ip });

    it('per account: the 4th sign-in attempt on one account is a 429 with Retry-After, whatever else the body holds', async () => {
      const t = await boot();
      await t.register('victim@example.com');
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await t.anon('POST', ROUTES.login, { data: { login: 'victim@example.com', password: `guess-${i}-xx` } }, from(`10.0.0.${i}`))).status);
      expect(statuses).toEqual([401, 401, 401]);
      const limited = await t.anon('POST', ROUTES.login, { data: { login: 'VICTIM@example.com', password: 'password123' } }, from('10.0.0.9'));
      expect(limited.status).toBe(429);
      expect(limited.body.message).toMatch(/^Too many attempts: try again in \d+ seconds$/);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      // even the right password waits: the limit is checked before the password
      expect(limited.body).not.toHaveProperty('data');
    });

    it('per address: rotating accounts from one address is limited too', async () => {
      const t = await boot();
      const statuses = [];
      for (let i = 0; i < 7; i++) statuses.push((await t.anon('POST', ROUTES.forgot, { data: { email: `user${i}@example.com` } }, from('10.1.1.1'))).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429]);
      expect((await t.anon('POST', ROUTES.forgot, { data: { email: 'user0@example.com' } }, from('10.1.1.2'))).status).toBe(200);
    });

    it('registration and wallet sign-in are limited', async () => {
      const t = await boot();
      const reg = [];
      for (let i = 0; i < 7; i++) reg.push((await t.anon('POST', ROUTES.register, { data: { login: `new${i}@example.com`, password: 'password123' } }, from('10.2.2.2'))).status);
      expect(reg.slice(0, 6)).toEqual([201, 201, 201, 201, 201, 201]);
      expect(reg[6]).toBe(429);
      const wallet = [];
      for (let i = 0; i < 4; i++) wallet.push((await t.anon('POST', ROUTES.wallet, { data: { address: '0x000000000000000000000000000000000000dEaD', message: `attempt ${i} padding`, signature: '0x00' } }, from(`10.3.3.${i}`))).status);
      expect(wallet).toEqual([400, 400, 400, 429]);
    });

    it('behind a proxy that appends to X-Forwarded-For, the hops the client wrote itself do not rotate its address', async () => {
      // a standard proxy (nginx $proxy_add_x_forwarded_for, load balancers) keeps what the client sent and appends the
      // address it saw: only the last hop is the proxy's word, every earlier one is the client's to invent
      const t = await boot();
      const statuses = [];
      for (let i = 0; i < 7; i++) statuses.push((await t.anon('POST', ROUTES.forgot, { data: { email: `spoof${i}@example.com` } }, from(`198.51.100.${i}, 10.4.4.4`))).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429]);
      // another client behind the same proxy has its own budget
      expect((await t.anon('POST', ROUTES.forgot, { data: { email: 'spoof0@example.com' } }, from('198.51.100.0, 10.4.4.5'))).status).toBe(200);
    });

    it('an IPv6 client is one address across its /64: stepping through the addresses of its own network does not reset a limit', async () => {
      // an ISP or a cloud host hands each customer a /64 (2^64 addresses): counted one by one, any of them was a new client
      const t = await boot();
      const statuses = [];
      for (let i = 0; i < 7; i++) statuses.push((await t.anon('POST', ROUTES.forgot, { data: { email: `six${i}@example.com` } }, from(`2001:db8:1:2:${i.toString(16)}::${i + 1}`))).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429]);
      // the same network in another spelling, and an IPv4 address written as IPv4-mapped IPv6, are the same clients
      expect((await t.anon('POST', ROUTES.forgot, { data: { email: 'six0@example.com' } }, from('2001:0DB8:0001:0002:ffff:ffff:ffff:ffff'))).status).toBe(429);
      for (let i = 0; i < 6; i++) await t.anon('POST', ROUTES.forgot, { data: { email: `four${i}@example.com` } }, from('10.5.5.5'));
      expect((await t.anon('POST', ROUTES.forgot, { data: { email: 'four0@example.com' } }, from('::ffff:10.5.5.5'))).status).toBe(429);
      // another /64 has its own budget
      expect((await t.anon('POST', ROUTES.forgot, { data: { email: 'six0@example.com' } }, from('2001:db8:1:3::1'))).status).toBe(200);
    });
  });
}
