import type { Plugin, PluginContext } from '../../../runtime/plugin.js';
import { leavesReads } from '../../../runtime/http/fast-read.js';
import { seedFile } from '../../../runtime/seed-file.js';
import { Accounts } from './accounts.js';
import { createAccess } from './access.js';
import { createRateLimiter, DEFAULT_LIMITS, type RateLimits } from './rate-limit.js';
import { authenticationRoutes } from './routes/authentication.js';
import { identityRoutes } from './routes/identities.js';
import { addressRoutes } from './routes/addresses.js';
import { crmRequestRoutes } from './routes/crm-requests.js';
import { refuseForeignWrites } from './origin.js';
import { DEFAULT_CHAIN_IDS } from './wallet.js';
import { accountHooks, listedOnPages } from './hooks.js';

export interface RbacOptions {
  limits?: RateLimits;
  /** rate-limit keys start with this; instances sharing Redis must share it (default 'rl') */
  keyPrefix?: string;
  /** chain ids a Sign-In with Ethereum message may name (default [1], Ethereum mainnet) */
  chainIds?: number[];
  /**
   * Runs work after the answer is sent (lookups, writes and mail the answer must not wait for, so
   * that its timing tells nothing). Default: the next turn of the event loop, errors logged.
   */
  later?: (job: () => Promise<unknown>) => void;
  /** waits out a sign-in slow-down (RateLimits.slowDown); default a timer */
  sleep?: (ms: number) => Promise<void>;
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
    const limit = createRateLimiter(ctx.config, options.limits ?? DEFAULT_LIMITS, options.keyPrefix ?? 'rl', options.sleep);
    const later = options.later ?? ((job: () => Promise<unknown>) => void setImmediate(() => job().catch((err) => ctx.log.error({ err }, 'deferred account work failed'))));
    return { ctx, accounts, access, limit, later, chainIds: options.chainIds ?? DEFAULT_CHAIN_IDS };
  };
  const deps = (ctx: PluginContext) => {
    let d = perApp.get(ctx);
    if (!d) perApp.set(ctx, (d = build(ctx)));
    return d;
  };
  return {
    name: 'rbac',
    // sign-in, registration, password and account screens: for the visitor alone, not for search engines
    noindexWidgets: ['select-method', 'login', 'registration', 'forgot-password', 'reset-password', 'verify-email', 'logout', 'identity-create-by-email', 'identity-settings'].map((v) => `rbac/${v}`),
    authorizer: (ctx) => deps(ctx).access.authorizer,
    identity: (ctx) => ({ caller: deps(ctx).access.caller, permits: deps(ctx).access.permits }),
    // the rows route permissions are decided by (access.ts): a write to one changes what callers may do
    accessEntities: ['rbac/permission', 'rbac/roles-to-permissions', 'rbac/role'],
    middleware: (ctx) => {
      const refuseForeign = refuseForeignWrites(ctx.config);
      const authorize = deps(ctx).access.middleware;
      // a GET refuses nothing (foreign writes only) and passes a generic CRUD path on: anonymous reads may skip it
      return leavesReads((c, next) => (refuseForeign(c), authorize(c, next)));
    },
    hooks: (ctx) => accountHooks(ctx, deps(ctx).accounts),
    services: (ctx) => ({ accounts: { listedOnPages: listedOnPages(ctx) } }),
    routes: (app, ctx) => {
      authenticationRoutes(app, deps(ctx));
      addressRoutes(app, deps(ctx));
      identityRoutes(app, deps(ctx));
      crmRequestRoutes(app, deps(ctx));
    },
    defaults: seedFile(new URL('../defaults.json', import.meta.url)),
    seed: seedFile(new URL('../seed.json', import.meta.url)),
  };
}

export const rbac = createRbacPlugin();
