import type { Context } from 'hono';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Config } from '../../../runtime/config.js';
import { clientKey, consume, counter, hiddenKey, type Limit } from '../../../runtime/http/rate-limit.js';

export { clientAddress, clientKey, closeRateLimitStore } from '../../../runtime/http/rate-limit.js';

export interface RateLimits {
  /** per client address */
  perAddress: Limit;
  /**
   * per account (email, wallet address): for sign-in, from one client address (whoever guesses a password from one
   * address is stopped there, and the owner elsewhere signs in); for the other actions (mails sent, accounts made),
   * whatever the address: rotating addresses does not help
   */
  perAccount: Limit;
  /**
   * sign-in on one account from many addresses: never a stop, which anyone could use to lock the owner out (F09), but
   * past `free` attempts in `duration` seconds each further one waits `stepMs`, doubling, up to `maxDelayMs`
   */
  slowDown?: { free: number; duration: number; stepMs: number; maxDelayMs: number };
}

export const DEFAULT_LIMITS: RateLimits = {
  perAddress: { points: 30, duration: 60 },
  perAccount: { points: 5, duration: 60 },
  slowDown: { free: 10, duration: 60, stepMs: 250, maxDelayMs: 4000 },
};

/** the actions counted per account and address, with the account as a whole slowed down (sign-in and current-password checks) */
const PER_ADDRESS_ACCOUNT = new Set(['sign-in']);

/** how long the account-wide attempt number `n` waits */
export const slowDownDelay = (n: number, s: NonNullable<RateLimits['slowDown']>): number =>
  n <= s.free ? 0 : Math.min(s.maxDelayMs, s.stepMs * 2 ** Math.min(20, n - s.free - 1));

/**
 * Attempt counters for sign-in, registration, forgot-password, verification and wallet or Telegram sign-in. Keys are
 * the client address and the account (never anything else from the body), the account as an HMAC (F15).
 * `sleep` waits out a slow-down (tests count the waits).
 */
export function createRateLimiter(config: Config, limits: RateLimits, prefix: string, sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))) {
  const byAddress = counter(config, `${prefix}:address`, limits.perAddress);
  const byAccount = counter(config, `${prefix}:account`, limits.perAccount);
  const slow = limits.slowDown;
  // counts attempts only: its points are never spent
  const accountWide = slow && counter(config, `${prefix}:account-wide`, { points: Number.MAX_SAFE_INTEGER, duration: slow.duration });

  return async function limit(c: Context, action: string, account?: string) {
    const address = clientKey(c, config);
    if (!account) return consume([[byAddress, `${action}:${address}`]]);
    const who = hiddenKey(config, account);
    if (!PER_ADDRESS_ACCOUNT.has(action) || !accountWide) {
      return consume([[byAddress, `${action}:${address}`], [byAccount, `${action}:${who}`] as [RateLimiterAbstract, string]]);
    }
    await consume([[byAddress, `${action}:${address}`], [byAccount, `${action}:${who}|${address}`]]);
    const wait = slowDownDelay((await accountWide.consume(`${action}:${who}`).catch(() => undefined))?.consumedPoints ?? 0, slow!);
    if (wait) await sleep(wait);
  };
}
