import { describe, it, expect } from 'vitest';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { drizzle as drizzleSqlite } from 'drizzle-orm/better-sqlite3';
import { migrate as migrateSqlite } from 'drizzle-orm/better-sqlite3/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { ROOT } from '../../engine/codegen.js';
import { openDatabase } from '../../runtime/db/index.js';
import { loadGenerated } from '../../runtime/generated.js';
import { DIALECTS } from '../helpers/databases.js';

/**
 * The platform's committed migrations (0000_init, 0001_schema_change, …) keep applying: a database that drizzle's
 * own migrator brought up to date before is seen as up to date, and a new one gets every migration.
 */
const MIGRATIONS = join(ROOT, 'migrations');
const tags = (d: string) => (JSON.parse(readFileSync(join(MIGRATIONS, d, 'meta', '_journal.json'), 'utf8')).entries as { tag: string }[]).map((e) => e.tag);

for (const d of DIALECTS) {
  describe(`the committed migrations on ${d.name}`, () => {
    it('a database migrated by drizzle\'s migrator before needs nothing more; a new one gets them all', async () => {
      const { tables } = await loadGenerated(join(ROOT, 'generated'));
      const before = await d.make();
      const fresh = await d.make();
      try {
        if (d.name === 'sqlite') {
          const client = new BetterSqlite3(before.url.replace(/^file:/, ''));
          migrateSqlite(drizzleSqlite(client), { migrationsFolder: join(MIGRATIONS, 'sqlite') });
          client.close();
        } else {
          const client = new pg.Client({ connectionString: before.url });
          await client.connect();
          await migratePg(drizzlePg(client), { migrationsFolder: join(MIGRATIONS, 'pg') });
          await client.end();
        }
        const old = openDatabase(before.url, tables);
        expect(await old.migrationStatus(MIGRATIONS)).toEqual({ applied: expect.any(Array), pending: [] });
        expect((await old.migrate(MIGRATIONS)).applied).toEqual([]);
        await old.close();

        const db = openDatabase(fresh.url, tables);
        expect((await db.migrate(MIGRATIONS)).applied.map((m) => m.tag)).toEqual(tags(d.name));
        expect((await db.migrationStatus(MIGRATIONS)).applied.map((m) => m.tag)).toEqual(tags(d.name));
        await db.close();
      } finally {
        await before.drop();
        await fresh.drop();
      }
    });
  });
}
