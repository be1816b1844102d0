import type { Context, Hono } from 'hono';
import type { PluginContext } from '../../../../runtime/plugin.js';
import type { Drizzle } from '../../../../runtime/db/index.js';
import { readBody } from '../../../../runtime/crud/body.js';
import { bodyValidator } from '../../../../runtime/crud/validate.js';
import { HttpError, badRequest, fromDatabaseError } from '../../../../runtime/http/errors.js';
import type { Accounts } from '../accounts.js';
import type { createAccess } from '../access.js';
import type { createRateLimiter } from '../rate-limit.js';
import { hashPassword, verifyPassword, PASSWORD_MIN } from '../passwords.js';
import { principalOf } from '../principal.js';
import { sha256, signAccessToken } from '../tokens.js';
import { checkSiweMessage, issueNonce, verifyWalletSignature, walletBody, walletReady } from '../wallet.js';
import { verifyTelegramLogin } from '../telegram.js';
import { clearSessionCookie, setSessionCookie, signIn } from './session.js';
import { accountMail, proveOwner } from '../account-changes.js';
import { loginWord } from '../mail-words.js';

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

export const EMAIL = { type: 'string', format: 'email', maxLength: 254 };
export const PASSWORD = { type: 'string', minLength: PASSWORD_MIN, maxLength: 1024 };
export const strict = (properties: Record<string, unknown>, required = Object.keys(properties)) => ({ type: 'object', additionalProperties: false, properties, required });

/** registration and sign-in take exactly these fields: roles, provider or subject ids in a body are refused */
const credentials = bodyValidator<{ login: string; password: string }>(strict({ login: EMAIL, password: PASSWORD }));
const refreshBody = bodyValidator<{ refresh: string }>(strict({ refresh: { type: 'string', maxLength: 200 } }));

/** the routes of spec §7 under /api/rbac/subjects/authentication */
export function authenticationRoutes(app: Hono, deps: RouteDeps) {
  const { ctx, accounts, access, limit } = deps;
  const base = '/api/rbac/subjects/authentication';
  const identity = ctx.model.byId['rbac/identity'];
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
    return c.json({ data: await signIn(c, ctx, accounts, subjectId, found!.id as string) });
  });

  /**
   * A new account: the same answer for an address that has one already and for a new one (F10), as forgot-password
   * gives: 201 with a session. For a taken address the session is of no account (the visitor's own anonymous
   * subject, or a new one, as authentication/init makes) and the address's owner is mailed where to sign in or reset;
   * nothing of the account changes.
   */
  app.post(`${base}/email-and-password/registration`, async (c) => {
    const { login, password } = credentials((await readBody(c)).data);
    await limit(c, 'registration', login);
    const email = login.toLowerCase();
    const secret = await hashPassword(password);
    const anonymous = await anonymousOf(c);
    const language = mail.languageOf(c);
    const made = await ctx.database.transaction(async (tx) => {
      if (await accounts.identityBy('email_and_password', email, tx)) return undefined;
      return accounts.register({ provider: 'email_and_password', account: email, email, emailVerifiedAt: null, ...secret }, tx, anonymous?.subjectId);
    }).catch((e) => {
      const error = fromDatabaseError(e, identity) ?? e;
      // the same address registered at the same moment (the unique key refused this one): taken, as a moment later
      if (error instanceof HttpError && error.status === 409) return undefined;
      throw error;
    });
    if (anonymous) await accounts.revoke(anonymous.sessionId, 'upgraded');
    if (!made) {
      const subjectId = anonymous?.subjectId ?? ((await ctx.repo.create(ctx.model.byId['rbac/subject'], {})).id as string);
      mail.registeredAgain(email, language);
      return c.json({ data: await signIn(c, ctx, accounts, subjectId) }, 201);
    }
    mail.verify(made.identityId, email, language);
    return c.json({ data: await signIn(c, ctx, accounts, made.subjectId, made.identityId) }, 201);
  });

  /**
   * Sign in with a wallet signature. The first sign-in makes the subject; a signed-in subject
   * links the wallet to itself. A wallet is never linked to an account by anyone else.
   */
  async function thirdParty(c: Context, provider: 'ethereum_virtual_machine' | 'telegram', account: string, currentPassword: unknown, once?: OneTime) {
    const anonymous = await anonymousOf(c);
    const p = anonymous ? ({ kind: 'anonymous' } as const) : await principalOf(c, ctx, accounts);
    let linking = false;
    if (p.kind === 'subject') {
      // linking a new login to the signed-in subject needs the owner's proof, as any added login does
      const existing = await accounts.identityBy(provider, account);
      linking = !(existing && (await accounts.subjectIdOfIdentity(existing.id as string)));
      if (linking) await proveOwner(c, deps, p, p.subjectId, typeof currentPassword === 'string' ? currentPassword : undefined, { field: 'currentPassword' });
    }
    const signed = await ctx.database.transaction(async (tx): Promise<{ subjectId: string; identityId: string }> => {
      // used up with the sign-in it makes, not before: a refused proof leaves it usable for the next attempt
      if (once) await useOnce(ctx, once, tx);
      const existing = await accounts.identityBy(provider, account, tx);
      if (existing) {
        const owner = await accounts.subjectIdOfIdentity(existing.id as string, tx);
        if (owner) return { subjectId: owner, identityId: existing.id as string };
      }
      if (p.kind === 'subject') {
        const created = existing ?? (await ctx.repo.create(identity, { provider, account }, tx));
        await accounts.linkIdentity(tx, p.subjectId, created.id as string);
        return { subjectId: p.subjectId, identityId: created.id as string };
      }
      return accounts.register({ provider, account }, tx, anonymous?.subjectId);
    });
    if (anonymous) await accounts.revoke(anonymous.sessionId, 'upgraded');
    if (linking && p.kind === 'subject' && signed.subjectId === p.subjectId) {
      const language = mail.languageOf(c);
      mail.tell(await accounts.emailsOf(signed.subjectId), 'methodAdded', { login: loginWord(provider, account, language) }, language);
    }
    return c.json({ data: await signIn(c, ctx, accounts, signed.subjectId, signed.identityId) });
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
    // a signed payload signs in once (F11): its hash is kept until it would be too old anyway
    return thirdParty(c, 'telegram', user.id, currentPassword, { value: `telegram:${user.hash}`, expiresAt: user.expiresAt, message: 'Not authorized: this Telegram login was already used' });
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
  await useOnce(ctx, { value: nonce.nonce, expiresAt: nonce.expiresAt, message: 'Not authorized: the nonce was already used' });
  return address;
}

/** a value that works once (a wallet nonce, a Telegram payload's hash) until it expires; `message` refuses a second use */
interface OneTime {
  value: string;
  expiresAt: Date;
  message: string;
}

/**
 * Records a one-time value as used, by its hash, until it expires: a second use is a 401 with its message. The unique
 * key decides between two uses at the same moment (inside `tx`, the loser's whole transaction is undone).
 */
async function useOnce(ctx: PluginContext, once: OneTime, tx?: Drizzle) {
  const nonce = ctx.model.byId['rbac/nonce'];
  try {
    await ctx.repo.create(nonce, { value: sha256(once.value), expiresAt: once.expiresAt.toISOString() }, tx);
  } catch (e) {
    const error = fromDatabaseError(e, nonce) ?? e;
    if (error instanceof HttpError && error.status === 409) throw new HttpError(401, once.message);
    throw error;
  }
}
