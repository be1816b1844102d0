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
import { secretKeyAuthorizer, type Authorizer } from './http/access.js';
import type { Plugin, PluginContext } from './plugin.js';
import { modelRoute } from './http/model-route.js';
import { addressLimiter } from './http/rate-limit.js';

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
  const ctx: PluginContext = {
    model, database, repo, config, log: logger, authorize: secretKeyAuthorizer(config.rbacSecretKey), services: {},
    rateLimit: (name, limit) => addressLimiter(config, name, limit),
  };
  for (const p of plugins) if (p.services) Object.assign(ctx.services, p.services(ctx));
  for (const p of plugins) if (p.authorizer) ctx.authorize = p.authorizer(ctx);
  const authorize: Authorizer = (c, r) => ctx.authorize(c, r);

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
  for (const p of plugins) if (p.middleware) app.use('/api/*', p.middleware(ctx));
  modelRoute(app, model);
  for (const p of plugins) p.routes?.(app, ctx);
  app.route('/api', crudRoutes({ model, repo, authorize }));
  return { app, repo, ctx, log: logger };
}
