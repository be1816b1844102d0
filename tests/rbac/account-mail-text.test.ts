import { describe, it, expect, vi, beforeAll, afterAll } from 'vitest';
import { sqliteDatabase } from '../helpers/databases.js';
import { bootAccounts, ROUTES, type AccountsApp } from '../helpers/accounts.js';
import { renderTemplate } from '../../plugins/notification/server/index.js';

type Payload = { template: string; subject: string; text: string; body: string; secrets?: string[] };
const times = (text: string, phrase: RegExp) => text.match(new RegExp(phrase.source, 'gi'))?.length ?? 0;
const IGNORE = /ignore this email/;

/**
 * The account mails say once what to do if they were not asked for (the sender's text and the template's footer
 * said it twice), and the notification row lists each secret once (the code and its url-encoded form are the same
 * text: it was listed twice). Read from the stored rows, before delivery (no SMTP_URL: the outbox).
 */
describe('password reset and verification mails: said once, each secret listed once', () => {
  let t: AccountsApp;
  let rows: { title: string; payload: Payload }[];
  beforeAll(async () => {
    t = (await bootAccounts(sqliteDatabase(), { env: { PUBLIC_URL: 'https://shop.example.com' } })) as AccountsApp;
    await t.register('mira@example.com', 'mira-password');
    await t.anon('POST', ROUTES.forgot, { data: { email: 'mira@example.com' } });
    const table = t.database.tables['notification/notification'];
    rows = await vi.waitFor(async () => {
      const all = (await t.database.db.select().from(table)) as { title: string; payload: Payload }[];
      expect(all.map((r) => r.title).sort()).toEqual(['Reset your password', 'Verify your email']);
      return all;
    });
  });
  afterAll(async () => t?.close());

  const row = (title: string) => rows.find((r) => r.title === title)!.payload;

  it('the reset mail says "ignore this email" once, in its text and its HTML, and ends with the template\'s footer', async () => {
    const reset = row('Reset your password');
    expect(reset.template).toBe('reset-password');
    expect(times(reset.text, IGNORE)).toBe(1);
    expect(reset.text).not.toContain('If it was not you');
    expect(reset.text.trimEnd().endsWith('If you did not ask for this, ignore this email: your password stays as it is.')).toBe(true);
    expect(reset.text).toMatch(/Your reset code: [\w-]+/);
    const mail = await renderTemplate(reset.template, { subject: reset.subject, text: reset.body, data: {}, publicUrl: 'https://shop.example.com' });
    expect(times(mail.html, IGNORE)).toBe(1);
    expect(mail.text).toBe(reset.text);
  });

  it('the reset code is listed once in payload.secrets', () => {
    const reset = row('Reset your password');
    const code = /Your reset code: ([\w-]+)/.exec(reset.body)![1]!;
    expect(reset.body).toContain(`reset-password?code=${encodeURIComponent(code)}`);
    expect(reset.secrets).toEqual([code]);
  });

  it('the verification mail says it once too, and lists its code once', async () => {
    const verify = row('Verify your email');
    expect(times(verify.text, IGNORE)).toBe(1);
    expect(times(verify.text, /If you did not sign up or add this address/)).toBe(1);
    const mail = await renderTemplate(verify.template, { subject: verify.subject, text: verify.body, data: {}, publicUrl: 'https://shop.example.com' });
    expect(times(mail.html, IGNORE)).toBe(1);
    const code = /Your verification code: ([\w.-]+)/.exec(verify.body)![1]!;
    expect(verify.secrets).toEqual([code]);
  });
});
