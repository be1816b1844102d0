import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { bootApp, type TestApp } from '../helpers/app.js';
import { DIALECTS } from '../helpers/databases.js';

const P = '/api/ecommerce/products';
const A = '/api/blog/articles';
const BY_TYPE = `${P}?filters[and][0][column]=type&filters[and][0][method]=eq&filters[and][0][value]=subscription&limit=1`;
const BY_PRIVATE = `${A}?filters[and][0][column]=privateContent.en&filters[and][0][method]=like&filters[and][0][value]=secret`;

/**
 * The read path keeps compiled lists and list totals between requests (SQLite): a total must still be exact after
 * any write — through the API, through a plugin's own transaction, from another connection or process — and what
 * one caller may filter on must never be served to another from what was kept.
 */
for (const d of DIALECTS) {
  describe(`list totals and kept list queries on ${d.name}`, () => {
    let t: TestApp;
    let url: string;
    const total = async (path = BY_TYPE) => {
      const res = await t.call('GET', path);
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveLength(1);
      return Number(res.headers.get('x-total-count'));
    };
    /** a write outside this app: another connection to the same database */
    const foreign = async (statement: string) => {
      if (d.name === 'sqlite') {
        const other = new BetterSqlite3(url.replace(/^file:/, ''));
        try {
          other.prepare(statement).run();
        } finally {
          other.close();
        }
      } else {
        const other = new pg.Client({ connectionString: url });
        await other.connect();
        try {
          await other.query(statement);
        } finally {
          await other.end();
        }
      }
    };

    beforeAll(async () => {
      const db = await d.make();
      url = db.url;
      t = await bootApp(db);
      const data = Array.from({ length: 6 }, (_, i) => ({ slug: `t-${i}`, adminTitle: `T ${i}`, type: i % 2 ? 'subscription' : 'one_off' }));
      expect((await t.call('POST', `${P}/bulk`, { data })).status).toBe(201);
    });
    afterAll(async () => t?.close());

    it('a page shorter than the total carries the exact total, again and after each kind of write', async () => {
      expect(await total()).toBe(3);
      expect(await total()).toBe(3);
      // through the API
      expect((await t.call('POST', P, { data: { slug: 't-api', adminTitle: 'API', type: 'subscription' } })).status).toBe(201);
      expect(await total()).toBe(4);
      // a plugin's own transaction, bypassing the repository
      const table = t.database.tables['ecommerce/product'];
      await t.database.transaction(async (tx) => {
        const { eq } = await import('drizzle-orm');
        await tx.update(table).set({ type: 'one_off' }).where(eq(table.slug, 't-api'));
      });
      expect(await total()).toBe(3);
      // another connection (another process, a script)
      await foreign(`UPDATE ecommerce_products SET type = 'subscription' WHERE slug = 't-0'`);
      expect(await total()).toBe(4);
      await foreign(`DELETE FROM ecommerce_products WHERE slug = 't-1'`);
      expect(await total()).toBe(3);
      // /count agrees
      expect((await t.call('GET', `${P}/count?filters[and][0][column]=type&filters[and][0][method]=eq&filters[and][0][value]=subscription`)).body.data).toBe(3);
    });

    it.runIf(d.name === 'pg')('a total counted while another transaction is open is exact once it commits, and after a rollback', async () => {
      const before = await total();
      const other = new pg.Client({ connectionString: url });
      await other.connect();
      try {
        await other.query('BEGIN');
        await other.query(`UPDATE ecommerce_products SET type = 'one_off' WHERE slug = 't-3'`);
        // counted (and kept) while the write is in flight: not visible yet
        expect(await total()).toBe(before);
        expect(await total()).toBe(before);
        await other.query('ROLLBACK');
        expect(await total()).toBe(before);
        await other.query('BEGIN');
        await other.query(`UPDATE ecommerce_products SET type = 'one_off' WHERE slug = 't-3'`);
        expect(await total()).toBe(before);
        await other.query('COMMIT');
        expect(await total()).toBe(before - 1);
      } finally {
        await other.end();
      }
    });

    it('a list one caller may run is not served to a caller who may not filter on that field', async () => {
      expect((await t.call('POST', A, { data: { slug: 'members', title: { en: 'Members' }, privateContent: { en: '<p>the secret part</p>' } } })).status).toBe(201);
      const system = await t.call('GET', BY_PRIVATE);
      expect(system.status).toBe(200);
      expect(system.body.data.map((r: { slug: string }) => r.slug)).toEqual(['members']);
      const anonymous = await t.call('GET', BY_PRIVATE, undefined, { auth: false });
      expect(anonymous.status).toBe(400);
      expect(JSON.stringify(anonymous.body)).not.toContain('the secret part');
      // and the other way round: refused first, then allowed
      const plain = `${A}?filters[and][0][column]=privateContent.en&filters[and][0][method]=like&filters[and][0][value]=part`;
      expect((await t.call('GET', plain, undefined, { auth: false })).status).toBe(400);
      expect((await t.call('GET', plain)).body.data).toHaveLength(1);
      // an anonymous list never carries the field
      const listed = await t.call('GET', A, undefined, { auth: false });
      expect(listed.status).toBe(200);
      expect(listed.body.data[0]).not.toHaveProperty('privateContent');
    });
  });
}
