import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { requestId } from 'hono/request-id';
import pino, { type Logger } from 'pino';
import type { Model } from '../engine/model.js';
import type { Database } from './db/index.js';
import type { Config } from './config.js';
import { Repository } from './crud/repository.js';
import { crudRoutes } from './crud/routes.js';
import { HttpError } from './http/errors.js';
import { isPrivileged, secretKeyAuthorizer, secretKeyCaller, type Authorizer } from './http/access.js';
import { Policy } from './crud/policy.js';
import type { Plugin, PluginContext } from './plugin.js';
import { modelRoute } from './http/model-route.js';
import { openapiRoutes } from './http/openapi.js';

export interface AppOptions {
  model: Model;
  database: Database;
  config: Config;
  plugins?: Plugin[];
  log?: Logger;
}

export const MAX_BODY_BYTES = 20 * 1024 * 1024;

/**
 * The HTTP app: request id → body limit → plugin routes → generic CRUD for every entity,
 * with every error turned into `{ message, status, cause? }`.
 */
export function createApp({ model, database, config, plugins = [], log }: AppOptions) {
  const logger = log ?? pino({ level: config.logLevel, redact: ['req.headers.authorization', 'req.headers["x-rbac-secret-key"]', 'req.headers.cookie'] });
  const repo = new Repository(database, model);
  repo.hooks.log = logger;
  const ctx: PluginContext = {
    model, database, repo, config, log: logger, services: {},
    authorize: secretKeyAuthorizer(config.rbacSecretKey),
    caller: secretKeyCaller(config.rbacSecretKey),
    permits: async (c) => isPrivileged(await ctx.caller(c)),
  };
  for (const p of plugins) if (p.services) Object.assign(ctx.services, p.services(ctx));
  for (const p of plugins) if (p.authorizer) ctx.authorize = p.authorizer(ctx);
  for (const p of plugins) if (p.identity) Object.assign(ctx, p.identity(ctx));
  for (const p of plugins) if (p.hooks) repo.hooks.add(typeof p.hooks === 'function' ? p.hooks(ctx) : p.hooks);
  const authorize: Authorizer = (c, r) => ctx.authorize(c, r);
  const policy = new Policy(model, database, (c, method, path) => ctx.permits(c, method, path));

  const app = new Hono();
  app.use(requestId());
  const limitBody = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: (c) => c.json({ message: `The body is larger than ${MAX_BODY_BYTES / 1024 / 1024} MiB`, status: 413 }, 413),
  });
  // reading the body stream (even to find none) costs a GET a full Request object on node: skip the bodiless
  app.use(function limitBodies(c, next) {
    return c.req.method === 'GET' || c.req.method === 'HEAD' ? next() : limitBody(c, next);
  });
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
  app.notFound((c) => c.json({ message: `Not found: ${c.req.method} ${c.req.path}`, status: 404 }, 404));

  app.get('/api/health', (c) => c.json({ data: { status: 'ok', dialect: database.dialect } }));
  // open to everyone, before the plugins' route permissions: the document itself shows each caller only what it may call
  openapiRoutes(app, model, (c) => ctx.caller(c), (c, method, path) => ctx.permits(c, method, path));
  for (const p of plugins) if (p.middleware) app.use('/api/*', p.middleware(ctx));
  modelRoute(app, model, (c) => ctx.caller(c));
  for (const p of plugins) p.routes?.(app, ctx);
  app.route('/api', crudRoutes({ model, repo, authorize, caller: (c) => ctx.caller(c), policy }));
  return { app, repo, ctx, policy, log: logger };
}
