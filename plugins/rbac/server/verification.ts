import { createHmac, timingSafeEqual } from 'node:crypto';

/** how long a verification link works */
export const VERIFY_TTL_SECONDS = 24 * 60 * 60;
/** the storefront page the link in the email opens (plugins/rbac/web, variant 'verify-email') */
export const VERIFY_PAGE = '/rbac/subject/authentication/email-and-password/verify';

const mac = (secret: string, identityId: string, email: string, expiry: string) =>
  createHmac('sha256', secret).update(`email-verification:${identityId}\n${email.toLowerCase()}\n${expiry}`).digest('base64url');

/**
 * A code that proves its holder received mail at `email` for this identity: `<identity id>.<expiry>.<hmac>`.
 * Nothing is stored: the HMAC binds the identity and the address, so changing the address voids
 * every code sent to the old one, and a code works only for the address it was sent to.
 */
export function verificationCode(secret: string, identityId: string, email: string, now = Date.now()): string {
  const expiry = String(Math.floor(now / 1000) + VERIFY_TTL_SECONDS);
  return `${identityId}.${expiry}.${mac(secret, identityId, email, expiry)}`;
}

/** the identity a code names, if it is well-formed and unexpired (the address is checked by `codeMatches`) */
export function readVerificationCode(code: string, now = Date.now()): { identityId: string; expiry: string; mac: string } | undefined {
  const m = /^([0-9a-f-]{36})\.(\d{10})\.([A-Za-z0-9_-]{43})$/.exec(code);
  if (!m || Number(m[2]) * 1000 <= now) return undefined;
  return { identityId: m[1], expiry: m[2], mac: m[3] };
}

/** whether the code was made for this identity and this address (constant time) */
export function codeMatches(secret: string, code: { identityId: string; expiry: string; mac: string }, email: string): boolean {
  const expected = Buffer.from(mac(secret, code.identityId, email, code.expiry));
  const given = Buffer.from(code.mac);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
