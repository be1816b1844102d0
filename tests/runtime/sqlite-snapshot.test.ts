import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import BetterSqlite3 from 'better-sqlite3';
import { sqliteDatabase } from '../helpers/databases.js';
import { bootApp, type TestApp } from '../helpers/app.js';

/**
 * SQLite keeps a run of reads in one read transaction (runtime/db/sqlite.ts): the reads of a page see one state of
 * the database, and skip WAL's read lock per statement. These cases hold it to what a caller may rely on: a request
 * sees every write committed before it started, by any connection or process, and this process's own writes at once.
 */
describe('SQLite: a run of reads shares one snapshot', () => {
  let t: TestApp;
  let other: BetterSqlite3.Database;
  const table = 'billing_currencies';
  const count = () => Number(t.database.readRaw!(`select count(*) from ${table}`, [])[0][0]);
  /** a row written by another connection, as another process (WORKERS=N) would */
  const insertElsewhere = () => {
    const now = Date.now();
    other.prepare(`insert into ${table} (id, created_at, updated_at, admin_title, slug) values (?, ?, ?, ?, ?)`).run(randomUUID(), now, now, 'Elsewhere', `c-${randomUUID()}`);
  };
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
  const listed = async () => (await t.call('GET', `/api/billing/currencies?limit=100`)).body.data.length as number;

  beforeAll(async () => {
    const db = sqliteDatabase();
    t = await bootApp(db);
    other = new BetterSqlite3(db.url.replace(/^file:/, ''));
  });
  afterAll(async () => {
    other?.close();
    await t?.close();
  });

  it('reads in a row see one state: a write committed elsewhere meanwhile shows from the next turn', async () => {
    await nextTurn();
    const before = count();
    count();
    count();
    insertElsewhere();
    // the same run: the state the run started from (no read sees half of what changed)
    expect(count()).toBe(before);
    await nextTurn();
    expect(count()).toBe(before + 1);
  });

  it('a request sees every write committed before it started, even with a snapshot open in the same turn', async () => {
    await nextTurn();
    const before = await listed();
    await nextTurn();
    count();
    count();
    count();
    insertElsewhere();
    expect(count()).toBe(before);
    // no turn has passed: the request's start ends the snapshot, so its reads see the new row
    expect(await listed()).toBe(before + 1);
  });

  it("this process's own write is seen by its next read, in the same turn", async () => {
    await nextTurn();
    const before = count();
    count();
    count();
    const now = new Date();
    await t.database.transaction(async (tx) => tx.insert(t.database.tables['billing/currency']).values({ id: randomUUID(), createdAt: now, updatedAt: now, adminTitle: 'Here', slug: `c-${randomUUID()}` }));
    expect(count()).toBe(before + 1);
  });

  it('a write through the API is listed by the next request at once', async () => {
    const before = await listed();
    count();
    count();
    count();
    const created = await t.call('POST', '/api/billing/currencies', { data: { adminTitle: 'Via API', slug: `c-${randomUUID().slice(0, 8)}` } });
    expect(created.status).toBe(201);
    expect(await listed()).toBe(before + 1);
    expect((await t.call('GET', `/api/billing/currencies/${created.body.data.id}`)).status).toBe(200);
  });
});
