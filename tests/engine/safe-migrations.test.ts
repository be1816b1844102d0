import { describe, it, expect, afterAll } from 'vitest';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { codegen } from '../../engine/codegen.js';
import { ManifestError } from '../../engine/load.js';
import { rowSchema } from '../../engine/json-schema.js';
import type { Model } from '../../engine/model.js';
import { appliedMigrations, MigrationError } from '../../runtime/db/index.js';
import { DIALECTS, type TestDatabase } from '../helpers/databases.js';
import { bootApp } from '../helpers/app.js';
import { migrating, scratchProject, snapshotFiles } from '../helpers/schemas.js';
import { execute } from '../helpers/raw.js';

/**
 * Every kind of schema change on a database that holds rows (with nulls, duplicates and values that do not
 * convert), on each database: the rows are kept, or the change is refused with a clear message and nothing is
 * written — by codegen before it writes a file, or by the migration, which then leaves the database as it was.
 */

const category = { name: 'category', route: 'categories', title: 'Category', fields: { slug: { kind: 'text', required: true, unique: true } } };
type Fields = Record<string, Record<string, unknown>>;
const item = (fields: Fields) => ({ name: 'item', route: 'items', title: 'Item', fields });
const v1: Fields = {
  title: { kind: 'text' },
  note: { kind: 'text' },
  qty: { kind: 'text' },
  price: { kind: 'text' },
  code: { kind: 'text' },
  label: { kind: 'localized' },
};

const raw = execute;

const items = async (t: { call: (m: string, p: string) => Promise<{ body: any }> }) =>
  (await t.call('GET', '/api/shop/items?orderBy[and][0][column]=createdAt&orderBy[and][0][method]=asc')).body.data as Record<string, unknown>[];
const tagsOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'meta', '_journal.json'), 'utf8')).entries.map((e: { tag: string }) => e.tag);

