import type { Context, MiddlewareHandler } from 'hono';
import { and, eq } from 'drizzle-orm';
import { UUID_RE } from '../../../engine/fields/index.js';
import type { Entity } from '../../../engine/model.js';
import { HttpError } from '../../../runtime/http/errors.js';
import type { Authorizer } from '../../../runtime/http/access.js';
import type { PluginContext } from '../../../runtime/plugin.js';
import type { Accounts } from './accounts.js';
import { isPrivileged, principalOf } from './principal.js';

/** '*' matches one path segment; a final '**' matches the rest (zero or more segments) */
export function routeMatches(pattern: string, path: string): boolean {
  const p = pattern.split('/').filter(Boolean);
  const s = path.split('?')[0].split('/').filter(Boolean);
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '**' && i === p.length - 1) return true;
    if (i >= s.length) return false;
    if (p[i] !== '*' && p[i] !== s[i]) return false;
  }
  return p.length === s.length;
}

const CRUD_SUFFIXES = new Set(['count', 'bulk', 'find-or-create']);

const routeIndex = new WeakMap<object, Map<string, Entity>>();

/** the entity a generic CRUD path addresses, when it is one */
export function crudEntityOf(ctx: PluginContext, path: string): Entity | undefined {
  const [api, module, route, ...rest] = path.split('?')[0].split('/').filter(Boolean);
  if (api !== 'api' || rest.length > 1) return undefined;
  let index = routeIndex.get(ctx.model);
  if (!index) routeIndex.set(ctx.model, (index = new Map(ctx.model.entities.map((e) => [`${e.module}/${e.route}`, e]))));
  const entity = index.get(`${module}/${route}`);
  if (!entity) return undefined;
  if (rest.length === 1 && !CRUD_SUFFIXES.has(rest[0]) && !UUID_RE.test(rest[0])) return undefined;
  return entity;
}

/**
 * The one decision every route passes, generated or plugin:
 * reads of public entities are open; the system and admins may do everything; otherwise a
 * permission (method + route pattern) must match — one with no role is public, one with roles
 * needs the subject to hold one of them.
 */
export function createAccess(ctx: PluginContext, accounts: Accounts) {
  async function decide(c: Context, method: string, path: string): Promise<void> {
    const entity = crudEntityOf(ctx, path);
    if (entity && entity.access === 'public' && method === 'GET') return;
    const p = await principalOf(c, ctx, accounts);
    if (isPrivileged(p)) return;
    const matching = (await accounts.permissionsFor(method)).filter((perm) => routeMatches(perm.route, path));
    if (matching.some((perm) => perm.roleIds.includes(null))) return;
    if (p.kind === 'subject' && matching.some((perm) => perm.roleIds.some((r) => r && p.roleIds.includes(r)))) return;
    throw new HttpError(p.kind === 'anonymous' ? 401 : 403, 'Not authorized');
  }

  // entities subjects own through an rbac/subjects-to-… relation (orders, identities, profiles, …)
  const ownedThrough = new Map<string, { relation: Entity; subjectField: string; targetField: string }>();
  for (const rel of ctx.model.entities) {
    if (rel.module !== 'rbac' || !rel.relation) continue;
    const [a, b] = rel.relation.map((n) => rel.fields.find((f) => f.name === n)!);
    if (a?.target === 'rbac/subject' && b?.target && b.target !== 'rbac/subject') ownedThrough.set(b.target, { relation: rel, subjectField: a.name, targetField: b.name });
  }
  const subjectFields = (e: Entity) => e.fields.filter((f) => f.kind === 'reference' && f.target === 'rbac/subject').map((f) => f.name);

  /**
   * After the permission check, for a subject that is not an admin: a row that points at a subject
   * must point at this one (checked on the row as it will be after the write), and an owned row
   * must be linked to this subject. Lists of owned entities go through the subject's own routes.
   */
  async function checkOwnership(c: Context, entity: Entity, operation: string, row?: Record<string, unknown>) {
    const p = await principalOf(c, ctx, accounts);
    if (p.kind !== 'subject' || p.admin) return;
    const owned = ownedThrough.get(entity.id);
    if ((owned || subjectFields(entity).length) && (operation === 'list' || operation === 'count')) throw new HttpError(403, 'Not authorized');
    if (!row) return;
    for (const f of subjectFields(entity)) {
      if (row[f] !== undefined && row[f] !== p.subjectId) throw new HttpError(403, 'Not authorized');
    }
    if (owned && typeof row.id === 'string') {
      const t = ctx.database.tables[owned.relation.id];
      const [link] = await ctx.database.db.select({ id: t.id }).from(t)
        .where(and(eq(t[owned.subjectField], p.subjectId), eq(t[owned.targetField], row.id))).limit(1);
      if (!link) throw new HttpError(403, 'Not authorized');
    }
  }

  const authorizer: Authorizer = async (c, { entity, operation, row }) => {
    await decide(c, c.req.method, c.req.path);
    await checkOwnership(c, entity, operation, row);
  };

  /** plugin routes are checked here; generic CRUD routes by the authorizer, which also sees the row */
  const middleware: MiddlewareHandler = async function authorizeRoute(c, next) {
    if (!crudEntityOf(ctx, c.req.path)) await decide(c, c.req.method, c.req.path);
    await next();
  };

  return { decide, authorizer, middleware };
}
