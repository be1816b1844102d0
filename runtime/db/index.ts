import { dialectOf, type Database, type Drizzle } from './database.js';
import { openSqlite } from './sqlite.js';
import { openPg } from './pg.js';

export type { Database, Drizzle } from './database.js';
export { dialectOf } from './database.js';

/** Opens the database DATABASE_URL names: `file:…` (or unset) is SQLite, `postgres://…` PostgreSQL. */
export function openDatabase(url: string, tablesByDialect: Record<'sqlite' | 'pg', Record<string, Drizzle>>): Database {
  const dialect = dialectOf(url);
  return dialect === 'pg' ? openPg(url, tablesByDialect.pg) : openSqlite(url, tablesByDialect.sqlite);
}
