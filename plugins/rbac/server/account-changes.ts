import type { Context } from 'hono';
import { HttpError, badRequest } from '../../../runtime/http/errors.js';
import type { PluginContext } from '../../../runtime/plugin.js';
import type { NotificationService } from '../../notification/server/index.js';
import type { Accounts } from './accounts.js';
import { verifyPassword } from './passwords.js';
import type { Principal } from './principal.js';
import type { createRateLimiter } from './rate-limit.js';
import { VERIFY_PAGE, verificationCode } from './verification.js';
import { pathIn, requestLanguage } from '../../../runtime/http/language.js';
import { rbacMailWord, type AccountChange } from './mail-words.js';

type Row = Record<string, unknown>;

/** a subject without a password proves itself by a sign-in at most this old */
export const RECENT_SIGN_IN_MS = 10 * 60 * 1000;

export interface ChangeDeps {
  ctx: PluginContext;
  accounts: Accounts;
  limit: ReturnType<typeof createRateLimiter>;
  later: (job: () => Promise<unknown>) => void;
}

/**
 * Checks a current password, under the per-account sign-in limit (the same counter sign-in uses,
 * keyed by the identity's login), so that no route is a way around it. 429 before any scrypt work.
 */
export async function checkCurrentPassword(c: Context, { limit }: Pick<ChangeDeps, 'limit'>, identity: Row, given: string): Promise<boolean> {
  await limit(c, 'sign-in', String(identity.account ?? identity.email ?? identity.id));
  return verifyPassword(given, identity);
}

/**
 * Adding or changing a login needs more than a session (a 15-minute token anyone holding the
 * cookie has): the current password of the subject's email identity (or of `identity` when given),
 * or — for a subject that has no password — a sign-in in the last ten minutes. The system (secret
 * key) and an admin acting on another subject need neither.
 */
export async function proveOwner(
  c: Context,
  deps: ChangeDeps,
  p: Principal,
  subjectId: string,
  given: string | undefined,
  { field, identity }: { field: string; identity?: Row },
): Promise<void> {
  if (p.kind === 'system') return;
  if (p.kind !== 'subject') throw new HttpError(401, 'Not authorized');
  if (p.admin && p.subjectId !== subjectId) return;
  const candidates = identity ? (identity.password ? [identity] : []) : await deps.accounts.passwordIdentitiesOf(subjectId);
  if (candidates.length) {
    if (typeof given !== 'string' || !given) throw badRequest(`${field} is required: give the current password`, [{ field, rule: 'required', message: `${field} is required` }]);
    for (const row of candidates) if (await checkCurrentPassword(c, deps, row, given)) return;
    throw badRequest('The current password is wrong', [{ field, rule: 'match', message: `${field} is wrong` }]);
  }
  if (p.signedInAt.getTime() >= Date.now() - RECENT_SIGN_IN_MS) return;
  throw new HttpError(403, 'Not authorized: sign in again to add or change a sign-in method');
}

/** the storefront page a forgotten password is asked for at (plugins/rbac/web) */
export const FORGOT_PASSWORD_PAGE = '/rbac/subject/authentication/email-and-password/forgot-password';
/** the storefront's email and password sign-in page */
export const SIGN_IN_PAGE = '/rbac/subject/authentication/email-and-password/authentication';

/**
 * The mails an account change sends: verification of a new address, notices to the old ones. Each is written in the
 * language of the page the request came from (`requestLanguage`), its links to the pages in that language.
 */
export function accountMail({ ctx, later }: ChangeDeps) {
  const notifications = () => ctx.services.notification as NotificationService;
  const send = (to: string, subject: string, text: string, template: string, language: string, secrets?: string[]) =>
    later(async () => {
      const sent = await notifications().sendEmail({ to, subject, text, template, secrets, language });
      if (sent.status === 'failed') ctx.log.warn({ notification: sent.id, template }, 'account email failed');
    });
  const page = (language: string, path: string) => `${ctx.config.publicUrl}${pathIn(language, path, ctx.model)}`;
  return {
    /** the language a request's mails are written in */
    languageOf: (c: Context) => requestLanguage(c, ctx.model),
    /** a code (and a link holding it) that proves the address; it is redacted from the stored notification */
    verify(identityId: string, email: string, language: string) {
      const code = verificationCode(ctx.config.rbacJwtSecret, identityId, email);
      const link = `${page(language, VERIFY_PAGE)}?code=${encodeURIComponent(code)}`;
      send(email, rbacMailWord('verifySubject', language), rbacMailWord('verifyText', language, { link, code }), 'verify-email', language, [...new Set([code, encodeURIComponent(code)])]);
    },
    /** the owner of an address someone registered again: nothing changed, and where to sign in or reset (F10) */
    registeredAgain(email: string, language: string) {
      const text = rbacMailWord('registeredAgainText', language, { signIn: page(language, SIGN_IN_PAGE), reset: page(language, FORGOT_PASSWORD_PAGE) });
      send(email, rbacMailWord('registeredAgainSubject', language), text, 'account-changed', language);
    },
    /** the address proven for the first time, when that removed the account's other logins (F01) */
    addressProven(email: string, logins: string[], language: string) {
      send(email, rbacMailWord('addressProvenSubject', language), rbacMailWord('addressProvenText', language, { email, logins: logins.join(', ') }), 'account-changed', language);
    },
    /** tells addresses about a change to the account they belong to (`vars` fill its text) */
    tell(to: string[], change: AccountChange, vars: Record<string, string>, language: string) {
      const text = `${rbacMailWord(`${change}Text`, language, vars)}\n\n${rbacMailWord('notYou', language, { link: page(language, FORGOT_PASSWORD_PAGE) })}`;
      for (const address of new Set(to)) send(address, rbacMailWord(`${change}Subject`, language), text, 'account-changed', language);
    },
  };
}
