import type { Context, Hono } from 'hono';
import type { PluginContext } from '../../../../runtime/plugin.js';
import { readBody } from '../../../../runtime/crud/body.js';
import { bodyValidator } from '../../../../runtime/crud/validate.js';
import { HttpError, badRequest, fromDatabaseError } from '../../../../runtime/http/errors.js';
import type { Accounts } from '../accounts.js';
import type { createAccess } from '../access.js';
import type { createRateLimiter } from '../rate-limit.js';
import { hashPassword, verifyPassword, PASSWORD_MIN } from '../passwords.js';
import { principalOf } from '../principal.js';
import { newCode, sha256, signAccessToken } from '../tokens.js';
import { issueNonce, nonceIn, verifyWalletSignature } from '../wallet.js';
import { verifyTelegramLogin } from '../telegram.js';
import { clearSessionCookie, setSessionCookie, signIn } from './session.js';
import type { NotificationService } from '../../../notification/server/index.js';

export interface RouteDeps {
  ctx: PluginContext;
  accounts: Accounts;
  access: ReturnType<typeof createAccess>;
  limit: ReturnType<typeof createRateLimiter>;
}

export const RESET_CODE_TTL_MS = 60 * 60 * 1000;
export const EMAIL = { type: 'string', format: 'email', maxLength: 254 };
export const PASSWORD = { type: 'string', minLength: PASSWORD_MIN, maxLength: 1024 };
export const strict = (properties: Record<string, unknown>, required = Object.keys(properties)) => ({ type: 'object', additionalProperties: false, properties, required });

/** registration and sign-in take exactly these fields: roles, provider or subject ids in a body are refused */
const credentials = bodyValidator<{ login: string; password: string }>(strict({ login: EMAIL, password: PASSWORD }));
const forgot = bodyValidator<{ email: string }>(strict({ email: EMAIL }));
const reset = bodyValidator<{ code: string; password: string; passwordConfirmation: string }>(
  strict({ code: { type: 'string', minLength: 1, maxLength: 200 }, password: PASSWORD, passwordConfirmation: PASSWORD }),
);
const refreshBody = bodyValidator<{ refresh: string }>(strict({ refresh: { type: 'string', maxLength: 200 } }));

