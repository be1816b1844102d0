import { describe, it, expect, beforeAll, afterAll, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { DIALECTS } from '../helpers/databases.js';
import { bootAccounts, ROUTES, type AccountsApp } from '../helpers/accounts.js';
import { resetCodeIn, startSmtp } from '../helpers/smtp.js';
import { RESET, mailMatching } from './support.js';

for (const d of DIALECTS) {
  describe(`forgot and reset password on ${d.name}, mail through a real SMTP server`, () => {
    let t: AccountsApp;
    let smtp: Awaited<ReturnType<typeof startSmtp>>;
    beforeAll(async () => {
      smtp = await startSmtp();
      t = (await bootAccounts(await d.make(), { env: { SMTP_URL: smtp.url, MAIL_FROM: 'shop@example.com', PUBLIC_URL: 'https://shop.example.com' } })) as AccountsApp;
    });
    afterAll(async () => {
      await t?.close();
      await smtp?.close();
    });

    it('a missing account gets exactly the answer an existing one gets, and no mail', async () => {
      await t.register('olga@example.com', 'old-password');
      const existing = await t.anon('POST', ROUTES.forgot, { data: { email: 'olga@example.com' } });
      const missing = await t.anon('POST', ROUTES.forgot, { data: { email: 'nobody-here@example.com' } });
      expect(existing.status).toBe(200);
      expect(missing.status).toBe(existing.status);
      expect(missing.body).toEqual(existing.body);
      expect(existing.body).toEqual({ data: { message: 'Reset link sent' } });
      expect([...existing.headers.keys()].sort()).toEqual([...missing.headers.keys()].sort());
      await mailMatching(smtp, 'olga@example.com', RESET);
      await new Promise((r) => setTimeout(r, 200));
      expect(smtp.mails.some((m) => m.to.includes('nobody-here@example.com'))).toBe(false);
    });

    it('the code from the email resets the password once, ends every session, and is not stored in clear', async () => {
      const s = await t.register('paul@example.com', 'old-password');
      expect((await t.anon('POST', ROUTES.forgot, { data: { email: 'PAUL@example.com' } })).status).toBe(200);
      const mail = await mailMatching(smtp, 'paul@example.com', RESET);
      expect(mail.from).toBe('shop@example.com');
      expect(mail.raw.replace(/=\r?\n/g, '')).toContain('https://shop.example.com/rbac/subject/authentication/email-and-password/reset-password?code=');
      const code = resetCodeIn(mail.raw);
      // neither the identity nor the notification row keeps the code itself
      const identities = t.database.tables['rbac/identity'];
      const [stored] = await t.database.db.select().from(identities).where(eq(identities.email, 'paul@example.com'));
      expect(stored.code).toBeTruthy();
      expect(stored.code).not.toBe(code);
      const notifications = await vi.waitFor(async () => {
        const r = await t.call('GET', '/api/notification/notifications?filters[and][0][column]=recipient&filters[and][0][method]=eq&filters[and][0][value]=paul@example.com&filters[and][1][column]=title&filters[and][1][method]=eq&filters[and][1][value]=Reset%20your%20password');
        expect(r.body.data).toHaveLength(1);
        expect(r.body.data[0].status).toBe('sent');
        return r;
      });
      expect(JSON.stringify(notifications.body)).not.toContain(code);

      const mismatch = await t.anon('POST', ROUTES.reset, { data: { code, password: 'new-password', passwordConfirmation: 'other-password' } });
      expect(mismatch.status).toBe(400);
      expect(mismatch.body.cause[0].field).toBe('passwordConfirmation');
      const ok = await t.anon('POST', ROUTES.reset, { data: { code, password: 'new-password', passwordConfirmation: 'new-password' } });
      expect(ok.status).toBe(200);
      expect((await t.as(s.jwt)('GET', ROUTES.me)).body.data).toBeNull();
      expect((await t.anon('POST', ROUTES.refresh, { data: { refresh: s.refresh } })).status).toBe(401);
      expect((await t.anon('POST', ROUTES.login, { data: { login: 'paul@example.com', password: 'old-password' } })).status).toBe(401);
      expect((await t.anon('POST', ROUTES.login, { data: { login: 'paul@example.com', password: 'new-password' } })).status).toBe(200);
      const again = await t.anon('POST', ROUTES.reset, { data: { code, password: 'third-password', passwordConfirmation: 'third-password' } });
      expect(again.status).toBe(400);
      expect(again.body.message).toBe('The reset code is invalid or has expired');
    });

    it('POST /{id}/notify: an admin emails a subject; the subject itself or another may not', async () => {
      const s = await t.register('vera@example.com');
      const other = await t.register('walt@example.com');
      const body = { data: { title: 'Your order shipped', text: 'It is on its way.' } };
      expect((await t.as(other.jwt)('POST', `/api/rbac/subjects/${s.id}/notify`, body)).status).toBe(403);
      expect((await t.as(s.jwt)('POST', `/api/rbac/subjects/${s.id}/notify`, body)).status).toBe(403);
      expect((await t.anon('POST', `/api/rbac/subjects/${s.id}/notify`, body)).status).toBe(401);
      expect(smtp.mails.some((m) => m.to.includes('vera@example.com') && m.raw.includes('It is on its way.'))).toBe(false);
      const sent = await t.call('POST', `/api/rbac/subjects/${s.id}/notify`, body);
      expect(sent.status).toBe(200);
      expect(sent.body.data).toEqual([{ id: expect.any(String), status: 'sent' }]);
      expect((await mailMatching(smtp, 'vera@example.com', /It is on its way\./)).raw).toContain('It is on its way.');
      expect((await t.call('POST', `/api/rbac/subjects/${s.id}/notify`, { data: { title: '' } })).status).toBe(400);
    });

    it('an expired code does not work', async () => {
      await t.register('quinn@example.com', 'old-password');
      await t.anon('POST', ROUTES.forgot, { data: { email: 'quinn@example.com' } });
      const code = resetCodeIn((await mailMatching(smtp, 'quinn@example.com', RESET)).raw);
      const identities = t.database.tables['rbac/identity'];
      await t.database.transaction((tx) => tx.update(identities).set({ codeExpiresAt: new Date(Date.now() - 1000) }).where(eq(identities.email, 'quinn@example.com')));
      const r = await t.anon('POST', ROUTES.reset, { data: { code, password: 'new-password', passwordConfirmation: 'new-password' } });
      expect(r.status).toBe(400);
      expect((await t.anon('POST', ROUTES.login, { data: { login: 'quinn@example.com', password: 'old-password' } })).status).toBe(200);
    });
  });
}

describe('without SMTP_URL', () => {
  it('the message is stored as a notification row, to be read by an admin', async () => {
    const { sqliteDatabase } = await import('../helpers/databases.js');
    const t = (await bootAccounts(sqliteDatabase())) as AccountsApp;
    try {
      await t.register('rita@example.com');
      await t.anon('POST', ROUTES.forgot, { data: { email: 'rita@example.com' } });
      const rows = await vi.waitFor(async () => {
        const all = (await t.call('GET', '/api/notification/notifications')).body.data as { title: string }[];
        expect(all).toHaveLength(2);
        return all;
      });
      // registration's verification email, then the reset email
      const reset = rows.filter((r) => r.title === 'Reset your password');
      expect(reset).toHaveLength(1);
      expect(reset[0]).toMatchObject({ status: 'new', recipient: 'rita@example.com', title: 'Reset your password' });
      expect((reset[0] as any).payload.text).toMatch(/Your reset code: [\w-]+/);
      expect(rows.filter((r) => r.title === 'Verify your email')).toEqual([expect.objectContaining({ status: 'new', recipient: 'rita@example.com' })]);
      expect((await t.anon('GET', '/api/notification/notifications')).status).toBe(401);
    } finally {
      await t.close();
    }
  });
});
