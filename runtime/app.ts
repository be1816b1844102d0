import { Hono, type Context, type Next } from 'hono';
import { cors } from 'hono/cors';
import { getPath } from 'hono/utils/url';
import type { Logger } from 'pino';
import type { Model } from '../engine/model.js';
import type { Database } from './db/index.js';
import type { Config } from './config.js';
import { Repository } from './crud/repository.js';
import { crudRoutes } from './crud/routes.js';
import { HttpError } from './http/errors.js';
import { isPrivileged, isSignedIn, secretKeyAuthorizer, secretKeyCaller, type Authorizer } from './http/access.js';
import { Policy } from './crud/policy.js';
import type { Plugin, PluginContext } from './plugin.js';
import { modelRoute } from './http/model-route.js';
import { OPENAPI_LIMIT, OpenapiDocuments, openapiRoutes } from './http/openapi.js';
import { AccessChanges, watchAccess } from './http/access-changes.js';
import { routeMatcher } from './http/routes-known.js';
import { addressLimiter } from './http/rate-limit.js';
import { limitBodies, UPLOAD_BODY_BYTES, type BodyTrust } from './http/limits.js';
import { requestHeader } from './http/headers.js';
import { carriesCredentials, isSignedCaller } from './http/session.js';
import { createLogger } from './log.js';
import { healthRoute } from './health.js';
import { CORS_EXPOSED, envelope, finisher } from './http/envelope.js';
import { CompressedCache } from './http/wire.js';
import { FastReads, leavesReads } from './http/fast-read.js';
import { readFromPrimary } from './db/read-routing.js';
import { ShapeRouter } from './http/shape-router.js';

/**
 * The path a request is routed by: an API path with a trailing slash is the same path without it
 * (`PATCH /api/<module>/<route>/<id>/` updates the row), for every method; pages keep their own paths.
 */
function apiPath(request: Request): string {
  const path = getPath(request);
  return path.length > 5 && path.charCodeAt(path.length - 1) === 0x2f && path.startsWith('/api/') ? path.slice(0, -1) : path;
}

export interface AppOptions {
  model: Model;
  database: Database;
  config: Config;
  plugins?: Plugin[];
  log?: Logger;
}

/** the largest body any request may have (an admin's file upload); see runtime/http/limits.ts */
export const MAX_BODY_BYTES = UPLOAD_BODY_BYTES;

/**
 * The HTTP app: the envelope (request id, no-store, compression and validators, security headers) → NUL in the url refused → body limits (size by caller,
 * JSON depth and NUL, before any parsing) → plugin middleware → plugin routes → generic CRUD for every
 * entity, with every error turned into `{ message, status, cause? }`.
 */
