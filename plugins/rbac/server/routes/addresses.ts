import type { Hono } from 'hono';
import { and, eq, isNull } from 'drizzle-orm';
import { readBody } from '../../../../runtime/crud/body.js';
import { bodyValidator } from '../../../../runtime/crud/validate.js';
import { HttpError, badRequest } from '../../../../runtime/http/errors.js';
import { lockRow } from '../../../../runtime/db/lock.js';
import { pathIn } from '../../../../runtime/http/language.js';
import { hashPassword } from '../passwords.js';
import { principalOf } from '../principal.js';
import { newCode, sha256 } from '../tokens.js';
import type { NotificationService } from '../../../notification/server/index.js';
import { accountMail, checkCurrentPassword } from '../account-changes.js';
import { loginWord, rbacMailWord } from '../mail-words.js';
import { codeMatches, readVerificationCode } from '../verification.js';
import { EMAIL, PASSWORD, strict, type RouteDeps } from './authentication.js';

export const RESET_CODE_TTL_MS = 60 * 60 * 1000;
/** the storefront page the reset link opens (plugins/rbac/web) */
const RESET_PASSWORD_PAGE = '/rbac/subject/authentication/email-and-password/reset-password';

const forgot = bodyValidator<{ email: string }>(strict({ email: EMAIL }));
const reset = bodyValidator<{ code: string; password: string; passwordConfirmation: string }>(
  strict({ code: { type: 'string', minLength: 1, maxLength: 200 }, password: PASSWORD, passwordConfirmation: PASSWORD }),
);
const verifyBody = bodyValidator<{ code: string; password?: string }>(strict({ code: { type: 'string', minLength: 1, maxLength: 200 }, password: { type: 'string', maxLength: 1024 } }, ['code']));
const resendBody = bodyValidator<{ identityId: string }>(strict({ identityId: { type: 'string', format: 'uuid' } }));

/**
 * Proving an address (docs/ACCOUNTS.md): the verification code, and the reset code of a forgotten password. A code
 * proves that its holder reads the mailbox; only the reset also proves who the account is: the holder chooses its
 * password. So a verification code verifies only with the account's own proof beside it (its session, or its password),
 * and a reset that proves an address for the first time hands the account to the mailbox's holder alone.
 */
export function addressRoutes(app: Hono, deps: RouteDeps) {
  const { ctx, accounts, limit, later } = deps;
  const base = '/api/rbac/subjects/authentication';
  const identity = ctx.model.byId['rbac/identity'];
  const notifications = () => ctx.services.notification as NotificationService;
  const mail = accountMail(deps);
  const invalidCode = () => badRequest('The verification code is invalid or has expired', [{ field: 'code', rule: 'code', message: 'code is invalid or has expired' }]);

  /**
   * The code from a verification email, posted by the storefront's verify page once the visitor clicks (F01: a mail
   * scanner opening the link verifies nothing), with the account's proof: a session of the subject the identity
   * belongs to, or else the identity's password. Whoever registered an address they do not hold has the password but
   * never the code; the address's owner has the code but not the squatter's password, and resets it instead.
   */
  app.post(`${base}/email-and-password/verify`, async (c) => {
    const { code, password } = verifyBody((await readBody(c)).data);
    await limit(c, 'verify-email');
    const parsed = readVerificationCode(code);
    if (!parsed) throw invalidCode();
    const row = await accounts.identityWithSecrets(parsed.identityId);
    if (!row || row.provider !== 'email_and_password' || typeof row.email !== 'string' || !codeMatches(ctx.config.rbacJwtSecret, parsed, row.email)) throw invalidCode();
    if (row.emailVerifiedAt == null) {
      const p = await principalOf(c, ctx, accounts);
      const owner = await accounts.subjectIdOfIdentity(row.id as string);
      const holder = p.kind === 'subject' && !!owner && p.subjectId === owner;
      if (!holder) {
        if (!password) {
          throw badRequest('Sign in, or give the password of the account this address belongs to', [
            { field: 'password', rule: 'required', message: 'password is required: sign in, or give the account\'s password' },
          ]);
        }
        if (!(await checkCurrentPassword(c, deps, row, password))) throw badRequest('The password is wrong', [{ field: 'password', rule: 'match', message: 'password is wrong' }]);
      }
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

  /**
   * A new password with the code mailed to the address. It ends every session of the account. When it proves the
   * address for the first time, the account was until now whoever registered it: every other login goes too (F01),
   * so that a squatter's own wallet or address does not outlive the owner's reset.
   */
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
    const language = mail.languageOf(c);
    const claimed = await ctx.database.transaction(async (tx) => {
      // a code is used once: of resets sent at the same moment with it, the first to hold the identity wins, and the
      // others find the code gone
      await lockRow(ctx.database, tx, identity.id, found.id as string);
      const current = await accounts.identityWithSecrets(found.id as string, tx);
      if (current?.code !== found.code) {
        throw badRequest('The reset code is invalid or has expired', [{ field: 'code', rule: 'code', message: 'code is invalid or has expired' }]);
      }
      const firstProof = current!.emailVerifiedAt == null;
      // the code came to this address (a change of address clears codes): it proves the address too
      await ctx.repo.update(identity, found.id as string, { ...secret, code: null, codeExpiresAt: null, ...(firstProof && { emailVerifiedAt: new Date().toISOString() }) }, tx);
      const subjectId = await accounts.subjectIdOfIdentity(found.id as string, tx);
      if (!subjectId) return undefined;
      await accounts.clearCodes(subjectId, tx);
      if (firstProof) return accounts.claimAddress(tx, subjectId, found.id as string);
      await accounts.revokeAll(subjectId, 'password-reset', tx);
      return undefined;
    });
    if (claimed?.removed.length) {
      const logins = claimed.removed.map((r) => loginWord(r.provider, String(r.provider === 'email_and_password' ? (r.email ?? r.account) : r.account), language));
      mail.addressProven(found.email as string, logins, language);
    }
    return c.json({ data: { message: 'Password reset successfully' } });
  });
}
