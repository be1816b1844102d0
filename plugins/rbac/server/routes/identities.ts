import type { Context, Hono } from 'hono';
import { UUID_RE } from '../../../../engine/fields/index.js';
import { readBody, readOptionalBody } from '../../../../runtime/crud/body.js';
import { bodyValidator } from '../../../../runtime/crud/validate.js';
import { HttpError, badRequest, fromDatabaseError } from '../../../../runtime/http/errors.js';
import { refusal } from '../../../../runtime/http/routes-known.js';
import { hashPassword } from '../passwords.js';
import { isPrivileged, principalOf, requireSelf, requireSubject, type Principal } from '../principal.js';
import type { NotificationService } from '../../../notification/server/index.js';
import { accountMail, checkCurrentPassword, proveOwner } from '../account-changes.js';
import { loginWord } from '../mail-words.js';
import { EMAIL, PASSWORD, strict, verifiedWallet, type RouteDeps } from './authentication.js';

/** a new email login: its address and password, and the current password of the account (when it has one) */
const newIdentity = bodyValidator<{ email: string; password: string; currentPassword?: string }>(
  strict({ email: EMAIL, password: PASSWORD, currentPassword: { type: 'string', maxLength: 1024 } }, ['email', 'password']),
);
const changePassword = bodyValidator<{ password: string; newPassword: string }>(strict({ password: PASSWORD, newPassword: PASSWORD }));
/** a new address, with the identity's current password */
const changeEmail = bodyValidator<{ email: string; password?: string }>(strict({ email: EMAIL, password: { type: 'string', maxLength: 1024 } }, ['email']));
const removeIdentity = bodyValidator<{ currentPassword?: string }>(strict({ currentPassword: { type: 'string', maxLength: 1024 } }));
const notifyBody = bodyValidator<{ title: string; text: string }>(strict({ title: { type: 'string', minLength: 1, maxLength: 200 }, text: { type: 'string', minLength: 1, maxLength: 20000 } }));

function uuidParam(c: Context, name: string): string {
  const v = c.req.param(name) ?? '';
  if (!UUID_RE.test(v)) throw badRequest(`${name} must be a UUID`, [{ field: name, rule: 'format', message: `${name} must be a UUID` }]);
  return v.toLowerCase();
}

