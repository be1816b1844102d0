import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { Redis } from 'ioredis';
import { HttpError } from '../../../runtime/http/errors.js';
import type { Config } from '../../../runtime/config.js';

export interface Limit {
  /** attempts allowed per window */
  points: number;
  /** window in seconds */
  duration: number;
}

export interface RateLimits {
  /** per client address */
  perAddress: Limit;
  /** per account (email, wallet address), whatever the address: rotating addresses does not help */
  perAccount: Limit;
}

export const DEFAULT_LIMITS: RateLimits = { perAddress: { points: 30, duration: 60 }, perAccount: { points: 5, duration: 60 } };

/** the client address: the socket's, or the first X-Forwarded-For hop when TRUST_PROXY=true */
export function clientAddress(c: Context, config: Config): string {
  if (config.trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

let redis: Redis | undefined;

/**
 * Attempt counters for sign-in, registration, forgot-password and wallet sign-in, kept in Redis
 * when REDIS_URL is set (shared by every instance), else in this process. Keys are the client
 * address and the account — never anything else from the body.
 */
export function createRateLimiter(config: Config, limits: RateLimits, prefix: string) {
  const make = (name: string, l: Limit): RateLimiterAbstract => {
    const keyPrefix = `${prefix}:${name}`;
    if (config.redisUrl) {
      // connects on the first counted attempt, so that processes that never sign anyone in open no connection
      redis ??= new Redis(config.redisUrl, { maxRetriesPerRequest: 1, lazyConnect: true });
      return new RateLimiterRedis({ storeClient: redis, keyPrefix, points: l.points, duration: l.duration, insuranceLimiter: new RateLimiterMemory({ keyPrefix, points: l.points, duration: l.duration }) });
    }
    return new RateLimiterMemory({ keyPrefix, points: l.points, duration: l.duration });
  };
  const byAddress = make('address', limits.perAddress);
  const byAccount = make('account', limits.perAccount);

  return async function limit(c: Context, action: string, account?: string) {
    const address = clientAddress(c, config);
    try {
      await byAddress.consume(`${action}:${address}`);
      if (account) await byAccount.consume(`${action}:${account.toLowerCase()}`);
    } catch (e) {
      if (!(e instanceof RateLimiterRes)) throw e;
      const seconds = Math.max(1, Math.ceil(e.msBeforeNext / 1000));
      throw new HttpError(429, `Too many attempts: try again in ${seconds} seconds`, undefined, { 'Retry-After': String(seconds) });
    }
  };
}

export async function closeRateLimitStore() {
  await redis?.quit().catch(() => undefined);
  redis = undefined;
}