export function createApp({ model, database, config, plugins = [], log }: AppOptions) {
  const logger = log ?? createLogger(config);
  const repo = new Repository(database, model);
  const closing = new AbortController();
  repo.hooks.log = logger;
  const ctx: PluginContext = {
    model, database, repo, config, log: logger, services: {},
    authorize: secretKeyAuthorizer(config.rbacSecretKey),
    caller: secretKeyCaller(config.rbacSecretKey),
    permits: async (c) => isPrivileged(await ctx.caller(c)),
    rateLimit: (name, limit) => addressLimiter(config, name, limit),
    accessChanges: new AccessChanges(),
    privileged: async (c) => isPrivileged(await ctx.caller(c)),
    closing: closing.signal,
    noindexWidgets: new Set(plugins.flatMap((p) => p.noindexWidgets ?? [])),
  };
  for (const p of plugins) if (p.services) Object.assign(ctx.services, p.services(ctx));
  for (const p of plugins) if (p.authorizer) ctx.authorize = p.authorizer(ctx);
  for (const p of plugins) if (p.identity) Object.assign(ctx, p.identity(ctx));
  for (const p of plugins) if (p.hooks) repo.hooks.add(typeof p.hooks === 'function' ? p.hooks(ctx) : p.hooks);
  const authorize: Authorizer = (c, r) => ctx.authorize(c, r);
  const policy = new Policy(model, database, (c, method, path) => ctx.permits(c, method, path));

  // routes matched once per shape of a path (a UUID segment stands for any other): runtime/http/shape-router.ts
  const app = new Hono({ router: new ShapeRouter(), getPath: apiPath });
  // request id, no-store for answers with credentials, compression and validators, security headers: one envelope,
  // one pass over each answer's headers (runtime/http/envelope.ts), whose finishing the fast lane shares
  // a request's reads see every write committed before it started (SQLite's run of reads in one snapshot ends here)
  const wireOptions = { hsts: config.production, corsOrigins: config.corsOrigins, compressed: new CompressedCache() };
  app.use(leavesReads(envelope({ ...wireOptions, onRequest: database.fresh })));
  // a storefront on another origin (CORS_ORIGINS): its preflights are answered here, and its requests' answers allow
  // exactly those origins, with credentials (the envelope); any other origin gets no CORS header at all
  if (config.corsOrigins.length) {
    const preflight = cors({
      origin: (origin) => (config.corsOrigins.includes(origin) ? origin : null),
      credentials: true,
      allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
      allowHeaders: ['Content-Type', 'Authorization', 'X-RBAC-SECRET-KEY'],
      exposeHeaders: CORS_EXPOSED.split(', '),
      maxAge: 600,
    });
    app.options('/api/*', (c, next) => (config.corsOrigins.includes(requestHeader(c, 'origin') ?? '') ? preflight(c, next) : next()));
  }
  // with a read replica: a request that writes or carries credentials reads from the primary (its own writes, a
  // session made a moment ago); anonymous GETs read from the replica
  if (config.databaseReadUrl) {
    app.use(leavesReads((c: Context, next: Next) => ((c.req.method === 'GET' || c.req.method === 'HEAD') && !carriesCredentials(c) ? next() : readFromPrimary(next))));
  }
  // the url's NUL check, then the body limits: the signed limit for the system key and signed-in callers only; a
  // session token signed here is asked who it is (the accounts module's caller, resolved once per request), so that
  // the subject of an anonymous session (authentication/init, which anyone may call) keeps the public limit
  const bodyTrust = async (c: Context): Promise<BodyTrust> => {
    if (!(await isSignedCaller(c, config))) return 'public';
    const caller = await ctx.caller(c);
    if (isPrivileged(caller) || isSignedIn(caller)) return 'signed';
    return caller.kind === 'anonymous' ? 'lapsed' : 'public';
  };
  app.use(leavesReads(limitBodies(bodyTrust)));
  app.onError((err, c) => {
    if (err instanceof HttpError) {
      const body: Record<string, unknown> = { message: err.message, status: err.status };
      if (err.causes?.length) body.cause = err.causes;
      return c.json(body, err.status as 400, err.headers);
    }
    // unknown errors: logged with the request id, answered without internals
    logger.error({ err, requestId: c.get('requestId'), method: c.req.method, path: c.req.path }, 'request failed');
    const body: Record<string, unknown> = { message: 'Internal server error', status: 500, requestId: c.get('requestId') };
    if (config.debug) body.stack = (err as Error).stack;
    return c.json(body, 500);
  });
  let matcher: ReturnType<typeof routeMatcher> | undefined;
  // an API path that takes other methods (PUT of a row, DELETE of a declared route that only reads): 405 with what it
  // takes, as OPTIONS says below; a path no route answers is a 404
  app.notFound((c) => {
    const methods = c.req.path.startsWith('/api/') ? (matcher ??= routeMatcher(app.routes, model)).allowed(c.req.path) : [];
    if (!methods.length) return c.json({ message: `Not found: ${c.req.method} ${c.req.path}`, status: 404 }, 404);
    const allow = [...methods, 'OPTIONS'].join(', ');
    return c.json({ message: `Method not allowed: ${c.req.method} ${c.req.path} takes ${allow}`, status: 405 }, 405, { allow });
  });
  // OPTIONS of an API path (other than an allowed origin's CORS preflight, answered above): the methods the path
  // takes, for anyone (the shape of the API is no secret: the OpenAPI document is open too); a path no route answers is a 404
  app.options('/api/*', (c) => {
    const methods = (matcher ??= routeMatcher(app.routes, model)).allowed(c.req.path);
    return methods.length ? c.body(null, 204, { allow: [...methods, 'OPTIONS'].join(', ') }) : c.notFound();
  });

  healthRoute(app, database, config.redisUrl, logger);
  // what callers may do changes with the rows the plugins' route permissions are made of (runtime/http/access-changes.ts)
  const access = watchAccess(ctx.accessChanges, { repo, database, entities: plugins.flatMap((p) => p.accessEntities ?? []), redisUrl: config.redisUrl, redisPrefix: config.redisPrefix, log: logger });
  // open to everyone, before the plugins' route permissions: the document itself shows each caller only what it may
  // call; built once per caller's access, limited per address
  const documents = new OpenapiDocuments();
  openapiRoutes(app, { model, callerOf: (c) => ctx.caller(c), permits: (c, method, path) => ctx.permits(c, method, path), access, limit: ctx.rateLimit('openapi', OPENAPI_LIMIT), documents });
  for (const p of plugins) if (p.middleware) app.use('/api/*', p.middleware(ctx));
  modelRoute(app, model, (c) => ctx.caller(c));
  for (const p of plugins) p.routes?.(app, ctx);
  app.route('/api', crudRoutes({ model, repo, authorize, caller: (c) => ctx.caller(c), policy }));
  ctx.hasRoute = (method, path) => (matcher ??= routeMatcher(app.routes, model)).known(method, path);
  ctx.hasDeclaredRoute = (method, path) => (matcher ??= routeMatcher(app.routes, model)).declared(method, path);
  /** the start of a shutdown: long-lived answers end (ctx.closing) */
  const shutdown = () => closing.abort();
  // anonymous reads of public rows by id, answered without hono's chain (runtime/http/fast-read.ts); the app's own
  // fetch (app.request included) takes the same lane, and `answer` is the app without it (the Node server's fallback)
  const fastReads = new FastReads({ app, model, repo, policy, authorizer: () => ctx.authorize, finish: finisher(wireOptions), onRequest: database.fresh });
  const answer = app.fetch;
  app.fetch = (request, env, executionCtx) => fastReads.fetch(request, () => answer(request, env, executionCtx)) ?? answer(request, env, executionCtx);
  return { app, repo, ctx, policy, log: logger, shutdown, fastReads, answer, access, documents };
}
