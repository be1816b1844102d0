import { expect, vi } from 'vitest';
import { createHash, createHmac } from 'node:crypto';
import { createSiweMessage } from 'viem/siwe';
import type { startSmtp, ReceivedMail } from '../helpers/smtp.js';
import { ROUTES } from '../helpers/accounts.js';

/** helpers the rbac suites share (not a test file itself) */

export type Smtp = Awaited<ReturnType<typeof startSmtp>>;

/** a mail's text with quoted-printable soft line breaks undone */
export const textOf = (mail: ReceivedMail) => mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');

/** every mail received so far to this address whose text matches */
export const mailsMatching = (smtp: Smtp, to: string, pattern: RegExp) => smtp.mails.filter((m) => m.to.includes(to) && pattern.test(textOf(m)));

/** the first mail to this address whose text matches, waiting for it */
export function mailMatching(smtp: Smtp, to: string, pattern: RegExp, count = 1): Promise<ReceivedMail> {
  return vi.waitFor(
    () => {
      const found = mailsMatching(smtp, to, pattern);
      expect(found.length, `mail to ${to} matching ${pattern}`).toBeGreaterThanOrEqual(count);
      return found[count - 1]!;
    },
    { timeout: 10_000, interval: 20 },
  );
}

export const VERIFY_ROUTE = `${ROUTES.register.replace(/\/registration$/, '')}/verify`;
export const RESEND_ROUTE = `${VERIFY_ROUTE}/resend`;

export const RESET = /Your reset code: /;
export const VERIFY = /Your verification code: /;

/** the code of a verification mail */
export function verificationCodeIn(mail: ReceivedMail): string {
  const m = /Your verification code: ([A-Za-z0-9_.-]+)/.exec(textOf(mail));
  if (!m) throw new Error('no verification code in the mail');
  return m[1]!;
}

/** the n-th verification code sent to an address (waiting for it) */
export async function verificationCode(smtp: Smtp, to: string, n = 1): Promise<string> {
  return verificationCodeIn(await mailMatching(smtp, to, VERIFY, n));
}

/**
 * proves an address the way its owner does on another device: the code from the mail, posted to the verify route with
 * the account's password (signed in, the session stands for the password)
 */
export async function verifyAddress(t: { anon: (m: string, p: string, b?: unknown) => Promise<{ status: number; body: any }> }, smtp: Smtp, to: string, n = 1, password = 'password123') {
  const r = await t.anon('POST', VERIFY_ROUTE, { data: { code: await verificationCode(smtp, to, n), password } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r;
}

/** a Sign-In with Ethereum message for the test server (PUBLIC_URL defaults to http://localhost:4000) */
export function siwe(address: `0x${string}`, nonce: string, over: Partial<Parameters<typeof createSiweMessage>[0]> = {}) {
  return createSiweMessage({
    address,
    domain: 'localhost:4000',
    uri: 'http://localhost:4000/rbac/subject/authentication/select-method',
    chainId: 1,
    version: '1',
    nonce,
    issuedAt: new Date(),
    expirationTime: new Date(Date.now() + 5 * 60 * 1000),
    statement: 'Sign in to the shop.',
    ...over,
  });
}

/** the bot token the suites' apps verify Telegram payloads with (TELEGRAM_BOT_TOKEN) */
export const BOT_TOKEN = '123456:test-bot-token';

/** what the Telegram Login Widget sends, signed as Telegram signs it */
export function telegramPayload(fields: Record<string, string | number>, token = BOT_TOKEN) {
  const check = Object.keys(fields).sort().map((k) => `${k}=${fields[k]}`).join('\n');
  const hash = createHmac('sha256', createHash('sha256').update(token).digest()).update(check).digest('hex');
  return { ...fields, hash };
}
