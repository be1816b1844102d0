import type { Plugin, PluginContext } from '../../../runtime/plugin.js';
import { seedFile } from '../../../runtime/seed-file.js';
import { Accounts } from './accounts.js';
import { createAccess } from './access.js';
import { createRateLimiter, DEFAULT_LIMITS, type RateLimits } from './rate-limit.js';
import { authenticationRoutes } from './routes/authentication.js';
import { identityRoutes } from './routes/identities.js';

export interface RbacOptions {
  limits?: RateLimits;
  /** rate-limit keys start with this; instances sharing Redis must share it (default 'rl') */
  keyPrefix?: string;
}

/**
 * The accounts module: sign-in (email and password, Ethereum wallet, Telegram), sessions, roles
 * and permissions, and the authorization of every route.
 */
export function createRbacPlugin(options: RbacOptions = {}): Plugin {
  const perApp = new WeakMap<PluginContext, ReturnType<typeof build>>();
  const build = (ctx: PluginContext) => {
    const accounts = new Accounts(ctx);
    const access = createAccess(ctx, accounts);
    const limit = createRateLimiter(ctx.config, options.limits ?? DEFAULT_LIMITS, options.keyPrefix ?? 'rl');
    return { ctx, accounts, access, limit };
  };
  const deps = (ctx: PluginContext) => {
    let d = perApp.get(ctx);
    if (!d) perApp.set(ctx, (d = build(ctx)));
    return d;
  };
  return {
    name: 'rbac',
    authorizer: (ctx) => deps(ctx).access.authorizer,
    identity: (ctx) => ({ caller: deps(ctx).access.caller, permits: deps(ctx).access.permits }),
    middleware: (ctx) => deps(ctx).access.middleware,
    routes: (app, ctx) => {
      authenticationRoutes(app, deps(ctx));
      identityRoutes(app, deps(ctx));
    },
    defaults: seedFile(new URL('../defaults.json', import.meta.url)),
    seed: seedFile(new URL('../seed.json', import.meta.url)),
  };
}

export const rbac = createRbacPlugin();
