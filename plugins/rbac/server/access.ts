import type { Context, MiddlewareHandler } from 'hono';
import { UUID_RE } from '../../../engine/fields/index.js';
import type { Entity } from '../../../engine/model.js';
import { HttpError } from '../../../runtime/http/errors.js';
import { ANONYMOUS, SYSTEM, publicReads, type Authorizer, type CallerOf, type Permits } from '../../../runtime/http/access.js';
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

/** the last path asked about (the route middleware and the authorizer ask about the same path, one after the other) */
let last: { model: object; method: string; path: string; entity: Entity | undefined } | undefined;

/** the entity a generic CRUD path addresses, when it is one */
export function crudEntityOf(ctx: PluginContext, method: string, path: string): Entity | undefined {
  if (last && last.path === path && last.method === method && last.model === ctx.model) return last.entity;
  const entity = findCrudEntity(ctx, method, path);
  last = { model: ctx.model, method, path, entity };
  return entity;
}

function findCrudEntity(ctx: PluginContext, method: string, path: string): Entity | undefined {
  const [api, module, route, ...rest] = path.split('?')[0].split('/').filter(Boolean);
  if (api !== 'api' || rest.length > 1) return undefined;
  let index = routeIndex.get(ctx.model);
  if (!index) routeIndex.set(ctx.model, (index = new Map(ctx.model.entities.map((e) => [`${e.module}/${e.route}`, e]))));
  const entity = index.get(`${module}/${route}`);
  if (!entity) return undefined;
  // any other last segment is a plugin's route when one is declared there, else the generic item route's, which
  // answers 400 for an id that is not a UUID (whoever asks: the shape of a path is no secret)
  if (rest.length === 1 && !CRUD_SUFFIXES.has(rest[0]) && !UUID_RE.test(rest[0]) && ctx.hasDeclaredRoute?.(method, path) !== false) return undefined;
  return entity;
}

/** a path below one subject's (not the subject's own CRUD path, nor authentication/…) */
const UNDER_SUBJECT = /^\/api\/rbac\/subjects\/([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\/./;

/** the method a request is routed and authorized as: a HEAD is its GET without the body (hono answers it so) */
const routed = (method: string) => (method === 'HEAD' ? 'GET' : method);

/**
 * The one decision every route passes, generated or plugin:
 * reads of public entities are open; the system and admins may do everything; otherwise a
 * permission (method + route pattern) must match — one with no role is public, one with roles
 * needs the subject to hold one of them.
 */
export function createAccess(ctx: PluginContext, accounts: Accounts) {
  async function decide(c: Context, asked: string, path: string): Promise<void> {
    const method = routed(asked);
    const entity = crudEntityOf(ctx, method, path);
    if (entity && publicReads(entity) && method === 'GET') return;
    const p = await principalOf(c, ctx, accounts);
    if (isPrivileged(p)) return;
    const matching = (await accounts.permissionsFor(method)).filter((perm) => routeMatches(perm.route, path));
    const granted = matching.some((perm) => perm.roleIds.includes(null)) || (p.kind === 'subject' && matching.some((perm) => perm.roleIds.some((r) => r && p.roleIds.includes(r))));
    if (!granted) throw new HttpError(p.kind === 'anonymous' ? 401 : 403, 'Not authorized');
    // a route under a subject (/api/rbac/subjects/<id>/…: its cart, orders, identities, requests) acts for that
    // subject alone: the subject itself (or the system and admins, above). The routes check it too; here it is one
    // rule, so that is-authorized answers what the route would
    const under = UNDER_SUBJECT.exec(path);
    if (under && !(p.kind === 'subject' && p.subjectId === under[1].toLowerCase())) {
      throw new HttpError(p.kind === 'anonymous' ? 401 : 403, "Not authorized: this is another account's");
    }
  }

  /** route permissions only: owner scoping and field access are the generic policy's (runtime/crud/policy.ts) */
  const authorizer: Authorizer = async (c) => {
    await decide(c, c.req.method, c.req.path);
  };
  // a GET of a public entity is decided above before anything about the caller or the row
  authorizer.opensReads = publicReads;

  /** who asks, as the generic layer sees it */
  const caller: CallerOf = async (c) => {
    const p = await principalOf(c, ctx, accounts);
    if (p.kind === 'system') return SYSTEM;
    if (p.kind === 'anonymous') return ANONYMOUS;
    return { kind: 'subject', subjectId: p.subjectId, roles: p.roleSlugs, admin: p.admin, signedIn: p.signedIn, session: p.sessionId };
  };

  /** whether the route permissions let the caller do METHOD on PATH (relation ends, is-authorized) */
  const permits: Permits = (c, method, path) => decide(c, method, path).then(() => true, (e) => {
    if (e instanceof HttpError) return false;
    throw e;
  });

  /** plugin routes are checked here; generic CRUD routes by the authorizer, which also sees the row */
  const middleware: MiddlewareHandler = function authorizeRoute(c, next) {
    // generic CRUD paths pass to the authorizer with no promise of their own; an unknown route is a 404 for
    // everyone: only routes that exist are authorized
    const method = routed(c.req.method);
    if (crudEntityOf(ctx, method, c.req.path) || ctx.hasRoute?.(method, c.req.path) === false) return next();
    return decide(c, method, c.req.path).then(next);
  };

  return { decide, authorizer, middleware, caller, permits };
}