for (const d of DIALECTS) {
  describe(`safe migrations on ${d.name}`, () => {
    const p = scratchProject();
    let db: TestDatabase;
    afterAll(async () => {
      await db?.drop();
      p.remove();
    });
    /** unapplied = not applied on this test's database (scripts/codegen.ts also asks git) */
    const { gen, boot, refusal } = migrating(p, () => db);
    /** both dialects' histories describe the same changes */
    const sameHistories = () => expect(tagsOf(join(p.migrationsDir, 'sqlite'))).toEqual(tagsOf(join(p.migrationsDir, 'pg')));
    /** the API's rows match the JSON Schema the generated types are made from */
    const matchesTypes = (model: Model, rows: unknown[]) => {
      const ajv = new Ajv({ allErrors: true, strict: false });
      (addFormats as unknown as (a: Ajv) => void)(ajv);
      const validate = ajv.compile(rowSchema(model.byId['shop/item'], model));
      for (const row of rows) expect(validate(row), JSON.stringify(validate.errors)).toBe(true);
    };

    it('keeps every row through a rename, a new required default, conversions, a unique and a required reference; refuses what it cannot keep', async () => {
      db = await d.make();
      p.write('shop/category.json', category);
      p.write('shop/item.json', item(v1));
      await gen();
      let t = await boot();
      const cats = (await t.call('POST', '/api/shop/categories/bulk', { data: [{ slug: 'general' }, { slug: 'other' }] })).body.data;
      const made = await t.call('POST', '/api/shop/items/bulk', {
        data: [
          { title: 'First', qty: '1', price: '12', code: 'A', label: { en: 'One' } },
          { title: 'Second', note: 'kept', qty: ' 2 ', price: 'abc', code: 'A', label: { en: 'Two', ru: 'Два' } },
          { code: 'B' },
        ],
      });
      expect(made.status).toBe(201);
      await t.database.close();

      // 1. a rename, an optional field made required with a default, text → integer where every value converts
      p.write('shop/item.json', item({
        ...v1,
        title: undefined as never,
        name: { kind: 'text', renamedFrom: 'title' },
        note: { kind: 'text', required: true, default: 'none' },
        qty: { kind: 'integer' },
      }));
      const first = await gen();
      expect(first.migration!.tag).toBe('0001_shop_item_rename_name_change_note_qty');
      sameHistories();
      const pgSql = readFileSync(join(p.migrationsDir, 'pg', '0001_shop_item_rename_name_change_note_qty.sql'), 'utf8');
      expect(pgSql).toContain('ALTER TABLE "shop_items" RENAME COLUMN "title" TO "name"');
      expect(pgSql).toMatch(/SET DATA TYPE integer USING/);
      t = await boot();
      expect(t.migrated).toEqual(['0001_shop_item_rename_name_change_note_qty']);
      let rows = await items(t);
      expect(rows.map((r) => [r.name, r.note, r.qty])).toEqual([['First', 'none', 1], ['Second', 'kept', 2], [null, 'none', null]]);
      matchesTypes(t.model, rows);
      expect(readFileSync(join(p.outDir, 'types.ts'), 'utf8')).toMatch(/qty: \(number \| null\)/);
      await t.database.close();

      // 2. text → integer where a value does not convert: the migration refuses, naming how many and an example
      p.write('shop/item.json', item({ ...v1, title: undefined as never, name: { kind: 'text', renamedFrom: 'title' }, note: { kind: 'text', required: true, default: 'none' }, qty: { kind: 'integer' }, price: { kind: 'integer' } }));
      expect((await gen()).migration!.tag).toBe('0002_shop_item_change_price');
      let refused = await refusal();
      expect(refused.message).toContain(`Migration ${join(p.migrationsDir, d.name, '0002_shop_item_change_price.sql').replace(process.cwd() + '/', '')} refused`);
      expect(refused.message).toContain("shop/item.price changes from text to integer, but 1 row(s) hold a value that is not a whole number (or is out of the integer range), e.g. 'abc'");
      expect(refused.message).toContain('the database is as it was before it');
      expect((await raw(db, 'SELECT price FROM shop_items ORDER BY created_at')).map((r) => r.price)).toEqual(['12', 'abc', null]);

      // going back while it is unapplied removes it instead of piling up a new one
      const back = item({ ...v1, title: undefined as never, name: { kind: 'text', renamedFrom: 'title' }, note: { kind: 'text', required: true, default: 'none' }, qty: { kind: 'integer' } });
      p.write('shop/item.json', back);
      expect((await gen()).migration).toMatchObject({ removed: true, tag: '0002_shop_item_change_price' });
      expect(readdirSync(join(p.migrationsDir, d.name)).filter((f) => f.endsWith('.sql'))).toEqual(['0000_init.sql', '0001_shop_item_rename_name_change_note_qty.sql']);
      sameHistories();
      // the data fixed, the same change goes through
      await raw(db, "UPDATE shop_items SET price = ' 7' WHERE price = 'abc'");
      p.write('shop/item.json', item({ ...(back.fields as Fields), price: { kind: 'integer' } }));
      expect((await gen()).migration!.tag).toBe('0002_shop_item_change_price');
      t = await boot();
      rows = await items(t);
      expect(rows.map((r) => r.price)).toEqual([12, 7, null]);
      matchesTypes(t.model, rows);
      await t.database.close();

      // 3. unique over duplicate values: refused with the duplicates named; changed again while unapplied, replaced
      const withPrice = { ...(back.fields as Fields), price: { kind: 'integer' } };
      p.write('shop/item.json', item({ ...withPrice, code: { kind: 'text', unique: true } }));
      expect((await gen()).migration!.tag).toBe('0003_shop_item_change_code');
      refused = await refusal();
      expect(refused.message).toContain("shop/item.code is to be unique, but 1 value(s) occur more than once: 'A' (2 rows)");
      p.write('shop/item.json', item({ ...withPrice, code: { kind: 'text', unique: true }, note: { kind: 'text', required: true, default: 'none', index: true } }));
      const replaced = await gen();
      expect(replaced.migration).toMatchObject({ tag: '0003_shop_item_change_note_code', replaced: '0003_shop_item_change_code' });
      expect(readdirSync(join(p.migrationsDir, d.name)).filter((f) => f.startsWith('0003'))).toEqual(['0003_shop_item_change_note_code.sql']);
      sameHistories();
      await raw(db, `UPDATE shop_items SET code = 'C' WHERE ${d.name === 'pg' ? 'name' : 'name'} = 'Second'`);
      t = await boot();
      expect((await items(t)).map((r) => r.code)).toEqual(['A', 'C', 'B']);
      expect((await t.call('POST', '/api/shop/items', { data: { code: 'A' } })).status).toBe(409);
      await t.database.close();

      // 4. a required reference: rows need a target; the backfill rule finds none, then one
      const withCode = { ...withPrice, code: { kind: 'text', unique: true }, note: { kind: 'text', required: true, default: 'none', index: true } };
      p.write('shop/item.json', item({ ...withCode, categoryId: { kind: 'reference', to: 'category', required: true, backfill: { match: { slug: 'missing' } } } }));
      expect((await gen()).migration!.tag).toBe('0004_shop_item_add_category_id');
      refused = await refusal();
      expect(refused.message).toContain('shop/item.categoryId is required, but 3 stored row(s) need a shop/category with slug = "missing", and there is none');
      p.write('shop/item.json', item({ ...withCode, categoryId: { kind: 'reference', to: 'category', required: true, backfill: { match: { slug: 'general' } } } }));
      expect((await gen()).migration).toMatchObject({ tag: '0004_shop_item_add_category_id', replaced: '0004_shop_item_add_category_id' });
      t = await boot();
      rows = await items(t);
      expect(rows.map((r) => r.categoryId)).toEqual([cats[0].id, cats[0].id, cats[0].id]);
      expect((await t.call('POST', '/api/shop/items', { data: { code: 'Z' } })).status).toBe(400); // required from now on
      matchesTypes(t.model, rows);
      await t.database.close();

      // 5. a localized field into text: refused while a row holds another language (it would be lost)
      const withCat = { ...withCode, categoryId: { kind: 'reference', to: 'category', required: true, backfill: { match: { slug: 'general' } } } };
      p.write('shop/item.json', item({ ...withCat, label: { kind: 'text' } }));
      await gen();
      refused = await refusal();
      expect(refused.message).toContain("shop/item.label changes from localized to text, but 1 row(s) hold a value that holds text in another language than en, which a single text cannot keep, e.g. '");
      await raw(db, d.name === 'pg' ? `UPDATE shop_items SET label = '{"en":"Two"}'::jsonb WHERE code = 'C'` : `UPDATE shop_items SET label = '{"en":"Two"}' WHERE code = 'C'`);
      t = await boot();
      expect((await items(t)).map((r) => r.label)).toEqual(['One', 'Two', null]);
      await t.database.close();
      sameHistories();
    });

    it('a failing statement rolls its whole migration back and names the file, the statement and the database error', async () => {
      const dir = join(p.migrationsDir, d.name);
      const journalPath = join(dir, 'meta', '_journal.json');
      const journal = readFileSync(journalPath, 'utf8');
      const parsed = JSON.parse(journal);
      const when = parsed.entries.at(-1).when + 1;
      parsed.entries.push({ idx: parsed.entries.length, version: parsed.entries[0].version, when, tag: '9999_by_hand', breakpoints: true });
      writeFileSync(journalPath, JSON.stringify(parsed));
      writeFileSync(join(dir, '9999_by_hand.sql'), "UPDATE shop_items SET note = 'changed';\n--> statement-breakpoint\nINSERT INTO nowhere VALUES (1);\n");
      try {
        const e = await refusal();
        expect(e.message).toContain('9999_by_hand.sql failed at statement 2:');
        expect(e.message).toContain('INSERT INTO nowhere VALUES (1);');
        expect(e.message).toContain(d.name === 'pg' ? 'PostgreSQL said: relation "nowhere" does not exist' : 'SQLite said: no such table: nowhere');
        expect((await raw(db, 'SELECT note FROM shop_items')).map((r) => r.note)).not.toContain('changed');
      } finally {
        writeFileSync(journalPath, journal);
        rmSync(join(dir, '9999_by_hand.sql'));
      }
    });

    it('codegen refuses what no migration could keep, reporting every problem at once, and writes nothing', async () => {
      const before = snapshotFiles(p.dir, ['generated', 'migrations']);
      const fields = JSON.parse(readFileSync(join(p.schemasDir, 'shop', 'item.json'), 'utf8')).fields as Fields;
      const { price: _price, ...rest } = fields;
      p.write('shop/item.json', item({ ...rest, qty: { kind: 'json' }, code: { kind: 'text', unique: true }, extra: { kind: 'integer', required: true } }));
      const e = await gen().catch((x) => x);
      expect(e).toBeInstanceOf(ManifestError);
      const lines = (e as ManifestError).problems.map((x) => `${x.file}:${x.line}:${x.column} ${x.path} ${x.rule}`);
      expect(lines).toEqual([
        expect.stringMatching(/^shop\/item\.json:\d+:\d+ \/fields drop$/),
        expect.stringMatching(/^shop\/item\.json:\d+:\d+ \/fields\/qty\/kind type-change$/),
        expect.stringMatching(/^shop\/item\.json:\d+:\d+ \/fields\/extra migration$/),
      ]);
      expect(e.message).toContain(`field 'price' (column shop_items.price) is no longer declared`);
      expect(snapshotFiles(p.dir, ['generated', 'migrations'])).toEqual(before);
      p.write('shop/item.json', item(fields));
      expect((await gen()).migration).toBeUndefined();
      expect(existsSync(join(p.outDir, 'model.json'))).toBe(true);
    });
  });
}

