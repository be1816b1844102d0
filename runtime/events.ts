import { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { workerChannel } from './cluster.js';

/** events every server process sees: in-process, or through Redis pub/sub when REDIS_URL is set */
export interface EventBus<T> {
  /** delivers to this process's listeners at once and, with Redis, to every other process's */
  publish(event: T): void;
  /** answers the function that stops listening */
  subscribe(listener: (event: T) => void): () => void;
  /** resolves once events from other processes are being received */
  ready: Promise<unknown>;
  close(): Promise<void>;
}

/**
 * A bus named `channel`. Events travel as JSON; a process ignores its own when they come back from Redis.
 * A Redis outage is logged and never fails a publish: events are hints to refresh, not data.
 * @example
 * const bus = createEventBus<{ ids: string[] }>('revalidation', config.redisUrl, log);
 * const stop = bus.subscribe((e) => console.log(e.ids));
 * bus.publish({ ids: ['…'] });
 */
export function createEventBus<T>(channel: string, redisUrl: string | undefined, log: Logger): EventBus<T> {
  const local = new EventEmitter();
  local.setMaxListeners(0);
  const me = randomUUID();
  const emit = (event: T) => {
    for (const listener of local.listeners('event') as ((e: T) => void)[]) {
      try {
        listener(event);
      } catch (err) {
        log.warn({ err, channel }, 'event listener failed');
      }
    }
  };
  const subscribe = (listener: (event: T) => void) => {
    local.on('event', listener);
    return () => void local.off('event', listener);
  };
  if (!redisUrl) {
    // several processes of one machine (WORKERS=N) without Redis: through the cluster's primary
    const peers = workerChannel<T>(`events:${channel}`, emit);
    return {
      publish: (event) => (emit(event), peers?.publish(event)),
      subscribe,
      ready: Promise.resolve(),
      close: async () => (local.removeAllListeners(), peers?.close()),
    };
  }

  const pub = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  const sub = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  pub.on('error', (err) => log.warn({ err, channel }, 'event bus: redis error'));
  sub.on('error', (err) => log.warn({ err, channel }, 'event bus: redis error'));
  const ready = sub
    .connect()
    .then(() => sub.subscribe(channel))
    .catch((err) => log.warn({ err, channel }, 'event bus: cannot subscribe'));
  sub.on('message', (ch: string, raw: string) => {
    if (ch !== channel) return;
    try {
      const msg = JSON.parse(raw) as { from: string; event: T };
      if (msg.from !== me) emit(msg.event);
    } catch {
      /* not ours */
    }
  });
  return {
    publish(event) {
      emit(event);
      void ready.then(() => pub.publish(channel, JSON.stringify({ from: me, event }))).catch((err) => log.warn({ err, channel }, 'event bus: cannot publish'));
    },
    subscribe,
    ready,
    async close() {
      local.removeAllListeners();
      await Promise.allSettled([pub.quit(), sub.quit()]);
    },
  };
}
