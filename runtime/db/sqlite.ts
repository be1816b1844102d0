import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { queryCounter, type Database, type Drizzle } from './database.js';

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
    async migrate(migrationsDir: string) {
      // table rebuilds drop and recreate tables: with foreign keys on, that would cascade-delete child rows
      writer.pragma('foreign_keys = OFF');
      try {
        migrate(wdb, { migrationsFolder: join(migrationsDir, 'sqlite') });
        const broken = writer.pragma('foreign_key_check') as unknown[];
        if (broken.length) throw new Error(`migration left ${broken.length} row(s) with a dangling foreign key`);
      } finally {
        writer.pragma('foreign_keys = ON');
      }
      // the reader's schema cache predates the migration
      reader.close();
      reader = open(path, true);
      rdb = drizzle(reader, { logger: counter.logger });
    },
    async close() {
      await queue;
      reader.close();
      writer.close();
    },
  };
  return database;
}
