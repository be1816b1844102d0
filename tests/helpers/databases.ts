import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { ROOT } from '../../engine/codegen.js';

export interface TestDatabase {
  name: 'sqlite' | 'pg';
  url: string;
  drop(): Promise<void>;
}

/** a SQLite file of its own under .tmp/ */
export function sqliteDatabase(): TestDatabase {
  const dir = join(ROOT, '.tmp', 'db-' + randomBytes(6).toString('hex'));
  mkdirSync(dir, { recursive: true });
  return { name: 'sqlite', url: `file:${join(dir, 'test.db')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

/** a PostgreSQL database of its own, made on the server TEST_DATABASE_URL names and dropped afterwards */
export async function pgDatabase(adminUrl = process.env.TEST_DATABASE_URL!): Promise<TestDatabase> {
  const name = 'mp_test_' + randomBytes(6).toString('hex');
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = '/' + name;
  return {
    name: 'pg',
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** the databases every API suite runs on: SQLite always, PostgreSQL when TEST_DATABASE_URL is set */
export const DIALECTS: { name: 'sqlite' | 'pg'; make: () => Promise<TestDatabase> }[] = [
  { name: 'sqlite', make: async () => sqliteDatabase() },
  ...(process.env.TEST_DATABASE_URL ? [{ name: 'pg' as const, make: () => pgDatabase() }] : []),
];
