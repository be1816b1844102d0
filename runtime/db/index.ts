import { dialectOf, type Database, type Drizzle } from './database.js';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { appliedSqlite, openSqlite } from './sqlite.js';
import { appliedPg, openPg } from './pg.js';
import type { AppliedRow } from './migrator.js';

export type { Database, Drizzle } from './database.js';
export { dialectOf } from './database.js';
export { MigrationError, type MigrationFile, type MigrationStatus } from './migrator.js';

/**
 * Opens the database DATABASE_URL names: `file:…` (or unset) is SQLite, `postgres://…` PostgreSQL; `readUrl`
 * (DATABASE_READ_URL, PostgreSQL only) is a read replica the reads of `db` go to.
 */
export function openDatabase(url: string, tablesByDialect: Record<'sqlite' | 'pg', Record<string, Drizzle>>, readUrl?: string): Database {
  const dialect = dialectOf(url);
  if (readUrl && (dialect !== 'pg' || dialectOf(readUrl) !== 'pg')) throw new Error('DATABASE_READ_URL is a PostgreSQL read replica: it needs a postgres:// DATABASE_URL and a postgres:// address');
  return dialect === 'pg' ? openPg(url, tablesByDialect.pg, readUrl) : openSqlite(url, tablesByDialect.sqlite);
}

/**
 * The migrations the database at `url` has applied, read without changing anything: none for a SQLite file that
 * does not exist yet, undefined when the database cannot be reached (then nobody can tell what it has applied).
 */
export async function appliedMigrations(url: string): Promise<AppliedRow[] | undefined> {
  try {
    if (dialectOf(url) === 'sqlite') {
      const path = resolve(url.replace(/^file:(\/\/)?/, ''));
      if (!existsSync(path)) return [];
      const client = new BetterSqlite3(path, { readonly: true, fileMustExist: true });
      try {
        return appliedSqlite(client);
      } finally {
        client.close();
      }
    }
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
    await client.connect();
    try {
      return await appliedPg(client);
    } finally {
      await client.end();
    }
  } catch {
    return undefined;
  }
}
