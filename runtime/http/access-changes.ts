import type { Logger } from 'pino';
import type { Database } from '../db/index.js';
import type { Repository } from '../crud/repository.js';
import { createEventBus } from '../events.js';

/**
 * Changes to what callers may do. The route permissions `permits` answers from are rows (the accounts module's
 * permissions, roles and their links, declared as `Plugin.accessEntities`): after every committed write to one, in
 * this process or (through the event bus: Redis, or the cluster's primary) in any other, and whenever events may have
 * been missed, `version` goes up and the listeners run. What is built once per caller's access (the OpenAPI document,
 * runtime/http/openapi.ts) is dropped then, and built again on its next use; plugins have it as `ctx.accessChanges`
 * (a module that keeps its permission rows in memory drops them on `onChange`).
 */
export class AccessChanges {
  /** how many changes this process has heard of */
  version = 0;
  private listeners = new Set<() => void>();

  /** `listener` runs after each change; answers the function that stops it */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** a change was committed (here or elsewhere), or may have been missed */
  changed() {
    this.version++;
    for (const listener of this.listeners) listener();
  }
}

/**
 * Watches the entities whose rows decide access: a '*' afterCommit hook on the repository publishes each committed
 * write to one of them on a bus every process shares; every process (this one at once) counts it as a change. With no
 * such entity (no accounts module: the system key alone decides) nothing ever changes and no bus is made. The bus
 * closes with the database, after the requests in flight (a write while draining still tells the others).
 */
export function watchAccess(changes: AccessChanges, opts: { repo: Repository; database: Database; entities: Iterable<string>; redisUrl?: string; redisPrefix: string; log: Logger }): AccessChanges {
  const watched = new Set(opts.entities);
  if (!watched.size) return changes;
  const bus = createEventBus<{ entity: string }>(`${opts.redisPrefix}access`, opts.redisUrl, opts.log);
  bus.subscribe(() => changes.changed());
  bus.onMissed(() => changes.changed());
  opts.repo.hooks.add({
    '*': {
      afterCommit: ({ entity }) => {
        if (watched.has(entity.id)) bus.publish({ entity: entity.id });
      },
    },
  });
  const close = opts.database.close.bind(opts.database);
  opts.database.close = async () => {
    await bus.close();
    await close();
  };
  return changes;
}
