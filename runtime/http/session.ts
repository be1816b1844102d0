import type { Context } from 'hono';
import { parse as parseCookie } from 'hono/utils/cookie';
import { requestCookie, requestHeader } from './headers.js';
import { REFRESH_TTL_SECONDS, SESSION_COOKIE, verifyAccessToken } from '../../plugins/rbac/server/tokens.js';
import { hasSecretKey } from './access.js';

declare module 'hono' {
  interface ContextVariableMap {
    signedSubject: Promise<string | undefined>;
    signedCaller: Promise<boolean>;
  }
}

/** the session token a request carries, unverified: the Bearer token, else the session cookie */
export function sessionTokenOf(c: Context): string | undefined {
  const header = requestHeader(c, 'authorization');
  if (header?.toLowerCase().startsWith('bearer ')) return header.slice(7).trim() || undefined;
  return requestCookie(c, SESSION_COOKIE) || undefined;
}

/**
 * true when the request carries credentials of any kind (an Authorization header, the session cookie,
 * the system key), valid or not: its answer may hold a subject's data and must not be stored.
 */
export function carriesCredentials(c: Context): boolean {
  return credentialsIn({ header: (name) => requestHeader(c, name) });
}

/** carriesCredentials over a request's headers read by lower-case name (a Node request's, outside hono) */
export function credentialsIn(request: { header(name: string): string | undefined }): boolean {
  if (request.header('authorization') || request.header('x-rbac-secret-key')) return true;
  const cookie = request.header('cookie');
  return !!cookie && !!parseCookie(cookie, SESSION_COOKIE)[SESSION_COOKIE];
}

/**
 * The subject of a validly signed, unexpired session token (HS256 with RBAC_JWT_SECRET), once per request.
 * It says nothing about whether the session is still live (the accounts module checks that when it
 * authorizes); it is what separates a signed-in visitor from a header anyone can make up.
 */
export function signedSubject(c: Context, jwtSecret: string): Promise<string | undefined> {
  let found = c.get('signedSubject');
  if (!found) {
    const token = sessionTokenOf(c);
    found = token ? verifyAccessToken(jwtSecret, token).then((claims) => claims?.sub || undefined) : Promise.resolve(undefined);
    c.set('signedSubject', found);
  }
  return found;
}

/**
 * The system key, or a session token with a subject signed by this server — expired or not (within a
 * refresh token's lifetime), so that a client whose token just ran out gets its 401 and refreshes rather
 * than a 413. A caller trusted with larger bodies than anonymous ones; once per request.
 */
export function isSignedCaller(c: Context, config: { rbacSecretKey: string; rbacJwtSecret: string }): Promise<boolean> {
  let found = c.get('signedCaller');
  if (!found) {
    const token = sessionTokenOf(c);
    found = hasSecretKey(c, config.rbacSecretKey)
      ? Promise.resolve(true)
      : token
        ? import('jose').then(({ jwtVerify }) => jwtVerify(token, new TextEncoder().encode(config.rbacJwtSecret), { algorithms: ['HS256'], clockTolerance: REFRESH_TTL_SECONDS })).then(
            ({ payload }) => !!payload.sub,
            () => false,
          )
        : Promise.resolve(false);
    c.set('signedCaller', found);
  }
  return found;
}
