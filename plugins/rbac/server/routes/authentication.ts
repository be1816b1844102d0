import type { Context, Hono } from 'hono';
import { and, eq, isNull } from 'drizzle-orm';
import type { PluginContext } from '../../../../runtime/plugin.js';
import { readBody } from '../../../../runtime/crud/body.js';
import { bodyValidator } from '../../../../runtime/crud/validate.js';
import { HttpError, badRequest, fromDatabaseError } from '../../../../runtime/http/errors.js';
import { lockRow } from '../../../../runtime/db/lock.js';
import type { Accounts } from '../accounts.js';
import type { createAccess } from '../access.js';
import type { createRateLimiter } from '../rate-limit.js';
import { hashPassword, verifyPassword, PASSWORD_MIN } from '../passwords.js';
import { principalOf } from '../principal.js';
import { newCode, sha256, signAccessToken } from '../tokens.js';
import { checkSiweMessage, issueNonce, verifyWalletSignature, walletBody, walletReady } from '../wallet.js';
import { verifyTelegramLogin } from '../telegram.js';
import { clearSessionCookie, setSessionCookie, signIn } from './session.js';
import type { NotificationService } from '../../../notification/server/index.js';
import { accountMail, proveOwner } from '../account-changes.js';
import { loginWord, rbacMailWord } from '../mail-words.js';
import { pathIn } from '../../../../runtime/http/language.js';
import { codeMatches, readVerificationCode } from '../verification.js';

