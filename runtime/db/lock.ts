import { eq } from 'drizzle-orm';
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
