import cluster from 'node:cluster';
import { RateLimiterClusterMaster } from 'rate-limiter-flexible';

/**
 * Several server processes on one machine without Redis (WORKERS=N, node:cluster): the primary relays the
 * events of each worker's buses (page cache, revalidation) to every other worker, and keeps the rate-limit
 * counters (rate-limiter-flexible's cluster limiter), so that the processes still share them. With REDIS_URL
 * the buses and counters go through Redis instead, which also spans machines.
 */

/** a bus message between processes */
interface BusMessage {
  bus: string;
  event: unknown;
}
const isBusMessage = (m: unknown): m is BusMessage => typeof m === 'object' && m !== null && typeof (m as BusMessage).bus === 'string';

/** in the primary: relays every worker's bus messages to the other workers and serves the shared rate limits */
export function relayBetweenWorkers() {
  new RateLimiterClusterMaster();
  cluster.on('message', (from, message: unknown) => {
    if (!isBusMessage(message)) return;
    for (const w of Object.values(cluster.workers ?? {})) if (w && w !== from && w.isConnected()) w.send(message);
  });
}

/** true in a worker of `WORKERS=N`: buses and rate limits go through the primary when there is no Redis */
export const inClusterWorker = () => cluster.isWorker && typeof process.send === 'function';

/**
 * A bus channel between the workers of this machine (through the primary): `publish` sends to every other
 * worker, `onEvent` hears theirs. Undefined outside a cluster worker.
 */
export function workerChannel<T>(channel: string, onEvent: (event: T) => void): { publish(event: T): void; close(): void } | undefined {
  if (!inClusterWorker()) return undefined;
  const listener = (m: unknown) => {
    if (isBusMessage(m) && m.bus === channel) onEvent(m.event as T);
  };
  process.on('message', listener);
  return {
    publish: (event) => {
      if (process.connected) process.send!({ bus: channel, event } satisfies BusMessage);
    },
    close: () => void process.off('message', listener),
  };
}
