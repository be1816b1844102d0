import pg from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { join } from 'node:path';
import { queryCounter, type Database, type Drizzle } from './database.js';

/** a fixed key so that instances starting together migrate one at a time */
const MIGRATION_LOCK = 4_000_001;

export function openPg(url: string, tables: Record<string, Drizzle>): Database {
  const pool = new pg.Pool({ connectionString: url, max: Number(process.env.DATABASE_POOL_SIZE ?? 10) });
  pool.on('error', () => undefined); // an idle client's error must not crash the process; the next query reports it
  const counter = queryCounter();
  const db = drizzle(pool, { logger: counter.logger });
  return {
    dialect: 'pg',
    db,
    get queries() {
      return counter.count;
    },
    tables,
    transaction: (fn) => db.transaction(fn),
    async migrate(migrationsDir: string) {
      const client = await pool.connect();
      try {
        await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
        await migrate(drizzle(client), { migrationsFolder: join(migrationsDir, 'pg') });
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
