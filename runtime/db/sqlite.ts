import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { queryCounter, type Database, type Drizzle, type MigrateOptions } from './database.js';
import { databaseError, guardFailure, guardOf, MigrationError, pendingOf, readMigrations, statusOf, type AppliedRow, type GuardRow, type MigrationFile } from './migrator.js';

const TABLE = '"__drizzle_migrations"';

/** the migrations drizzle's table says were applied; none when there is no table yet */
export function appliedSqlite(client: BetterSqlite3.Database): AppliedRow[] {
  const exists = client.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'").get();
  if (!exists) return [];
  return (client.prepare(`SELECT hash, created_at FROM ${TABLE}`).all() as { hash: string; created_at: number }[])
    .map((r) => ({ hash: r.hash, createdAt: Number(r.created_at) }));
}

function open(path: string, readonly: boolean) {
  const client = new BetterSqlite3(path, { readonly, fileMustExist: readonly });
  if (!readonly) client.pragma('journal_mode = WAL');
  client.pragma('busy_timeout = 5000');
  client.pragma('foreign_keys = ON');
  // LIKE is case-sensitive as on PostgreSQL; ilike is the case-insensitive one
  client.pragma('case_sensitive_like = ON');
  if (!readonly) client.pragma('synchronous = NORMAL');
  return client;
}

/**
 * Embedded SQLite: one writer connection (writes serialized in transactions) and one reader,
 * which in WAL mode sees only committed data.
 */
export function openSqlite(url: string, tables: Record<string, Drizzle>): Database {
  const path = resolve(url.replace(/^file:(\/\/)?/, ''));
  mkdirSync(dirname(path), { recursive: true });
  const writer = open(path, false);
  let reader = open(path, true);
  const counter = queryCounter();
  const wdb = drizzle(writer, { logger: counter.logger });
  let rdb = drizzle(reader, { logger: counter.logger });
  let queue: Promise<unknown> = Promise.resolve();

  const database: Database = {
    dialect: 'sqlite',
    get db() {
      return rdb;
    },
    get queries() {
      return counter.count;
    },
    tables,
    transaction<T>(fn: (tx: Drizzle) => Promise<T>): Promise<T> {
      const run = async () => {
        writer.exec('BEGIN IMMEDIATE');
        try {
          const result = await fn(wdb);
          writer.exec('COMMIT');
          return result;
        } catch (e) {
          if (writer.inTransaction) writer.exec('ROLLBACK');
          throw e;
        }
      };
      const next = queue.then(run, run);
      queue = next.catch(() => undefined);
      return next;
    },
    async migrate(migrationsDir: string, opts: MigrateOptions = {}) {
      const files = readMigrations(join(migrationsDir, 'sqlite'));
      const pending = pendingOf(files, appliedSqlite(writer));
      if (opts.dryRun || !pending.length) return { applied: [], pending };
      await queue;
      writer.exec(`CREATE TABLE IF NOT EXISTS ${TABLE} (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at numeric)`);
      const applied: MigrationFile[] = [];
      // table rebuilds drop and recreate tables: with foreign keys on, that would cascade-delete child rows
      // (the pragma is a no-op inside a transaction, so it is set around them; foreign_key_check ends each one)
      writer.pragma('foreign_keys = OFF');
      try {
        for (const m of pending) {
          applySqlite(writer, m);
          applied.push(m);
          opts.onApplied?.(m);
        }
      } finally {
        writer.pragma('foreign_keys = ON');
        // the reader's schema cache predates the migration
        reader.close();
        reader = open(path, true);
        rdb = drizzle(reader, { logger: counter.logger });
      }
      return { applied, pending: [] };
    },
    async migrationStatus(migrationsDir: string) {
      return statusOf(readMigrations(join(migrationsDir, 'sqlite')), appliedSqlite(writer));
    },
    async close() {
      await queue;
      reader.close();
      writer.close();
    },
  };
  return database;
}

/** one migration in one transaction: its guards may refuse it; a failure rolls all of it back */
function applySqlite(writer: BetterSqlite3.Database, m: MigrationFile) {
  let at = 0;
  writer.exec('BEGIN IMMEDIATE');
  try {
    for (const [i, stmt] of m.statements.entries()) {
      at = i;
      const guard = guardOf(stmt);
      if (guard) {
        const failure = guardFailure(guard, writer.prepare(stmt).get() as GuardRow | undefined);
        if (failure) throw new MigrationError(m.file, i, stmt, failure, true);
        continue;
      }
      writer.exec(stmt);
    }
    const broken = writer.pragma('foreign_key_check') as { table: string; rowid: number; parent: string }[];
    if (broken.length) {
      const first = broken[0];
      throw new MigrationError(m.file, at, '', `it would leave ${broken.length} row(s) pointing at rows that do not exist (e.g. a row of ${first.table} pointing into ${first.parent})`, true);
    }
    writer.prepare(`INSERT INTO ${TABLE} ("hash", "created_at") VALUES (?, ?)`).run(m.hash, m.when);
    writer.exec('COMMIT');
  } catch (e) {
    if (writer.inTransaction) writer.exec('ROLLBACK');
    if (e instanceof MigrationError) throw e;
    throw new MigrationError(m.file, at, m.statements[at] ?? '', databaseError('sqlite', e), false);
  }
}
