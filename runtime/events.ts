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
  /**
   * `listener` runs when events of other processes may have been lost (Redis): this process's subscription came back
   * after its connection dropped, or another process could not publish during an outage and has reconnected. A cache
   * kept by events drops what it holds. Answers the function that stops listening.
   */
  onMissed(listener: () => void): () => void;
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
  const missed = new EventEmitter();
  missed.setMaxListeners(0);
  const onMissed = (listener: () => void) => {
    missed.on('missed', listener);
    return () => void missed.off('missed', listener);
  };
  if (!redisUrl) {
    // several processes of one machine (WORKERS=N) without Redis: through the cluster's primary
    const peers = workerChannel<T>(`events:${channel}`, emit);
    return {
      publish: (event) => (emit(event), peers?.publish(event)),
      subscribe,
      ready: Promise.resolve(),
      onMissed,
      close: async () => (local.removeAllListeners(), missed.removeAllListeners(), peers?.close()),
    };
  }

  const notifyMissed = () => {
    for (const listener of missed.listeners('missed') as (() => void)[]) {
      try {
        listener();
      } catch (err) {
        log.warn({ err, channel }, 'event listener failed');
      }
    }
  };
  const pub = redisClient(redisUrl, log, `event bus ${channel} (publish)`);
  const sub = redisClient(redisUrl, log, `event bus ${channel} (subscribe)`);
  const ready = sub
    .connect()
    .then(() => sub.subscribe(channel))
    .catch((err) => log.warn({ err, channel }, 'event bus: cannot subscribe'));
  const published = Promise.all([ready, pub.connect().catch(() => undefined)]);
  // ioredis subscribes again by itself on every reconnection; what was published meanwhile is gone
  let subscribed = false;
  sub.on('ready', () => {
    if (subscribed) notifyMissed();
    subscribed = true;
  });
  // a publish lost to an outage: once this process reaches Redis again, the others hear that they missed something
  let lost = false;
  pub.on('ready', () => {
    if (!lost) return;
    lost = false;
    pub.publish(channel, JSON.stringify({ from: me, missed: true })).catch(() => (lost = true));
  });
  sub.on('message', (ch: string, raw: string) => {
    if (ch !== channel) return;
    try {
      const msg = JSON.parse(raw) as { from: string; event?: T; missed?: boolean };
      if (msg.from === me) return;
      if (msg.missed) notifyMissed();
      else emit(msg.event as T);
    } catch {
      /* not ours */
    }
  });
  // publishes on their way: a shutdown sends them before it quits (a write finished while draining, a script's last)
  const sending = new Set<Promise<unknown>>();
  return {
    publish(event) {
      emit(event);
      const sent = published
        .then(() => pub.publish(channel, JSON.stringify({ from: me, event })))
        .catch((err) => {
          lost = true;
          log.warn({ err, channel }, 'event bus: cannot publish');
        })
        .finally(() => sending.delete(sent));
      sending.add(sent);
    },
    subscribe,
    ready,
    onMissed,
    async close() {
      local.removeAllListeners();
      missed.removeAllListeners();
      // at most 2 s: Redis away must not hold a shutdown
      if (sending.size) await Promise.race([Promise.allSettled([...sending]), new Promise((r) => setTimeout(r, 2000).unref())]);
      await Promise.allSettled([pub.quit(), sub.quit()]);
    },
  };
}

/**
 * A Redis connection of this server's (event buses, rate limits): connects when first asked, fails a command at once
 * instead of queueing it while Redis cannot be reached (callers fall back or log), retries the connection in the
 * background, and logs one line per outage (when it starts and when it ends), not one per attempt.
 */
export function redisClient(redisUrl: string, log: Logger, name: string): Redis {
  const client = new Redis(redisUrl, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    // a command sent while disconnected fails at once rather than waiting for a reconnection
    enableOfflineQueue: false,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  let down = false;
  client.on('error', (err) => {
    if (down) return;
    down = true;
    log.warn({ err: { message: err.message, code: (err as NodeJS.ErrnoException).code } }, `${name}: Redis cannot be reached; retrying in the background`);
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    log.info(`${name}: Redis reached again`);
  });
  return client;
}
