import { eq, sql } from 'drizzle-orm';
import type { Database, Drizzle } from './index.js';

/**
 * Holds a row until the transaction ends, so that concurrent transactions touching it run one after
 * the other: `SELECT … FOR UPDATE` on PostgreSQL. SQLite needs nothing: every write transaction
 * (BEGIN IMMEDIATE, queued by runtime/db/sqlite.ts) already holds the whole database.
 * @example await database.transaction(async (tx) => { await lockRow(database, tx, 'rbac/subject', id); … });
 */
export async function lockRow(database: Database, tx: Drizzle, entityId: string, id: string): Promise<void> {
  if (database.dialect !== 'pg') return;
  const t = database.tables[entityId];
  await tx.select({ id: t.id }).from(t).where(eq(t.id, id)).for('update');
}

/**
 * Holds a named lock until the transaction ends, for work that has no row to lock yet (the first of something made
 * once per key, as a notification digest): `pg_advisory_xact_lock` on PostgreSQL; on SQLite every write transaction
 * already holds the whole database, across processes too.
 * @example await database.transaction(async (tx) => { await lockKey(database, tx, `digest:${to}`); … });
 */
export async function lockKey(database: Database, tx: Drizzle, key: string): Promise<void> {
  if (database.dialect !== 'pg') return;
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
}
