import type { Logger } from 'pino';
import type { Entity } from '../../engine/model.js';
import type { Entities } from '../../generated/types.js';
import type { Database, Drizzle } from '../db/index.js';
import type { Caller } from '../http/access.js';

type Row = Record<string, unknown>;

export type WriteOperation = 'create' | 'update' | 'delete';

export interface HookArgs {
  entity: Entity;
  /** the write's transaction: read and write through it to stay inside the write */
  tx: Drizzle;
  /** who asked, when the write came through the generic API; undefined for server code (plugin routes, seeding) */
  caller?: Caller;
}

/** what an afterCommit hook sees once the write is committed */
export interface CommitEvent<R = Row> {
  entity: Entity;
  operation: WriteOperation;
  /** the row after the write (create, update), or as it was (delete) */
  row: R;
  /** the row before the write (update, delete) */
  previous?: R;
  caller?: Caller;
}

type MaybePromise<T> = T | Promise<T>;

/**
 * An entity's hooks. `before…` run inside the write's transaction before it is written: they may change the
 * data (return a new object, or mutate the one given) or refuse the write by throwing an HttpError, whose
 * status and message reach the caller — and nothing is written (in a bulk, nothing at all). `after…` run
 * inside the transaction once the row is written; throwing there also undoes the write. `afterCommit` runs
 * once the transaction is committed, for side effects (mail, events, cache invalidation): its failure is
 * logged and never undoes the write.
 * @example
 * hooks: {
 *   'crm/request': {
 *     async afterCommit({ row }) { await mailAdmins(row); },
 *   },
 * }
 */
export interface EntityHooks<R = Row, C = Row> {
  beforeCreate?(data: C, args: HookArgs): MaybePromise<C | void>;
  beforeUpdate?(data: Partial<C>, args: HookArgs & { previous: R }): MaybePromise<Partial<C> | void>;
  beforeDelete?(previous: R, args: HookArgs): MaybePromise<void>;
  afterCreate?(row: R, args: HookArgs): MaybePromise<void>;
  afterUpdate?(row: R, args: HookArgs & { previous: R }): MaybePromise<void>;
  afterDelete?(previous: R, args: HookArgs): MaybePromise<void>;
  afterCommit?(event: CommitEvent<R>): MaybePromise<void>;
}

/** hooks keyed by entity id, typed with the generated row and create types; '*' runs for every entity */
export type HookSet = { [K in keyof Entities]?: EntityHooks<Entities[K]['row'], Entities[K]['create']> } & { '*'?: EntityHooks };

interface Pending {
  commits: (() => Promise<void>)[];
}

/**
 * The afterCommit queue of each transaction in progress, by the transaction handle its function is given (which
 * every write inside it passes on as `tx`). Not an AsyncLocalStorage: on Node 20 that turns on a promise hook for
 * every promise of every request, reads included, for as long as the process lives.
 */
const transactions = new WeakMap<object, Pending>();
const WRAPPED = Symbol('hooks.wrapped');

/**
 * Every plugin's hooks, and the queue of afterCommit callbacks of the transaction in progress. The database's
 * `transaction()` is wrapped once so that any transaction — the repository's or a plugin's own — runs its
 * afterCommit callbacks after COMMIT, and drops them on ROLLBACK.
 */
export class Hooks {
  private byEntity = new Map<string, EntityHooks[]>();
  private all: EntityHooks[] = [];
  log?: Logger;

  constructor(database: Database) {
    const db = database as Database & { [WRAPPED]?: boolean };
    if (db[WRAPPED]) return;
    const original = database.transaction.bind(database);
    database.transaction = <T>(fn: (tx: Drizzle) => Promise<T>): Promise<T> => {
      const pending: Pending = { commits: [] };
      let handle: object | undefined;
      // SQLite hands every transaction the same writer handle (they never overlap): forget only our own queue
      const forget = () => {
        if (handle && transactions.get(handle) === pending) transactions.delete(handle);
      };
      return original((tx) => {
        handle = tx as object;
        transactions.set(handle, pending);
        return fn(tx);
      }).then(
        async (result) => {
          // the transaction is over: a hook that writes again starts a transaction of its own
          forget();
          for (const commit of pending.commits) await commit();
          return result;
        },
        (e) => {
          forget();
          throw e;
        },
      );
    };
    db[WRAPPED] = true;
  }

  add(set: HookSet) {
    for (const [id, hooks] of Object.entries(set) as [string, EntityHooks][]) {
      if (!hooks) continue;
      if (id === '*') this.all.push(hooks);
      else this.byEntity.set(id, [...(this.byEntity.get(id) ?? []), hooks]);
    }
  }

  private of(entity: Entity): EntityHooks[] {
    const own = this.byEntity.get(entity.id);
    return own ? [...this.all, ...own] : this.all;
  }

  has(entity: Entity): boolean {
    return this.of(entity).length > 0;
  }

  async beforeCreate(entity: Entity, data: Row, args: HookArgs): Promise<Row> {
    for (const h of this.of(entity)) if (h.beforeCreate) data = ((await h.beforeCreate(data, args)) as Row | undefined) ?? data;
    return data;
  }

  async beforeUpdate(entity: Entity, data: Row, args: HookArgs & { previous: Row }): Promise<Row> {
    for (const h of this.of(entity)) if (h.beforeUpdate) data = ((await h.beforeUpdate(data, args)) as Row | undefined) ?? data;
    return data;
  }

  async beforeDelete(entity: Entity, previous: Row, args: HookArgs) {
    for (const h of this.of(entity)) await h.beforeDelete?.(previous, args);
  }

  async after(operation: WriteOperation, entity: Entity, row: Row, args: HookArgs & { previous?: Row }) {
    const hooks = this.of(entity);
    for (const h of hooks) {
      if (operation === 'create') await h.afterCreate?.(row, args);
      else if (operation === 'update') await h.afterUpdate?.(row, { ...args, previous: args.previous! });
      else await h.afterDelete?.(row, args);
    }
    const commits = hooks.filter((h) => h.afterCommit);
    if (!commits.length) return;
    const event: CommitEvent = { entity, operation, row, previous: operation === 'delete' ? row : args.previous, caller: args.caller };
    const run = async () => {
      for (const h of commits) {
        try {
          await h.afterCommit!(event);
        } catch (err) {
          this.log?.error({ err, entity: entity.id, operation, id: row.id }, 'afterCommit hook failed');
        }
      }
    };
    const pending = transactions.get(args.tx as object);
    if (pending) pending.commits.push(run);
    else await run();
  }
}