export interface RouteDeps {
  ctx: PluginContext;
  accounts: Accounts;
  access: ReturnType<typeof createAccess>;
  limit: ReturnType<typeof createRateLimiter>;
  /** work done after the answer is sent (see RbacOptions.later) */
  later: (job: () => Promise<unknown>) => void;
  /** chain ids a Sign-In with Ethereum message may name */
  chainIds: number[];
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
const verifyBody = bodyValidator<{ code: string }>(strict({ code: { type: 'string', minLength: 1, maxLength: 200 } }));
const resendBody = bodyValidator<{ identityId: string }>(strict({ identityId: { type: 'string', format: 'uuid' } }));

/** the routes of spec §7 under /api/rbac/subjects/authentication */
export function authenticationRoutes(app: Hono, deps: RouteDeps) {
  const { ctx, accounts, access, limit, later } = deps;
  const base = '/api/rbac/subjects/authentication';
  const identity = ctx.model.byId['rbac/identity'];
  const notifications = () => ctx.services.notification as NotificationService;
  const mail = accountMail(deps);

  /** the signed-in subject; `null` for a visitor (clients ask on every page: not an error) */
  app.get(`${base}/me`, async (c) => {
    const p = await principalOf(c, ctx, accounts);
    if (p.kind !== 'subject') return c.json({ data: null });
    const subject = await ctx.repo.getOrThrow(ctx.model.byId['rbac/subject'], p.subjectId);
    const identities = await accounts.identitiesOf(p.subjectId);
    return c.json({ data: { ...subject, identities, roles: await accounts.rolesOf(p.subjectId), isAdmin: p.admin, isAnonymous: identities.length === 0 } });
  });

  /**
   * An anonymous session (spec §7: init returns jwt and refresh): a subject with no login yet, which
   * registration or a wallet or Telegram sign-in upgrades into an account; and a nonce for wallet sign-in.
   * Limited per client address: each call makes a subject (stale ones are deleted by a scheduled job).
   */
  app.get(`${base}/init`, async (c) => {
    await limit(c, 'init');
    const subject = await ctx.repo.create(ctx.model.byId['rbac/subject'], {});
    const session = await signIn(c, ctx, accounts, subject.id as string);
    return c.json({ data: { ...session, nonce: issueNonce(ctx.config.rbacJwtSecret) } });
  });

  /** the anonymous subject of the request's session, if it has one (to upgrade instead of making a new subject) */
  async function anonymousOf(c: Context): Promise<{ subjectId: string; sessionId: string } | undefined> {
    const p = await principalOf(c, ctx, accounts);
    if (p.kind !== 'subject' || p.admin || p.signedIn) return undefined;
    return { subjectId: p.subjectId, sessionId: p.sessionId };
  }
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
    // a refresh token ends its session only whole: the secret's hash must match, not just the session id
    if (typeof body?.data?.refresh === 'string') await accounts.revokeByRefresh(body.data.refresh, 'logout');
    clearSessionCookie(c, ctx);
    return c.json({ data: { loggedOut: true } });
  });

  /** action[method|route] (ours) or permission[method|route|type] (the reference client's): 200 when allowed, 401/403 when not */
  app.get(`${base}/is-authorized`, async (c) => {
    // each parameter is named in an error as the caller sent it (action[route], permission[type], route)
    const q = (name: string): [string, string | undefined] => {
      for (const key of [`action[${name}]`, `permission[${name}]`, name]) {
        const v = c.req.query(key);
        if (v !== undefined) return [key, v];
      }
      return [`action[${name}]`, undefined];
    };
    const [methodKey, methodValue] = q('method');
    const [routeKey, routeValue] = q('route');
    const [typeKey, typeValue] = q('type');
    const method = (methodValue ?? '').toUpperCase();
    const route = routeValue ?? '';
    if ((typeValue ?? 'HTTP') !== 'HTTP') throw badRequest(`${typeKey} must be 'HTTP'`, [{ field: typeKey, rule: 'enum', message: "type must be 'HTTP'" }]);
    if (!['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(method)) throw badRequest(`${methodKey} must be one of GET, POST, PUT, PATCH, DELETE`, [{ field: methodKey, rule: 'enum', message: 'method must be one of GET, POST, PUT, PATCH, DELETE' }]);
    if (!route.startsWith('/') || route.startsWith('//')) throw badRequest(`${routeKey} must be a path starting with /`, [{ field: routeKey, rule: 'format', message: 'route must start with /' }]);
    // the path as a request to it is routed: dot segments resolved (`/a/../b` is `/b`), the query left out
    await access.decide(c, method, new URL(route, 'http://localhost').pathname);
    return c.json({ data: { ok: true, authorized: true } });
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
    const anonymous = await anonymousOf(c);
    const { subjectId, identityId } = await ctx.database.transaction(async (tx) => {
      if (await accounts.identityBy('email_and_password', email, tx)) {
        throw new HttpError(409, 'An account with this email already exists', [{ field: 'login', rule: 'unique', message: 'login is already registered' }]);
      }
      return accounts.register({ provider: 'email_and_password', account: email, email, emailVerifiedAt: null, ...secret }, tx, anonymous?.subjectId);
    }).catch((e) => {
      throw fromDatabaseError(e, identity) ?? e;
    });
    if (anonymous) await accounts.revoke(anonymous.sessionId, 'upgraded');
    mail.verify(identityId, email, mail.languageOf(c));
    return c.json({ data: await signIn(c, ctx, accounts, subjectId) }, 201);
  });

  /**
   * The code from a verification email (the link opens the storefront's verify page, which posts
   * it here): marks the address verified if the identity still has the address the code was sent to.
   */
  app.post(`${base}/email-and-password/verify`, async (c) => {
    const { code } = verifyBody((await readBody(c)).data);
    await limit(c, 'verify-email');
    const invalid = () => badRequest('The verification code is invalid or has expired', [{ field: 'code', rule: 'code', message: 'code is invalid or has expired' }]);
    const parsed = readVerificationCode(code);
    if (!parsed) throw invalid();
    const row = await accounts.identityWithSecrets(parsed.identityId);
    if (!row || row.provider !== 'email_and_password' || typeof row.email !== 'string' || !codeMatches(ctx.config.rbacJwtSecret, parsed, row.email)) throw invalid();
    if (row.emailVerifiedAt == null) {
      const t = ctx.database.tables['rbac/identity'];
      // only while the identity still has the address the code was sent to
      await ctx.database.transaction((tx) =>
        tx.update(t).set({ emailVerifiedAt: new Date(), updatedAt: new Date() }).where(and(eq(t.id, row.id as string), eq(t.email, row.email as string), isNull(t.emailVerifiedAt))),
      );
    }
    return c.json({ data: { message: 'Email verified', email: row.email } });
  });

  /** sends the verification email again, to one of the signed-in subject's own unverified addresses */
  app.post(`${base}/email-and-password/verify/resend`, async (c) => {
    const p = await principalOf(c, ctx, accounts);
    if (p.kind === 'anonymous') throw new HttpError(401, 'Not authorized');
    const { identityId } = resendBody((await readBody(c)).data);
    const owner = await accounts.subjectIdOfIdentity(identityId.toLowerCase());
    if (!owner || (p.kind === 'subject' && !p.admin && owner !== p.subjectId)) throw new HttpError(404, `No rbac/identity with id ${identityId}`);
    const row = (await accounts.identityWithSecrets(identityId.toLowerCase()))!;
    if (row.provider !== 'email_and_password' || typeof row.email !== 'string') {
      throw badRequest('Only an email identity is verified', [{ field: 'identityId', rule: 'provider', message: 'identityId must be an email identity' }]);
    }
    if (row.emailVerifiedAt != null) throw badRequest('The email is already verified', [{ field: 'identityId', rule: 'verified', message: 'identityId is already verified' }]);
    await limit(c, 'verify-resend', row.email);
    mail.verify(row.id as string, row.email, mail.languageOf(c));
    return c.json({ data: { message: 'Verification email sent' } });
  });

  /** the storefront page the reset link opens (plugins/rbac/web) */
  const RESET_PASSWORD_PAGE = '/rbac/subject/authentication/email-and-password/reset-password';

  /**
   * The same status, body and timing whether or not the account exists: the answer is made before
   * the account is even looked up; the lookup, the code and the mail happen after it is sent.
   */
  app.post(`${base}/email-and-password/forgot-password`, async (c) => {
    const { email } = forgot((await readBody(c)).data);
    await limit(c, 'forgot-password', email);
    const language = mail.languageOf(c);
    later(async () => {
      const found = await accounts.identityBy('email_and_password', email.toLowerCase());
      if (!found) return;
      const code = newCode();
      const t = ctx.database.tables['rbac/identity'];
      // only while the identity still has this address: a change of address in between voids the code
      const stored: { id: string }[] = await ctx.database.transaction((tx) =>
        tx.update(t).set({ code: sha256(code), codeExpiresAt: new Date(Date.now() + RESET_CODE_TTL_MS), updatedAt: new Date() })
          .where(and(eq(t.id, found.id as string), eq(t.email, found.email as string))).returning({ id: t.id }),
      );
      if (!stored.length) return;
      const link = `${ctx.config.publicUrl}${pathIn(language, RESET_PASSWORD_PAGE, ctx.model)}?code=${encodeURIComponent(code)}`;
      await notifications().sendEmail({
        to: found.email as string,
        subject: rbacMailWord('resetSubject', language),
        // the 'reset-password' template ends with what to do if it was not you
        text: rbacMailWord('resetText', language, { link, code }),
        template: 'reset-password',
        secrets: [...new Set([code, encodeURIComponent(code)])],
        language,
      });
    });
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
      // a code is used once: of resets sent at the same moment with it, the first to hold the identity wins, and the
      // others find the code gone
      await lockRow(ctx.database, tx, identity.id, found.id as string);
      if ((await accounts.identityWithSecrets(found.id as string, tx))?.code !== found.code) {
        throw badRequest('The reset code is invalid or has expired', [{ field: 'code', rule: 'code', message: 'code is invalid or has expired' }]);
      }
      // the code came to this address (a change of address clears codes): it proves the address too
      await ctx.repo.update(identity, found.id as string, { ...secret, code: null, codeExpiresAt: null, ...(found.emailVerifiedAt == null && { emailVerifiedAt: new Date().toISOString() }) }, tx);
      const subjectId = await accounts.subjectIdOfIdentity(found.id as string, tx);
      if (subjectId) {
        await accounts.clearCodes(subjectId, tx);
        await accounts.revokeAll(subjectId, 'password-reset', tx);
      }
    });
    return c.json({ data: { message: 'Password reset successfully' } });
  });

  /**
   * Sign in with a wallet signature. The first sign-in makes the subject; a signed-in subject
   * links the wallet to itself. A wallet is never linked to an account by anyone else.
   */
  async function thirdParty(c: Context, provider: 'ethereum_virtual_machine' | 'telegram', account: string, currentPassword: unknown) {
    const anonymous = await anonymousOf(c);
    const p = anonymous ? ({ kind: 'anonymous' } as const) : await principalOf(c, ctx, accounts);
    let linking = false;
    if (p.kind === 'subject') {
      // linking a new login to the signed-in subject needs the owner's proof, as any added login does
      const existing = await accounts.identityBy(provider, account);
      linking = !(existing && (await accounts.subjectIdOfIdentity(existing.id as string)));
      if (linking) await proveOwner(c, deps, p, p.subjectId, typeof currentPassword === 'string' ? currentPassword : undefined, { field: 'currentPassword' });
    }
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
      return (await accounts.register({ provider, account }, tx, anonymous?.subjectId)).subjectId;
    });
    if (anonymous) await accounts.revoke(anonymous.sessionId, 'upgraded');
    if (linking && p.kind === 'subject' && subjectId === p.subjectId) {
      const language = mail.languageOf(c);
      mail.tell(await accounts.emailsOf(subjectId), 'methodAdded', { login: loginWord(provider, account, language) }, language);
    }
    return c.json({ data: await signIn(c, ctx, accounts, subjectId) });
  }

  const WALLET_FIELDS = ['address', 'message', 'signature', 'currentPassword'];
  app.post(`${base}/ethereum-virtual-machine`, async (c) => {
    const body = (await readBody(c)).data as Record<string, unknown> | undefined;
    if (!body || typeof body !== 'object') throw badRequest('Data is undefined');
    // a sign-in takes its signed fields and, to link the wallet to the signed-in subject, the current password
    const unknown = Object.keys(body).filter((k) => !WALLET_FIELDS.includes(k));
    if (unknown.length) {
      const causes = unknown.map((field) => ({ field, rule: 'unknown', message: `${field} is not an allowed field` }));
      throw badRequest(causes.length === 1 ? `Validation failed: ${causes[0].message}` : `Validation failed on ${causes.length} fields`, causes);
    }
    const address = await verifiedWallet(c, deps, body);
    return thirdParty(c, 'ethereum_virtual_machine', address, body.currentPassword);
  });

  app.post(`${base}/telegram`, async (c) => {
    const data = (await readBody(c)).data;
    const isObject = !!data && typeof data === 'object' && !Array.isArray(data);
    // the owner's proof travels beside Telegram's signed fields, not among them
    const { currentPassword, ...signed } = isObject ? (data as Record<string, unknown>) : {};
    const user = verifyTelegramLogin(ctx.config.telegramBotToken, isObject ? signed : data);
    await limit(c, 'telegram', user.id);
    return thirdParty(c, 'telegram', user.id, currentPassword);
  });
}

/**
 * The checksummed address of a wallet sign-in body `{ message, signature, address }`: rate-limited, an EIP-4361
 * message for this domain and origin, an accepted chain, a nonce this server issued and not used before, in date,
 * and a signature by that address. Shared by wallet sign-in and linking a wallet to a signed-in subject.
 */
export async function verifiedWallet(c: Context, deps: RouteDeps, body: Record<string, unknown>): Promise<string> {
  const { ctx } = deps;
  await deps.limit(c, 'wallet', typeof body.address === 'string' ? body.address : undefined);
  await walletReady();
  const shaped = walletBody(body);
  const nonce = checkSiweMessage(shaped.message, shaped.address, { publicUrl: ctx.config.publicUrl, chainIds: deps.chainIds, secret: ctx.config.rbacJwtSecret });
  const { address } = await verifyWalletSignature(body);
  try {
    await ctx.repo.create(ctx.model.byId['rbac/nonce'], { value: sha256(nonce.nonce), expiresAt: nonce.expiresAt.toISOString() });
  } catch (e) {
    if (e instanceof HttpError && e.status === 409) throw new HttpError(401, 'Not authorized: the nonce was already used');
    throw e;
  }
  return address;
}
