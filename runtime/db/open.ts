import { dialectOf, type Database, type Drizzle } from './database.js';

/**
 * Opens the database DATABASE_URL names, loading only its dialect's driver and tables (the server starts faster
 * without the other's modules). `readUrl` (DATABASE_READ_URL): a PostgreSQL read replica for anonymous reads.
 */
export async function openDatabaseOf(url: string, load: (dialect: 'sqlite' | 'pg') => Promise<Record<string, Drizzle>>, readUrl?: string): Promise<Database> {
  const dialect = dialectOf(url);
  if (readUrl && (dialect !== 'pg' || dialectOf(readUrl) !== 'pg')) throw new Error('DATABASE_READ_URL is a PostgreSQL read replica: it needs a postgres:// DATABASE_URL and a postgres:// address');
  if (dialect === 'pg') return (await import('./pg.js')).openPg(url, await load('pg'), readUrl);
  return (await import('./sqlite.js')).openSqlite(url, await load('sqlite'));
}
