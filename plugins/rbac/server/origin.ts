import type { Context } from 'hono';
import { requestCookie, requestHeader } from '../../../runtime/http/headers.js';
import { HttpError } from '../../../runtime/http/errors.js';
import { hasSecretKey } from '../../../runtime/http/access.js';
import type { Config } from '../../../runtime/config.js';
import { SESSION_COOKIE } from './tokens.js';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Whether the request is authenticated by the session cookie: the browser attaches the cookie to any request it
 * sends, so only these can be forged by another site. A Bearer token or the valid secret key is set by the caller's
 * own code (and a cross-origin page cannot set those headers without a CORS preflight this server never grants).
 * Any other Authorization (a browser adds Basic by itself behind a password-protected proxy) or a wrong key leaves
 * the cookie as what signs the request in (`sessionTokenOf`), so it is checked like a cookie alone.
 */
export function cookieAuthenticated(c: Context, secretKey: string): boolean {
  if (requestHeader(c, 'authorization')?.toLowerCase().startsWith('bearer ') || hasSecretKey(c, secretKey)) return false;
  return !!requestCookie(c, SESSION_COOKIE);
}

/** the accounts module's sign-in, registration and session routes: they set the session cookie */
const SIGNS_IN = '/api/rbac/subjects/authentication/';

function originOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  if (url === 'null') return 'null';
  try {
    return new URL(url).origin;
  } catch {
    return 'null';
  }
}

/**
 * Refuses (403) a cookie-authenticated POST, PUT, PATCH or DELETE under /api, and any such request to the sign-in
 * routes (which set the cookie), whose Origin (or, without one, Referer) is neither this server's own origin nor
 * PUBLIC_URL's nor one of CORS_ORIGINS. SameSite=Lax is a
 * second wall, not the only one. Requests that name no origin at all come from non-browser clients
 * (a browser always sends Origin on a cross-origin POST), unless Sec-Fetch-Site says cross-site.
 */
export function refuseForeignWrites(config: Config): (c: Context) => void {
  // this server's public address and the storefronts on other hosts that CORS_ORIGINS lets in
  const allowed = new Set([new URL(config.publicUrl).origin, ...config.corsOrigins]);
  // a check the accounts middleware runs first, not a middleware of its own (no next to wrap per request)
  return function refuseForeign(c) {
    // a cookie-authenticated write, or a sign-in from a page of another site (which would sign the visitor's browser
    // into the other site's account: login CSRF, as a plain form can send it)
    if (STATE_CHANGING.has(c.req.method) && (cookieAuthenticated(c, config.rbacSecretKey) || c.req.path.startsWith(SIGNS_IN))) {
      const origin = originOf(requestHeader(c, 'origin')) ?? originOf(requestHeader(c, 'referer'));
      const own = new URL(c.req.url).origin;
      const foreign = origin !== undefined ? origin !== own && !allowed.has(origin) : requestHeader(c, 'sec-fetch-site') === 'cross-site';
      if (foreign) throw new HttpError(403, 'Not authorized: a request from another origin');
    }
  };
}