/** an entity's route (and so its table) renamed with `renamedFrom`: its rows and the references to them are kept */
for (const d of DIALECTS) {
  describe(`an entity renamed on ${d.name}`, () => {
    const p = scratchProject();
    let db: TestDatabase;
    afterAll(async () => {
      await db?.drop();
      p.remove();
    });
    const gen = () =>
      codegen({
        schemasDir: p.schemasDir, outDir: p.outDir, migrationsDir: p.migrationsDir,
        canReplace: async (last) => !(await appliedMigrations(db.url))?.some((a) => a.createdAt >= last.when),
      });
    const boot = () => bootApp(db, { generatedDir: p.outDir, migrationsDir: p.migrationsDir });
    const kind = (route: string, extra: Record<string, unknown> = {}) => ({ name: 'kind', route, title: 'Kind', ...extra, fields: { slug: { kind: 'text', required: true, unique: true } } });
    const thing = { name: 'thing', route: 'things', title: 'Thing', fields: { title: { kind: 'text' }, kindId: { kind: 'reference', to: 'kind', required: true } } };

    it('renames the table keeping every row and every reference; the old route is gone; a second codegen has nothing to do', async () => {
      db = await d.make();
      p.write('shop/kind.json', kind('kindes'));
      p.write('shop/thing.json', thing);
      await gen();
      let t = await boot();
      const kinds = (await t.call('POST', '/api/shop/kindes/bulk', { data: [{ slug: 'a' }, { slug: 'b' }] })).body.data as { id: string }[];
      expect((await t.call('POST', '/api/shop/things', { data: { title: 'One', kindId: kinds[1].id } })).status).toBe(201);
      await t.database.close();

      p.write('shop/kind.json', kind('kinds', { renamedFrom: 'kindes' }));
      const { migration } = await gen();
      expect(migration!.tag).toBe('0001_shop_kind_rename');
      expect(migration!.changes).toEqual(['shop/kind: rename table shop_kindes to shop_kinds']);
      const sql = readFileSync(join(p.migrationsDir, d.name, '0001_shop_kind_rename.sql'), 'utf8');
      expect(sql).toContain(d.name === 'pg' ? 'ALTER TABLE "shop_kindes" RENAME TO "shop_kinds"' : 'ALTER TABLE `shop_kindes` RENAME TO `shop_kinds`');
      expect(sql).not.toMatch(/DROP TABLE [`"]shop_kindes[`"]/);
      t = await boot();
      const listed = await t.call('GET', '/api/shop/kinds?orderBy[and][0][column]=slug&orderBy[and][0][method]=asc');
      expect(listed.body.data.map((k: { id: string; slug: string }) => [k.id, k.slug])).toEqual([[kinds[0].id, 'a'], [kinds[1].id, 'b']]);
      expect((await t.call('GET', '/api/shop/kindes')).status).toBe(404);
      const things = (await t.call('GET', '/api/shop/things')).body.data as { kindId: string }[];
      expect(things.map((x) => x.kindId)).toEqual([kinds[1].id]);
      // the reference still holds: a thing pointing nowhere is refused, deleting the kind removes its things
      expect((await t.call('POST', '/api/shop/things', { data: { title: 'Two', kindId: '00000000-0000-4000-8000-000000000000' } })).status).toBeGreaterThanOrEqual(400);
      expect((await t.call('DELETE', `/api/shop/kinds/${kinds[1].id}`)).status).toBe(200);
      expect((await t.call('GET', '/api/shop/things')).body.data).toEqual([]);
      await t.database.close();
      // applied: `renamedFrom` left in place changes nothing
      expect((await gen()).migration).toBeUndefined();
    });

    it('refuses a rename from a route another entity still uses', async () => {
      p.write('shop/other.json', { name: 'other', route: 'others', title: 'Other', fields: { note: { kind: 'text' } } });
      p.write('shop/kind.json', kind('kinds', { renamedFrom: 'others' }));
      const e = await gen().catch((x) => x);
      expect(e).toBeInstanceOf(ManifestError);
      expect((e as ManifestError).message).toContain("table 'shop_others' is still made by shop/other.json: a rename leaves the old route behind");
      rmSync(join(p.schemasDir, 'shop', 'other.json'));
      p.write('shop/kind.json', kind('kinds', { renamedFrom: 'kindes' }));
    });

    it("moves to another module's folder with renamedFrom '<module>/<route>', keeping its rows and references; without it, one message says what to do", async () => {
      let t = await boot();
      const kept = (await t.call('GET', '/api/shop/kinds')).body.data as { id: string; slug: string }[];
      expect((await t.call('POST', '/api/shop/things', { data: { title: 'Three', kindId: kept[0].id } })).status).toBe(201);
      await t.database.close();
      const before = snapshotFiles(p.dir, ['migrations', 'generated']);
      rmSync(join(p.schemasDir, 'shop', 'kind.json'));
      p.write('shop/thing.json', { ...thing, fields: { ...thing.fields, kindId: { kind: 'reference', to: 'stock/kind', required: true } } });
      // moved without a word: refused, saying how to keep the rows (not only that dropping needs --allow-destructive)
      p.write('stock/kind.json', kind('kinds'));
      let e = (await gen().catch((x) => x)) as ManifestError;
      expect(e).toBeInstanceOf(ManifestError);
      expect(e.problems).toHaveLength(1);
      expect(e.problems[0].file).toBe('stock/kind.json');
      expect(e.message).toContain('at /: shop/kind (table shop_kinds) is no longer declared, and stock/kind is new: if its manifest moved here, add "renamedFrom": "shop/kinds" to keep its rows (its table is renamed to stock_kinds)');
      // its route alone names its own table: one message, which says to name the module
      p.write('stock/kind.json', kind('kinds', { renamedFrom: 'kinds' }));
      e = (await gen().catch((x) => x)) as ManifestError;
      expect(e.problems.map((x) => x.message)).toEqual([`an entity cannot be renamed from its own route; if its manifest moved here from another module's folder, name that module: "renamedFrom": "<old module>/kinds"`]);
      expect(snapshotFiles(p.dir, ['migrations', 'generated'])).toEqual(before);

      p.write('stock/kind.json', kind('kinds', { renamedFrom: 'shop/kinds' }));
      const { migration } = await gen();
      expect(migration!.changes).toEqual(['stock/kind: rename table shop_kinds to stock_kinds']);
      t = await boot();
      expect((await t.call('GET', '/api/stock/kinds')).body.data).toEqual([expect.objectContaining({ id: kept[0].id, slug: kept[0].slug })]);
      expect((await t.call('GET', '/api/shop/kinds')).status).toBe(404);
      expect(((await t.call('GET', '/api/shop/things')).body.data as { kindId: string }[]).map((x) => x.kindId)).toEqual([kept[0].id]);
      expect((await t.call('DELETE', `/api/stock/kinds/${kept[0].id}`)).status).toBe(200);
      expect((await t.call('GET', '/api/shop/things')).body.data).toEqual([]);
      await t.database.close();
      expect((await gen()).migration).toBeUndefined();
    });

    /** the names of the tables, constraints and indexes a database holds */
    const catalog = (of: TestDatabase) =>
      raw(of, of.name === 'pg'
        ? `SELECT c.relname AS t, o.conname AS name, o.contype::text AS type FROM pg_constraint o JOIN pg_class c ON c.oid = o.conrelid WHERE o.connamespace = 'public'::regnamespace
           UNION ALL SELECT tablename, indexname, 'index' FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1, 2, 3`
        : "SELECT tbl_name AS t, name, type FROM sqlite_master WHERE name NOT LIKE '%drizzle%' ORDER BY 1, 2, 3");
    /** the catalog of a fresh database built from the manifests as they are now */
    const freshCatalog = async () => {
      const f = scratchProject();
      const fdb = await d.make();
      try {
        cpSync(p.schemasDir, f.schemasDir, { recursive: true });
        await codegen({ schemasDir: f.schemasDir, outDir: f.outDir, migrationsDir: f.migrationsDir });
        await (await bootApp(fdb, { generatedDir: f.outDir, migrationsDir: f.migrationsDir })).database.close();
        return await catalog(fdb);
      } finally {
        await fdb.drop();
        f.remove();
      }
    };

    it("renamed tables hold the names of their keys and indexes a fresh database would; a later table on an old route too", async () => {
      // renamed twice above (shop_kindes, shop_kinds, stock_kinds)
      expect(await catalog(db)).toEqual(await freshCatalog());
      // a new entity on the first route: its table takes the name the renamed one had
      p.write('shop/old-kind.json', { name: 'old-kind', route: 'kindes', title: 'Old kind', fields: { slug: { kind: 'text', required: true, unique: true } } });
      await gen();
      const t = await boot();
      expect((await t.call('POST', '/api/shop/kindes', { data: { slug: 'a' } })).status).toBe(201);
      await t.database.close();
      expect(await catalog(db)).toEqual(await freshCatalog());
    });
  });
}

/** the conversions between kinds, on rows that convert (and a date that does not exist, which does not) */
for (const d of DIALECTS) {
  describe(`kind conversions on ${d.name}`, () => {
    const p = scratchProject();
    afterAll(() => p.remove());

    it('converts every value with an explicit cast, and the API answers what the generated types say', async () => {
      const db = await d.make();
      const gen = () => codegen({ schemasDir: p.schemasDir, outDir: p.outDir, migrationsDir: p.migrationsDir });
      const boot = () => bootApp(db, { generatedDir: p.outDir, migrationsDir: p.migrationsDir });
      const before: Fields = {
        b: { kind: 'text' }, n: { kind: 'text' }, dt: { kind: 'text' }, dd: { kind: 'text' }, loc: { kind: 'text' },
        i2n: { kind: 'integer' }, n2i: { kind: 'number' }, e: { kind: 'text' }, b2i: { kind: 'boolean' },
        d2d: { kind: 'datetime' }, u: { kind: 'text' }, s: { kind: 'integer' },
      };
      const after: Fields = {
        b: { kind: 'boolean' }, n: { kind: 'number' }, dt: { kind: 'datetime' }, dd: { kind: 'date' }, loc: { kind: 'localized' },
        i2n: { kind: 'number' }, n2i: { kind: 'integer' }, e: { kind: 'enum', values: ['a', 'b', 'c'] }, b2i: { kind: 'integer' },
        d2d: { kind: 'date' }, u: { kind: 'text', format: 'uuid' }, s: { kind: 'text' },
      };
      try {
        p.write('shop/item.json', item(before));
        await gen();
        let t = await boot();
        expect((await t.call('POST', '/api/shop/items/bulk', {
          data: [
            { b: 'true', n: '1.5', dt: '2024-01-02T03:04:05Z', dd: '2024-02-29', loc: 'Hello', i2n: 3, n2i: 4, e: 'a', b2i: true, d2d: '2024-03-04T00:00:00.000Z', u: '3F2504E0-4F89-41D3-9A0C-0305E82C3301', s: 42 },
            { b: ' 0 ', n: '-2e1', dt: '2024-01-02 10:00', i2n: -1, n2i: -1, e: 'b', b2i: false },
            {},
          ],
        })).status).toBe(201);
        await t.database.close();

        p.write('shop/item.json', item(after));
        const plan = await gen();
        expect(plan.migration!.tag).toMatch(/^0001_shop_item_change_b_n_dt_dd_loc/);
        t = await boot();
        const rows = await items(t);
        const pick = (k: string) => rows.map((r) => r[k]);
        expect(pick('b')).toEqual([true, false, null]);
        expect(pick('n')).toEqual([1.5, -20, null]);
        expect(pick('dt')).toEqual(['2024-01-02T03:04:05.000Z', '2024-01-02T10:00:00.000Z', null]);
        expect(pick('dd')).toEqual(['2024-02-29', null, null]);
        expect(pick('loc')).toEqual([{ en: 'Hello' }, {}, {}]);
        expect(pick('i2n')).toEqual([3, -1, null]);
        expect(pick('n2i')).toEqual([4, -1, null]);
        expect(pick('e')).toEqual(['a', 'b', null]);
        expect(pick('b2i')).toEqual([1, 0, null]);
        expect(pick('d2d')).toEqual(['2024-03-04', null, null]);
        expect(pick('u')).toEqual(['3f2504e0-4f89-41d3-9a0c-0305e82c3301', null, null]);
        expect(pick('s')).toEqual(['42', null, null]);
        const ajv = new Ajv({ allErrors: true, strict: false });
        (addFormats as unknown as (a: Ajv) => void)(ajv);
        const validate = ajv.compile(rowSchema(t.model.byId['shop/item'], t.model));
        for (const row of rows) expect(validate(row), JSON.stringify(validate.errors)).toBe(true);
        await t.database.close();

        // a date that does not exist does not convert: refused, named, nothing changed
        await raw(db, `UPDATE shop_items SET s = '2024-02-30' WHERE s = '42'`);
        p.write('shop/item.json', item({ ...after, s: { kind: 'date' } }));
        await gen();
        const refused = await bootApp(db, { generatedDir: p.outDir, migrationsDir: p.migrationsDir }).catch((e) => e);
        expect(refused).toBeInstanceOf(MigrationError);
        expect(refused.message).toContain("shop/item.s changes from text to date, but 1 row(s) hold a value that is not a date (YYYY-MM-DD), e.g. '2024-02-30'");
        expect((await raw(db, `SELECT s FROM shop_items WHERE s IS NOT NULL`)).map((r) => r.s)).toEqual(['2024-02-30']);
      } finally {
        await db.drop();
      }
    });
  });
}

/** a required reference added with a default target: the stored rows and new ones point at it */
for (const d of DIALECTS) {
  describe(`a required reference with a default on ${d.name}`, () => {
    const p = scratchProject();
    afterAll(() => p.remove());

    it('fills the stored rows with the default target, and refuses when that target is not there', async () => {
      const db = await d.make();
      const gen = () => codegen({
        schemasDir: p.schemasDir, outDir: p.outDir, migrationsDir: p.migrationsDir,
        canReplace: async (last) => !(await appliedMigrations(db.url))?.some((a) => a.createdAt >= last.when),
      });
      const boot = () => bootApp(db, { generatedDir: p.outDir, migrationsDir: p.migrationsDir });
      try {
        p.write('shop/category.json', category);
        p.write('shop/item.json', item({ code: { kind: 'text' } }));
        await gen();
        let t = await boot();
        const cat = (await t.call('POST', '/api/shop/categories', { data: { slug: 'general' } })).body.data;
        await t.call('POST', '/api/shop/items/bulk', { data: [{ code: 'a' }, { code: 'b' }] });
        await t.database.close();

        p.write('shop/item.json', item({ code: { kind: 'text' }, categoryId: { kind: 'reference', to: 'category', required: true, default: '00000000-0000-4000-8000-00000000000f' } }));
        await gen();
        const refused = await boot().catch((e) => e);
        expect(refused).toBeInstanceOf(MigrationError);
        expect(refused.message).toContain('shop/item.categoryId is required, but 2 stored row(s) need a shop/category with id 00000000-0000-4000-8000-00000000000f, and there is none');

        p.write('shop/item.json', item({ code: { kind: 'text' }, categoryId: { kind: 'reference', to: 'category', required: true, default: cat.id } }));
        expect((await gen()).migration).toMatchObject({ tag: '0001_shop_item_add_category_id', replaced: '0001_shop_item_add_category_id' });
        t = await boot();
        expect((await items(t)).map((r) => r.categoryId)).toEqual([cat.id, cat.id]);
        expect((await t.call('POST', '/api/shop/items', { data: { code: 'c' } })).body.data.categoryId).toBe(cat.id);
        await t.database.close();
      } finally {
        await db.drop();
      }
    });
  });
}

/** codegen's problems in one batch: a manifest's grammar, a manifest's meaning, and what the change would do to stored rows */
describe('codegen reports every problem at once', () => {
  const p = scratchProject();
  afterAll(() => p.remove());
  const gen = () => codegen({ schemasDir: p.schemasDir, outDir: p.outDir, migrationsDir: p.migrationsDir });

  it('grammar and meaning of the manifests, and the migration of those that load, each with file, path and rule; nothing written', async () => {
    const kind = { name: 'kind', route: 'kinds', title: 'Kind', fields: { slug: { kind: 'text' } } };
    const thing = { name: 'thing', route: 'things', title: 'Thing', fields: { kindId: { kind: 'reference', to: 'kind' } } };
    const tool = (fields: Fields = {}) => ({ name: 'tool', route: 'tools', title: 'Tool', fields: { label: { kind: 'text' }, ...fields } });
    p.write('shop/kind.json', kind);
    p.write('shop/thing.json', thing);
    p.write('shop/tool.json', tool());
    await gen();
    const before = snapshotFiles(p.dir, ['generated', 'migrations']);
    // a grammar problem (kind), a reference to no entity (tool), a new required field without a default (tool)
    p.write('shop/kind.json', { ...kind, fields: { slug: { kind: 'text', wat: 1 } } });
    p.write('shop/tool.json', tool({ extra: { kind: 'integer', required: true }, partId: { kind: 'reference', to: 'part' } }));
    let e = (await gen().catch((x) => x)) as ManifestError;
    expect(e).toBeInstanceOf(ManifestError);
    expect(e.problems.map((x) => `${x.file} ${x.path} ${x.rule}`)).toEqual([
      'shop/kind.json /fields/slug/wat additionalProperties',
      'shop/tool.json /fields/partId/to reference',
    ]);
    // the reference fixed: the migration's problem of the manifests that load comes with the grammar problem, in
    // one batch; the tables of the manifests left out (kind, and thing, which refers to it) are not taken for drops
    p.write('shop/tool.json', tool({ extra: { kind: 'integer', required: true } }));
    e = (await gen().catch((x) => x)) as ManifestError;
    expect(e.problems.map((x) => `${x.file} ${x.path} ${x.rule}`)).toEqual([
      'shop/kind.json /fields/slug/wat additionalProperties',
      'shop/tool.json /fields/extra migration',
    ]);
    expect(e.message).toMatch(/shop\/tool\.json:\d+:\d+ at \/fields\/extra: a new required field on an existing entity needs a "default"/);
    expect(e.message).not.toMatch(/\n\s+at .*\(.*:\d+:\d+\)/); // no stack
    expect(snapshotFiles(p.dir, ['generated', 'migrations'])).toEqual(before);
  });
});
