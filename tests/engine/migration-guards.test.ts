import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { codegen } from '../../engine/codegen.js';
import { DIALECTS } from '../helpers/databases.js';
import { scratchMigrations, snapshotFiles } from '../helpers/schemas.js';
import { execute } from '../helpers/raw.js';

/**
 * Schema changes over rows that a change could break without a word: "" in a text made required, values a kind
 * change makes equal under a unique, whitespace around a number, several changes each with rows they cannot keep,
 * and a change undone while unapplied. On each database: the rows are kept and obey the field's rules, or the
 * change is refused naming the rows (every reason at once) and nothing is written.
 */

type Fields = Record<string, Record<string, unknown>>;
const gadget = (fields: Fields) => ({ name: 'gadget', route: 'gadgets', title: 'Gadget', fields });
const category = { name: 'category', route: 'categories', title: 'Category', fields: { slug: { kind: 'text', required: true, unique: true } } };
const LIST = '/api/gizmo/gadgets?orderBy[and][0][column]=createdAt&orderBy[and][0][method]=asc';

for (const d of DIALECTS) {
  describe(`migration guards on ${d.name}`, () => {
    const fresh = scratchMigrations(d);
    /** a scratch project and a database of its own; unapplied = not applied on that database */
    async function setup() {
      const { p, db, gen, boot, refusal } = await fresh();
      const rows = async (t: Awaited<ReturnType<typeof boot>>) => (await t.call('GET', LIST)).body.data as Record<string, unknown>[];
      return { p, db, gen, boot, refusal, rows };
    }

    it('a text made required fills the rows holding "" as well as those holding null (unless it allows empty)', async () => {
      const { p, db, gen, boot, refusal, rows } = await setup();
      p.write('gizmo/gadget.json', gadget({ title: { kind: 'text' }, note: { kind: 'text' }, memo: { kind: 'text' }, code: { kind: 'text', unique: true } }));
      await gen();
      let t = await boot();
      expect((await t.call('POST', '/api/gizmo/gadgets/bulk', {
        data: [
          { title: '', note: '', memo: '', code: '' },
          { title: null, note: null, memo: null, code: null },
          { title: 'Kept', note: 'kept', memo: 'kept', code: 'c' },
        ],
      })).status).toBe(201);
      await t.database.close();

      const required = {
        title: { kind: 'text', required: true, default: 'Untitled' },
        note: { kind: 'text', required: true, backfill: '(none)' },
        memo: { kind: 'text', required: true, allowEmpty: true, default: '-' },
      };
      p.write('gizmo/gadget.json', gadget({ ...required, code: { kind: 'text', unique: true } }));
      await gen();
      t = await boot();
      const got = (await rows(t)).map((r) => JSON.stringify([r.title, r.note, r.memo])).sort();
      expect(got).toEqual(['["Kept","kept","kept"]', '["Untitled","(none)",""]', '["Untitled","(none)","-"]']);
      // every stored row passes the field's own rule: written back as it is read, it is accepted
      for (const r of await rows(t)) {
        const put = await t.call('PATCH', `/api/gizmo/gadgets/${r.id}`, { data: { title: r.title, note: r.note, memo: r.memo } });
        expect(put.status, JSON.stringify(put.body)).toBe(200);
      }
      await t.database.close();

      // a unique text: the rows holding "" and null would all get the backfill, so two rows would share it
      p.write('gizmo/gadget.json', gadget({ ...required, code: { kind: 'text', unique: true, required: true, backfill: 'x' } }));
      await gen();
      const refused = await refusal();
      expect(refused.message).toContain('gizmo/gadget.code is unique, but 2 stored rows would all get the same value from its backfill');
      expect((await execute(db, 'SELECT code FROM gizmo_gadgets')).map((r) => JSON.stringify(r.code)).sort()).toEqual(['""', '"c"', 'null']);
    });

    it('a kind change on a unique field that makes stored values equal is refused naming the duplicates', async () => {
      const { p, db, gen, boot, refusal, rows } = await setup();
      p.write('gizmo/gadget.json', gadget({ code: { kind: 'text', unique: true } }));
      await gen();
      let t = await boot();
      expect((await t.call('POST', '/api/gizmo/gadgets/bulk', { data: [{ code: ' 7 ' }, { code: '7' }, { code: '8' }, { code: null }] })).status).toBe(201);
      await t.database.close();

      p.write('gizmo/gadget.json', gadget({ code: { kind: 'integer', unique: true } }));
      await gen();
      const refused = await refusal();
      expect(refused.message).toContain("gizmo/gadget.code is unique, but converted from text to integer, 1 value(s) would occur more than once: '7' (2 rows)");
      expect(refused.message).toContain('the database is as it was before it');
      expect((await execute(db, 'SELECT code FROM gizmo_gadgets WHERE code IS NOT NULL ORDER BY code')).map((r) => r.code)).toEqual([' 7 ', '7', '8']);

      await execute(db, "UPDATE gizmo_gadgets SET code = '9' WHERE code = ' 7 '");
      t = await boot();
      expect((await rows(t)).map((r) => r.code)).toEqual([9, 7, 8, null]);
      await t.database.close();

      // unique together: the group as converted
      const withGroup = (size: Record<string, unknown>) => ({ ...gadget({ code: { kind: 'integer', unique: true }, size, shelf: { kind: 'text' } }), unique: [['size', 'shelf']] });
      p.write('gizmo/gadget.json', withGroup({ kind: 'text' }));
      await gen();
      t = await boot();
      const all = await rows(t);
      for (const [i, size] of ['1', '01.0', '1.5', ' 1.50'].entries()) await t.call('PATCH', `/api/gizmo/gadgets/${all[i].id}`, { data: { size, shelf: 'A' } });
      await t.database.close();
      p.write('gizmo/gadget.json', withGroup({ kind: 'number' }));
      await gen();
      const group = await refusal();
      expect(group.message).toContain("gizmo/gadget (size, shelf) is unique, but converted size from text to number, 1 value(s) would occur more than once: ('1.5', 'A') (2 rows)");
      // '01.0' is not a number: its own guard says so, in the same refusal
      expect(group.message).toContain("gizmo/gadget.size changes from text to number, but 1 row(s) hold a value that is not a number, e.g. '01.0'");
    });

    it('text into a number takes the same texts on both databases: surrounding whitespace (spaces, tabs, line breaks) is ignored', async () => {
      const { p, db, gen, boot, refusal, rows } = await setup();
      p.write('gizmo/gadget.json', gadget({ qty: { kind: 'text' }, ratio: { kind: 'text' }, flag: { kind: 'text' }, day: { kind: 'text' } }));
      await gen();
      let t = await boot();
      expect((await t.call('POST', '/api/gizmo/gadgets/bulk', {
        data: [
          { qty: '\t8\n', ratio: '\r\n1.5\t', flag: '\ttrue\n', day: '\n2024-02-29\t' },
          { qty: ' 9 ', ratio: ' -2 ', flag: ' 0 ', day: ' 2024-03-01 ' },
          { qty: '8 8' },
          { qty: '07' },
          { qty: '\u00a011\u00a0' },
        ],
      })).status).toBe(201);
      await t.database.close();

      p.write('gizmo/gadget.json', gadget({ qty: { kind: 'integer' }, ratio: { kind: 'number' }, flag: { kind: 'boolean' }, day: { kind: 'date' } }));
      await gen();
      const refused = await refusal();
      // inner whitespace, a leading zero, a no-break space: refused on both
      expect(refused.reasons).toEqual([expect.stringMatching(/^gizmo\/gadget\.qty changes from text to integer, but 3 row\(s\) hold a value that is not a whole number \(or is out of the integer range\), e\.g\. '(8 8|07|\u00a011\u00a0)'/)]);
      await execute(db, "UPDATE gizmo_gadgets SET qty = '\n\n10' WHERE qty = '8 8'");
      await execute(db, "UPDATE gizmo_gadgets SET qty = '7' WHERE qty = '07'");
      await execute(db, "UPDATE gizmo_gadgets SET qty = ' 11' WHERE qty NOT IN ('\n\n10', '7', ' 9 ', '\t8\n')");
      t = await boot();
      expect((await rows(t)).map((r) => [r.qty, r.ratio, r.flag, r.day])).toEqual([
        [8, 1.5, true, '2024-02-29'], [9, -2, false, '2024-03-01'], [10, null, null, null], [7, null, null, null], [11, null, null, null],
      ]);
      await t.database.close();
    });

    it('every guard that fails is reported at once, with readable examples, and nothing is written', async () => {
      const { p, db, gen, boot, refusal, rows } = await setup();
      p.write('gizmo/category.json', category);
      p.write('gizmo/gadget.json', gadget({ ratio: { kind: 'number' }, status: { kind: 'enum', values: ['a', 'b', 'c'] }, at: { kind: 'datetime' } }));
      await gen();
      let t = await boot();
      expect((await t.call('POST', '/api/gizmo/categories', { data: { slug: 'general' } })).status).toBe(201);
      expect((await t.call('POST', '/api/gizmo/gadgets/bulk', {
        data: [{ ratio: 5.5, status: 'c', at: '2024-04-15T13:30:00Z' }, { ratio: 2, status: 'a', at: '2024-04-16T00:00:00Z' }],
      })).status).toBe(201);
      await t.database.close();
      const before = await execute(db, 'SELECT * FROM gizmo_gadgets ORDER BY created_at, id');

      const wanted = (backfill: string) => gadget({
        ratio: { kind: 'integer' }, status: { kind: 'enum', values: ['a', 'b'] }, at: { kind: 'date' },
        categoryId: { kind: 'reference', to: 'category', required: true, backfill: { match: { slug: backfill } } },
      });
      p.write('gizmo/gadget.json', wanted('missing'));
      await gen();
      const refused = await refusal();
      const reasons = [
        "gizmo/gadget.ratio changes from number to integer, but 1 row(s) hold a value that has a fraction (or is out of the integer range), e.g. '5.5'",
        "gizmo/gadget.status changes from enum to enum, but 1 row(s) hold a value that is not one of a, b, e.g. 'c'",
        "gizmo/gadget.at changes from datetime to date, but 1 row(s) hold a value that has a time of day (UTC), which a date cannot keep, e.g. '2024-04-15T13:30:00.000Z'",
        'gizmo/gadget.categoryId is required, but 2 stored row(s) need a gizmo/category with slug = "missing", and there is none',
      ];
      for (const r of reasons) expect(refused.message).toContain(r);
      expect(refused.reasons).toHaveLength(4);
      expect(refused.message).toContain('refused for 4 reasons');
      expect(refused.message).toContain('the database is as it was before it');
      expect(await execute(db, 'SELECT * FROM gizmo_gadgets ORDER BY created_at, id')).toEqual(before);

      // fixed, all at once: it goes through
      await execute(db, "UPDATE gizmo_gadgets SET ratio = 5, status = 'b'");
      await execute(db, d.name === 'pg' ? "UPDATE gizmo_gadgets SET at = date_trunc('day', at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'" : 'UPDATE gizmo_gadgets SET at = at - at % 86400000');
      p.write('gizmo/gadget.json', wanted('general'));
      await gen();
      t = await boot();
      expect((await rows(t)).map((r) => [r.ratio, r.status, r.at])).toEqual([[5, 'b', '2024-04-15'], [5, 'b', '2024-04-16']]);
      await t.database.close();
    });

    it('a change undone while unapplied leaves migrations/ exactly as it was, byte for byte', async () => {
      const { p, gen, boot } = await setup();
      p.write('gizmo/gadget.json', gadget({ size: { kind: 'integer' } }));
      await gen();
      let t = await boot();
      await t.database.close();
      p.write('gizmo/gadget.json', gadget({ size: { kind: 'integer' }, colour: { kind: 'text' } }));
      expect((await gen()).migration!.tag).toBe('0001_gizmo_gadget_add_colour');
      t = await boot(); // applied: 0001 is not replaced from now on
      await t.database.close();
      const before = snapshotFiles(p.dir, ['migrations']);
      const previous = JSON.parse(readFileSync(join(p.migrationsDir, 'model.json'), 'utf8')).previous;
      expect(previous).not.toBeNull();
      expect(Object.keys(before)).toContain(join('migrations', 'pg', 'meta', 'previous.json'));

      p.write('gizmo/gadget.json', gadget({ size: { kind: 'integer' }, colour: { kind: 'text' }, weight: { kind: 'number' } }));
      expect((await gen()).migration!.tag).toBe('0002_gizmo_gadget_add_weight');
      // replaced once while unapplied, then undone
      p.write('gizmo/gadget.json', gadget({ size: { kind: 'integer' }, colour: { kind: 'text' }, height: { kind: 'number' } }));
      expect((await gen()).migration).toMatchObject({ tag: '0002_gizmo_gadget_add_height', replaced: '0002_gizmo_gadget_add_weight' });
      p.write('gizmo/gadget.json', gadget({ size: { kind: 'integer' }, colour: { kind: 'text' } }));
      expect((await gen()).migration).toMatchObject({ removed: true, tag: '0002_gizmo_gadget_add_height' });
      expect(snapshotFiles(p.dir, ['migrations'])).toEqual(before);
      // a forced run changes nothing either, and the database is up to date
      await codegen({ schemasDir: p.schemasDir, outDir: p.outDir, migrationsDir: p.migrationsDir, force: true });
      expect(snapshotFiles(p.dir, ['migrations'])).toEqual(before);
      t = await boot();
      expect(t.migrated).toEqual([]);
      await t.database.close();
    });
  });
}
