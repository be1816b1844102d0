import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { bootApp, type TestApp } from '../helpers/app.js';
import { DIALECTS, type TestDatabase } from '../helpers/databases.js';
import { fromDatabaseError } from '../../runtime/http/errors.js';

const C = '/api/ecommerce/categories';
const P = '/api/ecommerce/products';
const CP = '/api/ecommerce/categories-to-products';

/** a transaction of another connection (another process) that deletes a row and holds its locks until `commit` */
async function deleteElsewhere(db: TestDatabase, table: string, id: string) {
  if (db.name === 'sqlite') {
    const other = new BetterSqlite3(db.url.replace(/^file:/, ''));
    other.exec('BEGIN IMMEDIATE');
    other.prepare(`DELETE FROM ${table} WHERE id = ?`).run(id);
    return {
      // SQLite: the app's write waits for the write lock this transaction holds
      waiting: () => new Promise((r) => setTimeout(r, 100)),
      commit: async () => {
        other.exec('COMMIT');
        other.close();
      },
    };
  }
  const other = new pg.Client({ connectionString: db.url });
  await other.connect();
  await other.query('BEGIN');
  await other.query(`DELETE FROM ${table} WHERE id = $1`, [id]);
  return {
    // PostgreSQL: the app's insert has passed its own check (the delete is not committed) and its foreign-key
    // check waits for the deleted row's lock
    async waiting() {
      for (const until = Date.now() + 5000; Date.now() < until; await new Promise((r) => setTimeout(r, 10))) {
        const { rows } = await other.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'");
        if (rows[0].n > 0) return;
      }
      throw new Error('the insert never waited for the deleted row');
    },
    commit: async () => {
      await other.query('COMMIT');
      await other.end();
    },
  };
}

/**
 * A relation written while its target is being deleted by another connection: the same 400 naming the field
 * (rule `reference`) as a reference to a row that never existed, on both databases. On PostgreSQL the app's
 * own check passes and the foreign key refuses the insert (23503), which is answered like that check.
 */
for (const d of DIALECTS) {
  describe(`a reference to a row deleted meanwhile on ${d.name}`, () => {
    let t: TestApp;
    let db: TestDatabase;
    beforeAll(async () => {
      db = await d.make();
      t = await bootApp(db);
    });
    afterAll(async () => t?.close());

    const categoryTable = () => t.model.byId['ecommerce/category'].table;

    it('creating a relation whose target is deleted meanwhile is a 400 naming the field', async () => {
      const category = (await t.call('POST', C, { data: {} })).body.data;
      const product = (await t.call('POST', P, { data: {} })).body.data;
      const other = await deleteElsewhere(db, categoryTable(), category.id);
      const pending = t.call('POST', CP, { data: { categoryId: category.id, productId: product.id } });
      try {
        await other.waiting();
      } finally {
        await other.commit();
      }
      const r = await pending;
      const message = `categoryId: no ecommerce/category with id ${category.id}`;
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ status: 400, message, cause: [{ field: 'categoryId', rule: 'reference', message }] });
      // as for a category that never existed
      const unknown = randomUUID();
      const never = await t.call('POST', CP, { data: { categoryId: unknown, productId: product.id } });
      expect(never.status).toBe(400);
      expect(never.body.cause).toEqual([{ field: 'categoryId', rule: 'reference', message: `categoryId: no ecommerce/category with id ${unknown}` }]);
      expect((await t.call('GET', `${CP}?filters[and][0][column]=productId&filters[and][0][method]=eq&filters[and][0][value]=${product.id}`)).body.data).toEqual([]);
    });

    it('changing a relation to a target deleted meanwhile is a 400 naming the field, in a bulk at its place', async () => {
      const [a, b] = [(await t.call('POST', C, { data: {} })).body.data, (await t.call('POST', C, { data: {} })).body.data];
      const product = (await t.call('POST', P, { data: {} })).body.data;
      const link = (await t.call('POST', CP, { data: { categoryId: a.id, productId: product.id } })).body.data;
      const other = await deleteElsewhere(db, categoryTable(), b.id);
      const pending = t.call('PATCH', `${CP}/bulk`, { data: [{ id: link.id, categoryId: b.id }] });
      try {
        await other.waiting();
      } finally {
        await other.commit();
      }
      const r = await pending;
      const message = `data[0].categoryId: no ecommerce/category with id ${b.id}`;
      expect(r.status).toBe(400);
      expect(r.body.cause).toEqual([{ field: 'data[0].categoryId', rule: 'reference', message }]);
      expect((await t.call('GET', `${CP}/${link.id}`)).body.data.categoryId).toBe(a.id);
    });

    if (d.name === 'pg') {
      it("maps PostgreSQL's foreign-key errors: a missing target is the 400, a row still referenced the 409", async () => {
        const pool = new pg.Client({ connectionString: db.url });
        await pool.connect();
        const failure = async (statement: string, params: unknown[]) => {
          try {
            await pool.query(statement, params);
          } catch (e) {
            return e;
          }
          throw new Error(`no error from ${statement}`);
        };
        try {
          const relation = t.model.byId['ecommerce/categories-to-products'];
          const product = (await t.call('POST', P, { data: {} })).body.data;
          const missing = randomUUID();
          // the insert side, straight to the table (past the app's own check)
          const insert = await failure(
            `INSERT INTO ${relation.table} (id, created_at, updated_at, variant, category_id, product_id) VALUES ($1, now(), now(), 'default', $2, $3)`,
            [randomUUID(), missing, product.id],
          );
          expect(insert).toMatchObject({ code: '23503', detail: expect.stringMatching(/^Key \(category_id\)=\(.+\) is not present in table/) });
          const mapped = fromDatabaseError(insert, relation, 'data[2]')!;
          expect(mapped.status).toBe(400);
          expect(mapped.message).toBe(`data[2].categoryId: no ecommerce/category with id ${missing}`);
          expect(mapped.causes).toEqual([{ field: 'data[2].categoryId', rule: 'reference', message: mapped.message }]);
          // drizzle wraps the driver's error: the same answer
          expect(fromDatabaseError({ message: 'Failed query', cause: insert }, relation)!.causes).toEqual([
            { field: 'categoryId', rule: 'reference', message: `categoryId: no ecommerce/category with id ${missing}` },
          ]);
          // the delete side: a row other rows still reference (every generated reference cascades, so a table of the test's own)
          const category = (await t.call('POST', C, { data: {} })).body.data;
          await pool.query(`CREATE TABLE fk_probe (id uuid PRIMARY KEY, category_id uuid REFERENCES ${t.model.byId['ecommerce/category'].table} (id))`);
          await pool.query('INSERT INTO fk_probe VALUES ($1, $2)', [randomUUID(), category.id]);
          const del = await failure(`DELETE FROM ${t.model.byId['ecommerce/category'].table} WHERE id = $1`, [category.id]);
          expect(del).toMatchObject({ code: '23503', detail: expect.stringContaining('is still referenced from table') });
          const refused = fromDatabaseError(del, t.model.byId['ecommerce/category'])!;
          expect(refused.status).toBe(409);
          expect(refused.message).toBe('a referenced row does not exist, or other rows still reference this one');
          expect(refused.causes).toBeUndefined();
          expect(refused.message).not.toContain(category.id);
          // a row of another table than the entity's: not named as one of its fields
          expect(fromDatabaseError(insert, t.model.byId['ecommerce/product'])!.status).toBe(409);
        } finally {
          await pool.end();
        }
      });
    }
  });
}
