import { and, eq, exists, inArray, ne, type SQL } from 'drizzle-orm';
import type { HookSet } from '../../../runtime/crud/hooks.js';
import type { PluginContext } from '../../../runtime/plugin.js';
import { HttpError, badRequest } from '../../../runtime/http/errors.js';
import { isPrivileged } from '../../../runtime/http/access.js';
import type { Accounts } from './accounts.js';

/**
 * What a permission's route may be (routeMatches in access.ts): a path from '/', each segment a name or '*' (any one
 * segment), the last one '**' too (the rest). Anything else never matches a request, and a permission with no role
 * is public: a typo would open or close nothing, silently.
 */
const ROUTE_PATTERN = /^(?:\/(?:\*|[^/*?#\s\\]+))+(?:\/\*\*)?$|^\/\*\*$/;
export const routeProblem = (route: unknown): string | undefined =>
  typeof route !== 'string' || ROUTE_PATTERN.test(route)
    ? undefined
    : `route must be a path from /, each segment a name or '*' (one segment), the last one '**' (the rest), as /api/blog/articles/*: not '${route.slice(0, 100)}'`;

/**
 * The accounts module's rules on every write path (generic CRUD, the admin, plugin routes):
 * - a subject that is deleted takes its logins with it: an identity linked to no other subject goes in the same
 *   transaction. Left behind, it kept its email registered ("An account with this email already exists") while no
 *   sign-in could reach it (an identity signs in to the subject it is linked to), and a reset reported success;
 * - a permission's route is one a request can match (`routeProblem`);
 * - an account whose email addresses were all never proven adds no further login: whoever registered an address they
 *   do not hold could otherwise add a login of their own, which outlived the owner's reset (F01). The system key and
 *   admins writing through the generic API are trusted with it;
 * - a login that is removed or unlinked ends the sessions it started (F02);
 * - an identity whose address (email or account) changes is no longer verified, and its reset code is void, whatever
 *   the path (F07): a verified identity renamed to an ADMIN_EMAILS address through the generic API stayed verified.
 */
export function accountHooks(ctx: PluginContext, accounts: Accounts): HookSet {
  const identity = ctx.model.byId['rbac/identity'];
  const link = () => ctx.database.tables['rbac/subjects-to-identities'];
  const checkRoute = (data: { route?: unknown }) => {
    const problem = routeProblem(data.route);
    if (problem) throw badRequest(problem, [{ field: 'route', rule: 'pattern', message: problem }]);
  };
  return {
    'rbac/permission': { beforeCreate: (data) => checkRoute(data), beforeUpdate: (data) => checkRoute(data) },
    'rbac/subject': {
      async beforeDelete(previous, { tx }) {
        const own: { id: string }[] = await tx.select({ id: link().identityId }).from(link()).where(eq(link().subjectId, previous.id));
        if (!own.length) return;
        const ids = own.map((r) => r.id);
        const shared: { id: string }[] = await tx
          .select({ id: link().identityId })
          .from(link())
          .where(and(inArray(link().identityId, ids), ne(link().subjectId, previous.id)));
        const keep = new Set(shared.map((r) => r.id));
        for (const id of new Set(ids)) if (!keep.has(id)) await ctx.repo.delete(identity, id, tx);
      },
    },
    'rbac/subjects-to-identities': {
      async beforeCreate(data, { tx, caller }) {
        // the system key and admins, through the generic API, act on their own word (they may set emailVerifiedAt too)
        if (caller && isPrivileged(caller)) return;
        const subjectId = data.subjectId as string;
        const [has] = await tx.select({ id: link().id }).from(link()).where(eq(link().subjectId, subjectId)).limit(1);
        // the first login (registration, an anonymous session's upgrade) is how an account starts
        if (has && (await accounts.onlyUnprovenEmails(subjectId, tx))) throw UNPROVEN();
      },
      async afterDelete(previous, { tx }) {
        await accounts.endSessionsOfLogin(tx, previous.subjectId as string, previous.identityId as string);
      },
    },
    'rbac/identity': {
      beforeUpdate(data, { previous }) {
        const changes = (field: 'email' | 'account') => field in data && String(data[field] ?? '').toLowerCase() !== String(previous[field] ?? '').toLowerCase();
        if (!changes('email') && !changes('account')) return;
        // an email login signs in with its address: the two stay one value
        if (previous.provider === 'email_and_password') {
          const address = changes('email') ? data.email : data.account;
          const email = typeof address === 'string' ? address.toLowerCase() : address;
          Object.assign(data, { email, account: email });
        }
        // a new address is unproven (unless the same write says when it was proven: the field is admins' and the
        // server's to write), and a reset code mailed to the old one proves nothing about it
        if (!('emailVerifiedAt' in data)) data.emailVerifiedAt = null;
        Object.assign(data, { code: null, codeExpiresAt: null });
      },
      async beforeDelete(previous, { tx }) {
        // its links go with it in the database, without their hooks: the sessions it started end here
        const owners: { id: string }[] = await tx.select({ id: link().subjectId }).from(link()).where(eq(link().identityId, previous.id));
        for (const { id } of owners) await accounts.endSessionsOfLogin(tx, id, previous.id as string);
      },
    },
  };
}

const UNPROVEN = () =>
  new HttpError(403, 'Verify your email address before adding another sign-in method: open the link we mailed to it', [
    { field: 'email', rule: 'verified', message: 'the account\'s email address is not verified yet' },
  ]);

/**
 * Subjects listed among the site's urls (the host's sitemap and /api/host/pages/urls): those with a sign-in method.
 * Each visitor's anonymous session is a subject (authentication/init), and would otherwise add an indexed page of
 * its own; a subject's page still answers at its url.
 */
export function listedOnPages(ctx: PluginContext): Record<string, (table: Record<string, unknown>) => SQL> {
  return {
    'rbac/subject': (table) => {
      const link = ctx.database.tables['rbac/subjects-to-identities'];
      return exists(ctx.database.db.select({ x: link.id }).from(link).where(eq(link.subjectId, table.id as never)));
    },
  };
}
