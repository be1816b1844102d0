import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
// jose is loaded on the first token, not at start (the import is cached after that)
const jose = () => import('jose');

export const ACCESS_TTL_SECONDS = 15 * 60;
export const REFRESH_TTL_SECONDS = 30 * 24 * 60 * 60;
export const SESSION_COOKIE = 'rbac.subject.jwt';

export interface AccessClaims {
  /** subject id; absent on the anonymous token of authentication/init */
  sub?: string;
  /** session id */
  sid?: string;
}

const key = (secret: string) => new TextEncoder().encode(secret);

export async function signAccessToken(secret: string, claims: AccessClaims): Promise<string> {
  const { SignJWT } = await jose();
  return new SignJWT({ ...(claims.sid && { sid: claims.sid }) })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.sub ?? '')
    .setIssuedAt()
    .setExpirationTime(`${ACCESS_TTL_SECONDS}s`)
    .sign(key(secret));
}

/** the claims of a valid, unexpired access token; undefined for anything else */
export async function verifyAccessToken(secret: string, token: string): Promise<AccessClaims | undefined> {
  try {
    const { jwtVerify } = await jose();
    const { payload } = await jwtVerify(token, key(secret), { algorithms: ['HS256'] });
    return { sub: payload.sub || undefined, sid: typeof payload.sid === 'string' ? payload.sid : undefined };
  } catch {
    return undefined;
  }
}

export const sha256 = (s: string) => createHash('sha256').update(s).digest('base64url');

export function sameHash(a: string | null | undefined, b: string): boolean {
  if (!a) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** a refresh token is <session id>.<secret>; the server keeps only the secret's hash */
export function newRefreshSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function parseRefreshToken(token: unknown): { sessionId: string; secret: string } | undefined {
  if (typeof token !== 'string') return undefined;
  const m = /^([0-9a-f-]{36})\.([A-Za-z0-9_-]{43})$/.exec(token);
  return m ? { sessionId: m[1], secret: m[2] } : undefined;
}

/** a one-time code for links in emails */
export const newCode = () => randomBytes(24).toString('base64url');
