import { and, eq, exists, inArray, ne, type SQL } from 'drizzle-orm';
import type { HookSet } from '../../../runtime/crud/hooks.js';
import type { PluginContext } from '../../../runtime/plugin.js';
import { badRequest } from '../../../runtime/http/errors.js';

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
 * - a permission's route is one a request can match (`routeProblem`).
 */
export function accountHooks(ctx: PluginContext): HookSet {
  const identity = ctx.model.byId['rbac/identity'];
  const checkRoute = (data: { route?: unknown }) => {
    const problem = routeProblem(data.route);
    if (problem) throw badRequest(problem, [{ field: 'route', rule: 'pattern', message: problem }]);
  };
  return {
    'rbac/permission': { beforeCreate: (data) => checkRoute(data), beforeUpdate: (data) => checkRoute(data) },
    'rbac/subject': {
      async beforeDelete(previous, { tx }) {
        const link = ctx.database.tables['rbac/subjects-to-identities'];
        const own: { id: string }[] = await tx.select({ id: link.identityId }).from(link).where(eq(link.subjectId, previous.id));
        if (!own.length) return;
        const ids = own.map((r) => r.id);
        const shared: { id: string }[] = await tx
          .select({ id: link.identityId })
          .from(link)
          .where(and(inArray(link.identityId, ids), ne(link.subjectId, previous.id)));
        const keep = new Set(shared.map((r) => r.id));
        for (const id of new Set(ids)) if (!keep.has(id)) await ctx.repo.delete(identity, id, tx);
      },
    },
  };
}

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
