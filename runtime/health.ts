import { sql } from 'drizzle-orm';
import type { Hono } from 'hono';
import { Redis } from 'ioredis';
import type { Database } from './db/index.js';
import type { Logger } from 'pino';
import { sharedWhilePending } from './kept.js';

/** how long a check may take before it counts as failed */
const CHECK_MS = 2000;

const within = <T>(p: Promise<T>) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer in ${CHECK_MS} ms`)), CHECK_MS).unref())]);

/**
 * GET /api/health: whether this process can serve, for a load balancer or an orchestrator. It asks the database
 * (`select 1`) and, when REDIS_URL is set, Redis (`PING`), each within 2 s.
 * - 200 `{ status: 'ok' }`: both answer;
 * - 200 `{ status: 'degraded', redis: 'down' }`: the database answers and Redis does not. Pages and the API still
 *   work; other processes may serve a cached page for a while after a change, and rate limits count per process.
 *   Not a 503: Redis is shared, so a 503 would take every process out at once;
 * - 503 `{ status: 'unavailable', database: 'down' }`: the database does not answer; nothing but cached pages works.
 * Never stored by a cache (`no-store`).
 */
export function healthRoute(app: Hono, database: Database, redisUrl: string | undefined, log: Logger) {
  // a connection per check, closed after it: nothing stays open between checks, and a down Redis logs nothing here
  const ping = async (): Promise<'ok' | 'down' | 'off'> => {
    if (!redisUrl) return 'off';
    const redis = new Redis(redisUrl, { lazyConnect: true, connectTimeout: CHECK_MS, maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => null });
    redis.on('error', () => undefined);
    try {
      await within(redis.connect());
      await within(redis.ping());
      return 'ok';
    } catch {
      return 'down';
    } finally {
      redis.disconnect();
    }
  };
  const query = async (): Promise<'ok' | 'down'> => {
    try {
      const db = database.db as unknown as { execute?: (q: unknown) => Promise<unknown>; get?: (q: unknown) => unknown };
      await within(Promise.resolve(database.dialect === 'pg' ? db.execute!(sql`select 1`) : db.get!(sql`select 1`)));
      return 'ok';
    } catch (err) {
      log.warn({ err: { message: (err as Error).message } }, 'health: the database does not answer');
      return 'down';
    }
  };
  // one check at a time, shared by every request that comes while it runs: a flood of health requests (the route is
  // open to everyone) costs one database query and one Redis connection at a time, not one of each per request.
  // Nothing is kept once it is answered: each later request checks again
  const check = sharedWhilePending(() => Promise.all([query(), ping()]));
  app.get('/api/health', async (c) => {
    const [db, cache] = await check(undefined);
    const status = db === 'down' ? 'unavailable' : cache === 'down' ? 'degraded' : 'ok';
    c.header('cache-control', 'no-store');
    return c.json({ data: { status, dialect: database.dialect, database: db, redis: cache } }, db === 'down' ? 503 : 200);
  });
}