/** the routes of spec §7 under /api/rbac/subjects/authentication */
export function authenticationRoutes(app: Hono, { ctx, accounts, access, limit }: RouteDeps) {
  const base = '/api/rbac/subjects/authentication';
  const identity = ctx.model.byId['rbac/identity'];
  const notifications = () => ctx.services.notification as NotificationService;

  app.get(`${base}/me`, async (c) => {
    const p = await principalOf(c, ctx, accounts);
    if (p.kind !== 'subject') throw new HttpError(401, 'Not authorized');
    const subject = await ctx.repo.getOrThrow(ctx.model.byId['rbac/subject'], p.subjectId);
    return c.json({ data: { ...subject, identities: await accounts.identitiesOf(p.subjectId), roles: await accounts.rolesOf(p.subjectId), isAdmin: p.admin } });
  });

  /** a token without a subject (not signed in) and a nonce for wallet sign-in */
  app.get(`${base}/init`, async (c) => {
    const jwt = await signAccessToken(ctx.config.rbacJwtSecret, {});
    return c.json({ data: { jwt, refresh: null, nonce: issueNonce(ctx.config.rbacJwtSecret) } });
  });
  app.get(`${base}/ethereum-virtual-machine/nonce`, (c) => c.json({ data: { nonce: issueNonce(ctx.config.rbacJwtSecret) } }));

  app.post(`${base}/refresh`, async (c) => {
    const { refresh } = refreshBody((await readBody(c)).data);
    try {
      const rotated = await accounts.rotate(refresh);
      const jwt = await signAccessToken(ctx.config.rbacJwtSecret, { sub: rotated.subjectId, sid: rotated.sessionId });
      setSessionCookie(c, ctx, jwt);
      return c.json({ data: { jwt, refresh: rotated.refresh } });
    } catch (e) {
      clearSessionCookie(c, ctx);
      throw e;
    }
  });

  app.post(`${base}/logout`, async (c) => {
    const p = await principalOf(c, ctx, accounts);
    if (p.kind === 'subject') await accounts.revoke(p.sessionId, 'logout');
    const body = c.req.header('content-type')?.includes('json') ? await c.req.json().catch(() => ({})) : {};
    const sessionId = typeof body?.data?.refresh === 'string' ? body.data.refresh.split('.')[0] : undefined;
    if (sessionId && /^[0-9a-f-]{36}$/.test(sessionId)) {
      const s = await accounts.activeSession(sessionId);
      // only the session's own subject (or the holder of its refresh token) ends it
      if (s && (p.kind !== 'subject' || p.subjectId === s.subjectId)) await accounts.revoke(s.id, 'logout').catch(() => undefined);
    }
    clearSessionCookie(c, ctx);
    return c.json({ data: { loggedOut: true } });
  });

  app.get(`${base}/is-authorized`, async (c) => {
    const method = (c.req.query('action[method]') ?? c.req.query('method') ?? '').toUpperCase();
    const route = c.req.query('action[route]') ?? c.req.query('route') ?? '';
    if (!['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(method)) throw badRequest('action[method] must be one of GET, POST, PUT, PATCH, DELETE');
    if (!route.startsWith('/')) throw badRequest('action[route] must be a path starting with /');
    await access.decide(c, method, route);
    return c.json({ data: { authorized: true } });
  });

  app.post(`${base}/email-and-password/authentication`, async (c) => {
    const { login, password } = credentials((await readBody(c)).data);
    await limit(c, 'sign-in', login);
    const found = await accounts.identityBy('email_and_password', login.toLowerCase());
    const ok = await verifyPassword(password, found ?? {});
    const subjectId = found && ok ? await accounts.subjectIdOfIdentity(found.id as string) : undefined;
    if (!subjectId) throw new HttpError(401, 'Invalid login or password');
    return c.json({ data: await signIn(c, ctx, accounts, subjectId) });
  });

  app.post(`${base}/email-and-password/registration`, async (c) => {
    const { login, password } = credentials((await readBody(c)).data);
    await limit(c, 'registration', login);
    const email = login.toLowerCase();
    const secret = await hashPassword(password);
    const { subjectId } = await ctx.database.transaction(async (tx) => {
      if (await accounts.identityBy('email_and_password', email, tx)) {
        throw new HttpError(409, 'An account with this email already exists', [{ field: 'login', rule: 'unique', message: 'login is already registered' }]);
      }
      return accounts.register({ provider: 'email_and_password', account: email, email, ...secret }, tx);
    }).catch((e) => {
      throw fromDatabaseError(e, identity) ?? e;
    });
    return c.json({ data: await signIn(c, ctx, accounts, subjectId) }, 201);
  });

  /** the same status, body and (close) timing whether or not the account exists */
  app.post(`${base}/email-and-password/forgot-password`, async (c) => {
    const { email } = forgot((await readBody(c)).data);
    await limit(c, 'forgot-password', email);
    const code = newCode();
    const found = await accounts.identityBy('email_and_password', email.toLowerCase());
    if (found) {
      await ctx.repo.update(identity, found.id as string, { code: sha256(code), codeExpiresAt: new Date(Date.now() + RESET_CODE_TTL_MS).toISOString() });
      const link = `${ctx.config.publicUrl}/rbac/subject/authentication/email-and-password/reset-password?code=${encodeURIComponent(code)}`;
      // not awaited: delivery time must not tell an existing account from a missing one
      notifications()
        .sendEmail({
          to: found.email as string,
          subject: 'Reset your password',
          text: `Someone asked to reset the password of your account.\n\nOpen this link within an hour to choose a new one:\n${link}\n\nYour reset code: ${code}\n\nIf it was not you, ignore this email.`,
          template: 'reset-password',
          secrets: [code, encodeURIComponent(code)],
        })
        .catch((e) => ctx.log.error({ err: e }, 'reset email failed'));
    } else {
      sha256(code);
    }
    return c.json({ data: { message: 'Reset link sent' } });
  });

  app.post(`${base}/email-and-password/reset-password`, async (c) => {
    const { code, password, passwordConfirmation } = reset((await readBody(c)).data);
    await limit(c, 'reset-password');
    if (password !== passwordConfirmation) {
      throw badRequest('passwordConfirmation must match password', [{ field: 'passwordConfirmation', rule: 'match', message: 'passwordConfirmation must match password' }]);
    }
    const found = await accounts.identityByCodeHash(sha256(code));
    if (!found || !(found.codeExpiresAt instanceof Date) || found.codeExpiresAt <= new Date()) {
      throw badRequest('The reset code is invalid or has expired', [{ field: 'code', rule: 'code', message: 'code is invalid or has expired' }]);
    }
    const secret = await hashPassword(password);
    await ctx.database.transaction(async (tx) => {
      await ctx.repo.update(identity, found.id as string, { ...secret, code: null, codeExpiresAt: null }, tx);
      const subjectId = await accounts.subjectIdOfIdentity(found.id as string, tx);
      if (subjectId) await accounts.revokeAll(subjectId, 'password-reset', tx);
    });
    return c.json({ data: { message: 'Password reset successfully' } });
  });

  /**
   * Sign in with a wallet signature. The first sign-in makes the subject; a signed-in subject
   * links the wallet to itself. A wallet is never linked to an account by anyone else.
   */
  async function thirdParty(c: Context, provider: 'ethereum_virtual_machine' | 'telegram', account: string) {
    const p = await principalOf(c, ctx, accounts);
    const subjectId = await ctx.database.transaction(async (tx) => {
      const existing = await accounts.identityBy(provider, account, tx);
      if (existing) {
        const owner = await accounts.subjectIdOfIdentity(existing.id as string, tx);
        if (owner) return owner;
      }
      if (p.kind === 'subject') {
        const created = existing ?? (await ctx.repo.create(identity, { provider, account }, tx));
        await accounts.linkIdentity(tx, p.subjectId, created.id as string);
        return p.subjectId;
      }
      return (await accounts.register({ provider, account }, tx)).subjectId;
    });
    return c.json({ data: await signIn(c, ctx, accounts, subjectId) });
  }

  app.post(`${base}/ethereum-virtual-machine`, async (c) => {
    const body = (await readBody(c)).data as Record<string, unknown> | undefined;
    if (!body || typeof body !== 'object') throw badRequest('Data is undefined');
    await limit(c, 'wallet', typeof body.address === 'string' ? body.address : undefined);
    const nonce = nonceIn(ctx.config.rbacJwtSecret, typeof body.message === 'string' ? body.message : '');
    const { address } = await verifyWalletSignature(body);
    try {
      await ctx.repo.create(ctx.model.byId['rbac/nonce'], { value: sha256(nonce.nonce), expiresAt: nonce.expiresAt.toISOString() });
    } catch (e) {
      if (e instanceof HttpError && e.status === 409) throw new HttpError(401, 'Not authorized: the nonce was already used');
      throw e;
    }
    return thirdParty(c, 'ethereum_virtual_machine', address);
  });

  app.post(`${base}/telegram`, async (c) => {
    const user = verifyTelegramLogin(ctx.config.telegramBotToken, (await readBody(c)).data);
    await limit(c, 'telegram', user.id);
    return thirdParty(c, 'telegram', user.id);
  });
}
