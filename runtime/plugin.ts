import type { Context, Hono, MiddlewareHandler } from 'hono';
import type { Model } from '../engine/model.js';
import type { Database } from './db/index.js';
import type { Repository } from './crud/repository.js';
import type { Authorizer, CallerOf, Permits } from './http/access.js';
import type { HookSet } from './crud/hooks.js';
import type { Config } from './config.js';
import type { AddressLimiter, Limit } from './http/rate-limit.js';
import type { AccessChanges } from './http/access-changes.js';
import type { Logger } from 'pino';

export interface PluginContext {
  model: Model;
  database: Database;
  repo: Repository;
  config: Config;
  log: Logger;
  /** the authorizer in force (route permissions); a plugin may wrap it */
  authorize: Authorizer;
  /** who is asking: the system, a subject with its roles, or nobody */
  caller: CallerOf;
  /** whether the caller may do METHOD on PATH by the route permissions */
  permits: Permits;
  /**
   * a limiter per client address (rate-limiter-flexible, in Redis when REDIS_URL is set):
   * `const limit = ctx.rateLimit('crm-form', { points: 10, duration: 600 })`, then `await limit(c)` in the route;
   * `await limit(c, subjectId)` counts that key (an account, a subject) instead of the address
   */
  rateLimit: (name: string, limit: Limit) => AddressLimiter;
  /**
   * changes to what callers may do (a committed write to an entity of `Plugin.accessEntities`, in any process): what
   * is kept per caller's access or from the route permissions is dropped on `onChange` (runtime/http/access-changes.ts)
   */
  accessChanges: AccessChanges;
  /** true for the system key and for admins (as the accounts module resolved the caller while authorizing) */
  privileged: (c: Context) => Promise<boolean>;
  /** whether the app has a route for METHOD PATH (set once every route is mounted) */
  hasRoute?: (method: string, path: string) => boolean;
  /** whether a route other than the generic CRUD routes answers METHOD PATH (set once every route is mounted) */
  hasDeclaredRoute?: (method: string, path: string) => boolean;
  /**
   * the widget variants, as '<module>/<variant>', that plugins declared personal (Plugin.noindexWidgets): a page
   * whose own widgets show one is for the visitor alone, sent with robots noindex and left out of the sitemap
   */
  noindexWidgets: ReadonlySet<string>;
  /** what plugins offer each other, by name (e.g. services.notification); filled before routes are mounted */
  services: Record<string, unknown>;
  /**
   * aborted when the server starts to shut down (SIGTERM): an answer that would stay open (an event stream) ends,
   * so that the requests in flight drain and the process exits
   */
  closing: AbortSignal;
}

/** rows to insert into an empty database, keyed by entity id; ids are fixed so rows can point at each other */
export type SeedData = Record<string, Record<string, unknown>[]>;

/**
 * A module's behaviour, one object of one shape. The server takes the list of plugins and
 * nothing else knows a module by name.
 */
export interface Plugin {
  name: string;
  /** services other plugins may use, registered under ctx.services */
  services?: (ctx: PluginContext) => Record<string, unknown>;
  /** middleware run on every /api request, before any route */
  middleware?: (ctx: PluginContext) => MiddlewareHandler;
  /** routes mounted before the generic CRUD routes, so they can take more specific paths */
  routes?: (app: Hono, ctx: PluginContext) => void;
  /** replaces the authorizer (the accounts module does) */
  authorizer?: (ctx: PluginContext) => Authorizer;
  /** replaces how callers are identified and route permissions are asked (the accounts module does) */
  identity?: (ctx: PluginContext) => { caller: CallerOf; permits: Permits };
  /**
   * the entity ids whose rows decide what `permits` answers (the accounts module: permissions, roles and their
   * links): a committed write to one changes what callers may do, so what the server built per caller's access (the
   * OpenAPI document) is built again (runtime/http/access-changes.ts)
   */
  accessEntities?: string[];
  /**
   * typed hooks per entity id ('*' for every entity), run on every write through the repository:
   * generic CRUD, bulk, find-or-create, plugin routes and seeding. See runtime/crud/hooks.ts.
   */
  hooks?: HookSet | ((ctx: PluginContext) => HookSet);
  /**
   * the module's widget variants that draw a visitor's own account, orders or an account action (sign-in, settings),
   * as '<module>/<variant>' (e.g. 'rbac/login'): a page whose own widgets (not its layouts') show one is sent with
   * `<meta name="robots" content="noindex">` and is not listed in sitemap.xml
   */
  noindexWidgets?: string[];
  /** demo rows for an empty database */
  seed?: SeedData;
  /** rows every installation needs (roles, permissions): inserted on start when their id is missing */
  defaults?: SeedData;
}
