import pg from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import { join } from 'node:path';
import { readsFromPrimary } from './read-routing.js';
import { queryCounter, type Database, type Drizzle, type MigrateOptions } from './database.js';
import { databaseError, guardFailure, guardOf, MigrationError, pendingOf, readMigrations, statusOf, type AppliedRow, type GuardRow, type MigrationFile } from './migrator.js';

const TABLE = '"drizzle"."__drizzle_migrations"';

/** the migrations drizzle's table says were applied; none when there is no table yet */
export async function appliedPg(client: pg.ClientBase): Promise<AppliedRow[]> {
  const { rows } = await client.query(`SELECT to_regclass('drizzle.__drizzle_migrations') AS t`);
  if (!rows[0].t) return [];
  return (await client.query(`SELECT hash, created_at FROM ${TABLE}`)).rows.map((r: { hash: string; created_at: string }) => ({ hash: r.hash, createdAt: Number(r.created_at) }));
}

/** one migration in one transaction: its guards may refuse it; a failure rolls all of it back */
async function applyPg(client: pg.ClientBase, m: MigrationFile) {
  let at = 0;
  await client.query('BEGIN');
  try {
    for (const [i, stmt] of m.statements.entries()) {
      at = i;
      const guard = guardOf(stmt);
      const result = await client.query(stmt);
      if (guard) {
        const failure = guardFailure(guard, result.rows[0] as GuardRow | undefined);
        if (failure) throw new MigrationError(m.file, i, stmt, failure, true);
      }
    }
    await client.query(`INSERT INTO ${TABLE} ("hash", "created_at") VALUES ($1, $2)`, [m.hash, m.when]);
    await client.query('COMMIT');
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    if (e instanceof MigrationError) throw e;
    throw new MigrationError(m.file, at, m.statements[at] ?? '', databaseError('pg', e), false);
  }
}

/**
 * The type parsers drizzle's node-postgres driver reads with: dates, times and intervals stay text, which the
 * columns decode themselves (mapFromDriverValue); everything else as pg parses it.
 */
const AS_TEXT = new Set([pg.types.builtins.TIMESTAMPTZ, pg.types.builtins.TIMESTAMP, pg.types.builtins.DATE, pg.types.builtins.INTERVAL, 1231, 1115, 1185, 1187, 1182]);
const asText = (v: string) => v;
const DRIZZLE_TYPES = {
  getTypeParser: ((typeId: number, format?: 'text' | 'binary') => (AS_TEXT.has(typeId) ? asText : pg.types.getTypeParser(typeId, format))) as typeof pg.types.getTypeParser,
};

/** a fixed key so that instances starting together migrate one at a time */
const MIGRATION_LOCK = 4_000_001;

/** the primary at `url`; with `readUrl`, a second pool on a read replica that `db` reads from */
export function openPg(url: string, tables: Record<string, Drizzle>, readUrl?: string): Database {
  const size = Number(process.env.DATABASE_POOL_SIZE ?? 10);
  const pool = new pg.Pool({ connectionString: url, max: size });
  pool.on('error', () => undefined); // an idle client's error must not crash the process; the next query reports it
  const readPool = readUrl ? new pg.Pool({ connectionString: readUrl, max: size }) : undefined;
  readPool?.on('error', () => undefined);
  const counter = queryCounter();
  const db = drizzle(pool, { logger: counter.logger });
  const replica = readPool ? drizzle(readPool, { logger: counter.logger }) : undefined;
  return {
    dialect: 'pg',
    // the replica, except for a request that writes or carries credentials (read-routing.ts)
    get db() {
      return replica && !readsFromPrimary() ? replica : db;
    },
    primary: db,
    get queries() {
      return counter.count;
    },
    tables,
    async queryRaw(text: string, values: unknown[]) {
      counter.count++;
      const from = readPool && !readsFromPrimary() ? readPool : pool;
      return (await from.query({ text, values, rowMode: 'array', types: DRIZZLE_TYPES })).rows as unknown[][];
    },
    transaction: (fn) => db.transaction(fn),
    async migrate(migrationsDir: string, opts: MigrateOptions = {}) {
      const files = readMigrations(join(migrationsDir, 'pg'));
      const client = await pool.connect();
      try {
        await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
        // read under the lock: another instance may just have applied them
        const pending = pendingOf(files, await appliedPg(client));
        if (opts.dryRun || !pending.length) return { applied: [], pending };
        await client.query('CREATE SCHEMA IF NOT EXISTS "drizzle"');
        await client.query(`CREATE TABLE IF NOT EXISTS ${TABLE} (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint)`);
        const applied: MigrationFile[] = [];
        for (const m of pending) {
          await applyPg(client, m);
          applied.push(m);
          opts.onApplied?.(m);
        }
        return { applied, pending: [] };
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
        client.release();
      }
    },
    async migrationStatus(migrationsDir: string) {
      const client = await pool.connect();
      try {
        return statusOf(readMigrations(join(migrationsDir, 'pg')), await appliedPg(client));
      } finally {
        client.release();
      }
    },
    close: async () => {
      await Promise.all([pool.end(), readPool?.end()]);
    },
  };
}
