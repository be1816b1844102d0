import type { Context } from 'hono';
import { deleteCookie, setCookie } from 'hono/cookie';
import type { PluginContext } from '../../../../runtime/plugin.js';
import type { Accounts } from '../accounts.js';
import { ACCESS_TTL_SECONDS, SESSION_COOKIE, signAccessToken } from '../tokens.js';
import { clientAddress } from '../rate-limit.js';

/** the session token goes into an httpOnly cookie; the refresh token is returned for the client to keep */
export function setSessionCookie(c: Context, ctx: PluginContext, jwt: string) {
  setCookie(c, SESSION_COOKIE, jwt, { httpOnly: true, sameSite: 'Lax', secure: ctx.config.production, path: '/', maxAge: ACCESS_TTL_SECONDS });
}

export function clearSessionCookie(c: Context, ctx: PluginContext) {
  deleteCookie(c, SESSION_COOKIE, { path: '/', secure: ctx.config.production });
}

/**
 * starts a session for a subject, signed in with the login `identityId` (none for an anonymous session, which
 * authentication/init makes): { jwt, refresh } plus the cookie
 */
export async function signIn(c: Context, ctx: PluginContext, accounts: Accounts, subjectId: string, identityId?: string) {
  const { sessionId, refresh } = await accounts.createSession(subjectId, { userAgent: c.req.header('user-agent'), ip: clientAddress(c, ctx.config), identityId });
  const jwt = await signAccessToken(ctx.config.rbacJwtSecret, { sub: subjectId, sid: sessionId });
  setSessionCookie(c, ctx, jwt);
  return { jwt, refresh };
}
