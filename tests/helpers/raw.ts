import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import type { TestDatabase } from './databases.js';

/** a statement straight to a test database, beside the app: rows of a SELECT, nothing otherwise */
export async function execute(db: TestDatabase, sql: string): Promise<Record<string, unknown>[]> {
  if (db.name === 'sqlite') {
    const c = new BetterSqlite3(db.url.replace(/^file:/, ''));
    try {
      return /^\s*select/i.test(sql) ? (c.prepare(sql).all() as Record<string, unknown>[]) : (c.exec(sql), []);
    } finally {
      c.close();
    }
  }
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  try {
    return (await c.query(sql)).rows;
  } finally {
    await c.end();
  }
}
