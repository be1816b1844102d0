import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { workerChannel } from '../../../runtime/cluster.js';

export type CacheEvent = { type: 'changed'; entityId: string } | { type: 'revalidate'; path: string; layout: boolean };

/**
 * Page-cache events shared by every instance: with REDIS_URL they go through Redis pub/sub, so a
 * change on one instance drops the pages every instance cached; without it they reach the other workers of this
 * machine (WORKERS=N) through the cluster's primary, or stay in-process.
 */
export function createCacheBus(redisUrl: string | undefined, log: Logger, apply: (e: CacheEvent) => void) {
  const me = randomUUID();
  const channel = 'page-cache';
  if (!redisUrl) {
    // several processes of one machine (WORKERS=N) without Redis: through the cluster's primary
    const peers = workerChannel<CacheEvent>(channel, apply);
    return { publish: (e: CacheEvent) => (apply(e), peers?.publish(e)), ready: Promise.resolve() as Promise<unknown>, close: async () => peers?.close() };
  }
  const pub = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  const sub = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  pub.on('error', (err) => log.warn({ err }, 'page-cache bus: redis error'));
  sub.on('error', (err) => log.warn({ err }, 'page-cache bus: redis error'));
  const ready = sub.connect().then(() => sub.subscribe(channel)).catch((err) => log.warn({ err }, 'page-cache bus: cannot subscribe'));
  sub.on('message', (_ch, raw) => {
    try {
      const msg = JSON.parse(raw) as { from: string; event: CacheEvent };
      if (msg.from !== me) apply(msg.event);
    } catch {
      /* not ours */
    }
  });
  return {
    publish(e: CacheEvent) {
      apply(e);
      void ready.then(() => pub.publish(channel, JSON.stringify({ from: me, event: e }))).catch((err) => log.warn({ err }, 'page-cache bus: cannot publish'));
    },
    /** resolves once this instance listens (tests wait for it) */
    ready,
    async close() {
      await Promise.allSettled([pub.quit(), sub.quit()]);
    },
  };
}
