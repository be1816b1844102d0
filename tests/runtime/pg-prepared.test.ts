import { describe, expect, it } from 'vitest';
import { pgDatabase } from '../helpers/databases.js';
import { bootApp } from '../helpers/app.js';
import { execute } from '../helpers/raw.js';

/**
 * PostgreSQL's raw reads (`Database.queryRaw`: the CRUD lists' pages and counts) run as statements prepared once per
 * connection: planned once, not per list. A statement prepared before a migration changed the type of a column it
 * returns is run unprepared instead of failing ("cached plan must not change result type").
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('PostgreSQL raw reads as prepared statements', () => {
  it('prepares a raw read once per connection, and reads on after its columns change type', async () => {
    const db = await pgDatabase();
    const app = await bootApp(db);
    try {
      const made = await app.call('POST', '/api/ecommerce/products', { data: { adminTitle: 'Prepared', slug: 'prepared', title: { en: 'Prepared' } } });
      expect(made.status).toBe(201);
      const text = 'SELECT "slug", "admin_title" FROM "ecommerce_products" WHERE "slug" = $1';
      // one connection at a time: the pool hands the same idle one back
      expect(await app.database.queryRaw!(text, ['prepared'])).toEqual([['prepared', 'Prepared']]);
      expect(await app.database.queryRaw!(text, ['prepared'])).toEqual([['prepared', 'Prepared']]);
      const prepared = await app.database.queryRaw!("SELECT statement FROM pg_prepared_statements WHERE name LIKE 'raw_%'", []);
      expect(prepared.map(([s]) => s)).toContain(text);
      // a migration changes what the prepared statement returns
      await execute(db, 'ALTER TABLE "ecommerce_products" ALTER COLUMN "admin_title" TYPE varchar(500)');
      for (let i = 0; i < 3; i++) expect(await app.database.queryRaw!(text, ['prepared'])).toEqual([['prepared', 'Prepared']]);
      // and the lists on top of it answer
      const list = await app.call('GET', '/api/ecommerce/products?filters[and][0][column]=slug&filters[and][0][method]=eq&filters[and][0][value]=prepared', undefined, { auth: false });
      expect(list).toMatchObject({ status: 200, body: { data: [{ slug: 'prepared' }] } });
    } finally {
      await app.close();
    }
  });
});
