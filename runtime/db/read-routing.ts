import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Which pool a read goes to when there is a read replica (DATABASE_READ_URL). A replica may lag behind the primary
 * by a moment, so whatever must read its own writes reads from the primary: every request that writes or carries
 * credentials runs inside `readFromPrimary` (runtime/app.ts); anonymous GETs — public content — read from the replica.
 */
const primaryReads = new AsyncLocalStorage<true>();

/** runs `fn` with every read of `database.db` inside it going to the primary */
export const readFromPrimary = <T>(fn: () => T): T => primaryReads.run(true, fn);

/** true inside `readFromPrimary` */
export const readsFromPrimary = () => primaryReads.getStore() === true;