/** the subject's identities (spec §7): every route checks that the subject is the caller's own */
export function identityRoutes(app: Hono, deps: RouteDeps) {
  const { ctx, accounts } = deps;
  const identity = ctx.model.byId['rbac/identity'];
  const subjects = '/api/rbac/subjects';
  const mail = accountMail(deps);

  /** the identity, if it belongs to the subject; another subject's identity is not found */
  async function ownedIdentity(subjectId: string, identityId: string) {
    const owner = await accounts.subjectIdOfIdentity(identityId);
    const row = owner === subjectId ? await accounts.identityWithSecrets(identityId) : undefined;
    if (!row) throw new HttpError(404, `No rbac/identity with id ${identityId}`);
    return row;
  }

  /**
   * A new email login for the subject, after the owner's proof (the current password): unverified
   * until the code sent to it comes back; the subject's other addresses are told.
   */
  async function addEmailIdentity(c: Context, p: Principal, subjectId: string, body: { email: string; password: string; currentPassword?: string }) {
    await proveOwner(c, deps, p, subjectId, body.currentPassword, { field: 'currentPassword' });
    const email = body.email.toLowerCase();
    const before = await accounts.emailsOf(subjectId);
    const secret = await hashPassword(body.password);
    const row = await ctx.database.transaction(async (tx) => {
      if (await accounts.identityBy('email_and_password', email, tx)) {
        throw new HttpError(409, 'An account with this email already exists', [{ field: 'email', rule: 'unique', message: 'email is already registered' }]);
      }
      const created = await ctx.repo.create(identity, { provider: 'email_and_password', account: email, email, emailVerifiedAt: null, ...secret }, tx);
      await accounts.linkIdentity(tx, subjectId, created.id as string);
      return created;
    }).catch((e) => {
      throw fromDatabaseError(e, identity) ?? e;
    });
    const language = mail.languageOf(c);
    mail.verify(row.id as string, email, language);
    mail.tell(before, 'emailAdded', { email }, language);
    return row;
  }

  /** checks the current password (under the sign-in limit), stores the new one, clears reset codes and ends the subject's other sessions */
  async function setPassword(c: Context, p: Principal, subjectId: string, row: Record<string, unknown>, current: string, next: string) {
    if (row.provider !== 'email_and_password') throw badRequest('Only an email and password identity has a password');
    if (!(await checkCurrentPassword(c, deps, row, current))) {
      throw badRequest('The current password is wrong', [{ field: 'password', rule: 'match', message: 'password is wrong' }]);
    }
    const secret = await hashPassword(next);
    await ctx.database.transaction(async (tx) => {
      await ctx.repo.update(identity, row.id as string, secret, tx);
      await accounts.clearCodes(subjectId, tx);
      await accounts.revokeAll(subjectId, 'password-change', tx, p.kind === 'subject' ? p.sessionId : undefined);
    });
    return ctx.repo.getOrThrow(identity, row.id as string);
  }

  /**
   * A new address for an email identity, after the identity's current password: it is unverified
   * until the code sent to it comes back, outstanding reset codes are void, and the old address is told.
   */
  async function setEmail(c: Context, p: Principal, subjectId: string, row: Record<string, unknown>, body: { email: string; password?: string }) {
    if (row.provider !== 'email_and_password') throw badRequest('Only an email and password identity has an email to change');
    await proveOwner(c, deps, p, subjectId, body.password, { field: 'password', identity: row });
    const email = body.email.toLowerCase();
    const previous = typeof row.email === 'string' ? row.email : undefined;
    if (email === previous) return ctx.repo.getOrThrow(identity, row.id as string);
    const taken = await accounts.identityBy('email_and_password', email);
    if (taken && taken.id !== row.id) throw new HttpError(409, 'An account with this email already exists', [{ field: 'email', rule: 'unique', message: 'email is already registered' }]);
    const updated = await ctx.database.transaction(async (tx) => {
      await accounts.clearCodes(subjectId, tx);
      return ctx.repo.update(identity, row.id as string, { email, account: email, emailVerifiedAt: null, code: null, codeExpiresAt: null }, tx);
    }).catch((e) => {
      throw fromDatabaseError(e, identity) ?? e;
    });
    const language = mail.languageOf(c);
    mail.verify(row.id as string, email, language);
    if (previous) mail.tell([previous], 'emailChanged', { previous, email }, language);
    return updated;
  }

  app.get(`${subjects}/:id/identities`, async (c) => {
    const subjectId = uuidParam(c, 'id');
    await requireSelf(c, ctx, accounts, subjectId);
    return c.json({ data: await accounts.identitiesOf(subjectId) });
  });

  app.post(`${subjects}/:id/identities`, async (c) => {
    const subjectId = uuidParam(c, 'id');
    const p = await requireSelf(c, ctx, accounts, subjectId);
    const data = (await readBody(c)).data;
    // { message, signature, address }: a wallet for the subject, with the sign-in message rules (EIP-4361)
    if (data && typeof data === 'object' && !Array.isArray(data) && ('signature' in data || 'address' in data)) {
      return c.json({ data: await addWalletIdentity(c, p, subjectId, data as Record<string, unknown>) }, 201);
    }
    const body = newIdentity(data);
    return c.json({ data: await addEmailIdentity(c, p, subjectId, body) }, 201);
  });

  /** a wallet login for the subject: its signature checked as for sign-in, then the owner's proof (the current password) */
  async function addWalletIdentity(c: Context, p: Principal, subjectId: string, body: Record<string, unknown>) {
    const { currentPassword, ...signed } = body;
    const address = await verifiedWallet(c, deps, signed);
    const existing = await accounts.identityBy('ethereum_virtual_machine', address);
    const owner = existing ? await accounts.subjectIdOfIdentity(existing.id as string) : undefined;
    if (owner === subjectId) throw new HttpError(409, 'This wallet is already a login of this account', [{ field: 'address', rule: 'unique', message: 'address is already linked' }]);
    if (owner) throw new HttpError(409, 'This wallet is a login of another account', [{ field: 'address', rule: 'unique', message: 'address is linked to another account' }]);
    await proveOwner(c, deps, p, subjectId, typeof currentPassword === 'string' ? currentPassword : undefined, { field: 'currentPassword' });
    const row = await ctx.database.transaction(async (tx) => {
      const created = existing ?? (await ctx.repo.create(identity, { provider: 'ethereum_virtual_machine', account: address }, tx));
      await accounts.linkIdentity(tx, subjectId, created.id as string);
      return created;
    });
    const language = mail.languageOf(c);
    mail.tell(await accounts.emailsOf(subjectId), 'methodAdded', { login: loginWord('ethereum_virtual_machine', address, language) }, language);
    return row;
  }

  const identityIdRequired = refusal(async (c: Context) => {
    await requireSelf(c, ctx, accounts, uuidParam(c, 'id'));
    throw badRequest('identityId is required', [{ field: 'identityId', rule: 'required', message: 'identityId is required' }]);
  });
  app.patch(`${subjects}/:id/identities`, identityIdRequired);
  app.delete(`${subjects}/:id/identities`, identityIdRequired);

  app.patch(`${subjects}/:id/identities/:identityId`, async (c) => {
    const subjectId = uuidParam(c, 'id');
    const p = await requireSelf(c, ctx, accounts, subjectId);
    const row = await ownedIdentity(subjectId, uuidParam(c, 'identityId'));
    const data = (await readBody(c)).data;
    // a new email (with the current password), or a new password: two bodies, each validated as itself
    if (data && typeof data === 'object' && 'email' in data) return c.json({ data: await setEmail(c, p, subjectId, row, changeEmail(data)) });
    const body = changePassword(data);
    return c.json({ data: await setPassword(c, p, subjectId, row, body.password, body.newPassword) });
  });

  /**
   * Removing a login is a change of the account like adding one: the owner's proof (`currentPassword`, in an optional
   * body), and every address of the account, the removed one included, is told.
   */
  app.delete(`${subjects}/:id/identities/:identityId`, async (c) => {
    const subjectId = uuidParam(c, 'id');
    const p = await requireSelf(c, ctx, accounts, subjectId);
    const row = await ownedIdentity(subjectId, uuidParam(c, 'identityId'));
    if ((await accounts.countIdentities(subjectId)) <= 1) throw badRequest('An account keeps at least one identity: add another before deleting this one');
    const { currentPassword } = removeIdentity((await readOptionalBody(c)).data ?? {});
    await proveOwner(c, deps, p, subjectId, currentPassword, { field: 'currentPassword' });
    const told = await accounts.emailsOf(subjectId);
    const deleted = await ctx.repo.delete(identity, row.id as string);
    const language = mail.languageOf(c);
    const login = loginWord(row.provider, String(row.provider === 'email_and_password' ? (row.email ?? row.account) : row.account), language);
    mail.tell(told, 'methodRemoved', { login }, language);
    return c.json({ data: deleted });
  });

  app.patch('/api/rbac/identities/:id/change-password', async (c) => {
    const identityId = uuidParam(c, 'id');
    const p = await principalOf(c, ctx, accounts);
    if (p.kind === 'anonymous') throw new HttpError(401, 'Not authorized');
    const owner = await accounts.subjectIdOfIdentity(identityId);
    if (!owner || (!isPrivileged(p) && !(p.kind === 'subject' && p.subjectId === owner))) throw new HttpError(isPrivileged(p) ? 404 : 403, isPrivileged(p) ? `No rbac/identity with id ${identityId}` : 'Not authorized');
    const { password, newPassword } = changePassword((await readBody(c)).data);
    return c.json({ data: await setPassword(c, p, owner, (await accounts.identityWithSecrets(identityId))!, password, newPassword) });
  });

  app.post('/api/rbac/identities/email-and-password', async (c) => {
    const p = await requireSubject(c, ctx, accounts, 'POST /api/rbac/subjects/{id}/identities');
    const body = newIdentity((await readBody(c)).data);
    return c.json({ data: await addEmailIdentity(c, p, p.subjectId, body) }, 201);
  });

  app.post(`${subjects}/:id/notify`, async (c) => {
    const subjectId = uuidParam(c, 'id');
    const p = await principalOf(c, ctx, accounts);
    if (!isPrivileged(p)) throw new HttpError(p.kind === 'anonymous' ? 401 : 403, 'Not authorized');
    await ctx.repo.getOrThrow(ctx.model.byId['rbac/subject'], subjectId);
    const { title, text } = notifyBody((await readBody(c)).data);
    // every address of the subject (emails, Telegram), through the notification module's templates
    const sent = await (ctx.services.notification as NotificationService).toSubject(subjectId, { subject: title, text });
    if (!sent.length) throw badRequest('The subject has no email or Telegram account to notify');
    return c.json({ data: sent });
  });
}
