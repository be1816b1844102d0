import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import { createHmac } from 'node:crypto';
import ipaddr from 'ipaddr.js';
import { RateLimiterCluster, RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { inClusterWorker } from '../cluster.js';
import type { Redis } from 'ioredis';
import { redisClient } from '../events.js';
import { createLogger } from '../log.js';
import { HttpError } from './errors.js';
import type { Config } from '../config.js';

export interface Limit {
  /** attempts allowed per window */
  points: number;
  /** window in seconds */
  duration: number;
}

/**
 * The client address: the socket's, or with TRUST_PROXY=true the last X-Forwarded-For hop — the address the proxy in
 * front of this server saw and appended. Every earlier hop is whatever the client sent (a proxy keeps it and appends),
 * so taking the first let each request name a new address and step around every per-address limit.
 */
export function clientAddress(c: Context, config: Config): string {
  if (config.trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',').at(-1)?.trim();
    if (forwarded) return forwarded;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** the client as per-address limits count it (clientAddress grouped by clientOf) */
export const clientKey = (c: Context, config: Config): string => clientOf(clientAddress(c, config));

/**
 * One client per address as limits count them: an IPv4 address as itself (IPv4-mapped IPv6 read as IPv4), an IPv6
 * address as its /64 — what an ISP or cloud host gives one customer, who could otherwise step through 2^64 addresses
 * of their own, each a fresh budget. Anything else (no address) as written.
 */
export function clientOf(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const ip = ipaddr.process(address);
  if (ip.kind() === 'ipv4') return ip.toString();
  const parts = (ip as ipaddr.IPv6).parts;
  return `${parts.slice(0, 4).map((p) => p.toString(16)).join(':')}::/64`;
}

let redis: Redis | undefined;

/**
 * one counter: in Redis when REDIS_URL is set (shared by every instance), else in the cluster's primary for the
 * workers of WORKERS=N (shared by this machine's processes), else in this process
 */
export function counter(config: Config, name: string, l: Limit): RateLimiterAbstract {
  const keyPrefix = `${config.redisPrefix}${name}`;
  if (config.redisUrl) {
    if (!redis) {
      redis = redisClient(config.redisUrl, createLogger(config), 'rate limits');
      redis.connect().catch(() => undefined);
    }
    // while Redis cannot be reached, this process's own counters answer at once (the insurance limiter): a sign-in
    // waited 10 to 20 s for the connection attempts before
    return new RateLimiterRedis({
      storeClient: redis,
      keyPrefix,
      points: l.points,
      duration: l.duration,
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory({ keyPrefix, points: l.points, duration: l.duration }),
    });
  }
  if (inClusterWorker()) return new RateLimiterCluster({ keyPrefix, points: l.points, duration: l.duration, timeoutMs: 3000 });
  return new RateLimiterMemory({ keyPrefix, points: l.points, duration: l.duration });
}

/** consumes one point of each key, in order; a spent key is a 429 with Retry-After */
export async function consume(steps: [RateLimiterAbstract, string][]) {
  try {
    for (const [limiter, key] of steps) await limiter.consume(key);
  } catch (e) {
    if (!(e instanceof RateLimiterRes)) throw e;
    const seconds = Math.max(1, Math.ceil(e.msBeforeNext / 1000));
    throw new HttpError(429, `Too many attempts: try again in ${seconds} seconds`, undefined, { 'Retry-After': String(seconds) });
  }
}

/**
 * Counts one attempt of the request's client address — or, given `key`, of that key instead (an account, a subject:
 * what the action is done as, where that is the budget to keep); throws a 429 with Retry-After once the limit is spent
 */
export type AddressLimiter = (c: Context, key?: string) => Promise<void>;

/**
 * A limiter per client address for one action, e.g. `rateLimit('crm-form', { points: 10, duration: 600 })`.
 * Every plugin reaches it as `ctx.rateLimit`; instances sharing Redis share the counters of a name.
 */
export function addressLimiter(config: Config, name: string, limit: Limit): AddressLimiter {
  const limiter = counter(config, `rl:${name}`, limit);
  return (c, key) => consume([[limiter, key === undefined ? clientKey(c, config) : `key:${hiddenKey(config, key)}`]]);
}

/**
 * A counter's key for a value that may be personal (an email, an account): an HMAC of it under the server's token
 * key, so that Redis, its dumps and its monitors never hold the value itself (F15), while every process that shares
 * the key counts the same value under the same key.
 */
export const hiddenKey = (config: Config, value: string): string =>
  createHmac('sha256', `rate-limit:${config.rbacJwtSecret}`).update(value.toLowerCase()).digest('base64url').slice(0, 32);

export async function closeRateLimitStore() {
  await redis?.quit().catch(() => undefined);
  redis = undefined;
}
