import { describe, it, expect } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { scratchMigrations } from '../helpers/schemas.js';
import { execute } from '../helpers/raw.js';

/**
 * A field's rule that changes over stored rows (a pattern, a length, a format, a range, a json field's schema, a
 * required text that no longer takes "", a language map turned into a required text): on each database the stored
 * values are held to the new rule before anything is written, and the change is refused naming those that break it,
 * or their rows are filled from the field's backfill. A stored row always passes its field's rule: written back as
 * it is read, it is accepted.
 */

type Fields = Record<string, Record<string, unknown>>;
const gadget = (fields: Fields) => ({ name: 'gadget', route: 'gadgets', title: 'Gadget', fields });
const LIST = '/api/gizmo/gadgets?orderBy[and][0][column]=createdAt&orderBy[and][0][method]=asc';

for (const d of DIALECTS) {
  describe(`rule changes over stored rows on ${d.name}`, () => {
    const fresh = scratchMigrations(d);
    async function setup(fields: Fields, data: Record<string, unknown>[]) {
      // a refused migration is unapplied: the next change replaces it
      const { p, db, gen, boot, refusal } = await fresh();
      const rows = async (t: Awaited<ReturnType<typeof boot>>) => (await t.call('GET', LIST)).body.data as Record<string, unknown>[];
      /** every stored row, written back as it is read, is accepted */
      const writable = async (names: string[]) => {
        const t = await boot();
        for (const r of await rows(t)) {
          const put = await t.call('PATCH', `/api/gizmo/gadgets/${r.id}`, { data: Object.fromEntries(names.map((n) => [n, r[n]])) });
          expect(put.status, JSON.stringify(put.body)).toBe(200);
        }
        await t.database.close();
      };
      const change = async (next: Fields) => {
        p.write('gizmo/gadget.json', gadget(next));
        return (await gen()).migration;
      };
      p.write('gizmo/gadget.json', gadget(fields));
      await gen();
      const t = await boot();
      const made = await t.call('POST', '/api/gizmo/gadgets/bulk', { data });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      await t.database.close();
      const stored = () => execute(db, 'SELECT * FROM gizmo_gadgets ORDER BY created_at, id');
      return { p, db, gen, boot, refusal, rows, writable, change, stored };
    }

    it('a tighter length, pattern, format or range is refused naming the rows that break it, every reason at once, and nothing is written', async () => {
      const fields = { title: { kind: 'text' }, code: { kind: 'text' }, mail: { kind: 'text' }, qty: { kind: 'integer' }, ratio: { kind: 'number' } };
      const { db, refusal, writable, change, stored, boot } = await setup(fields, [
        { title: 'A rather long title', code: 'abc', mail: 'a@example.com', qty: 5, ratio: 0.5 },
        { title: 'Short', code: 'ABC-1', mail: 'not a mail', qty: 50, ratio: 1.5 },
        { title: null, code: null, mail: null, qty: null, ratio: null },
      ]);
      const before = await stored();
      const tighter = {
        title: { kind: 'text', maxLength: 10 },
        code: { kind: 'text', pattern: '^[a-z]+$' },
        mail: { kind: 'text', format: 'email' },
        qty: { kind: 'integer', maximum: 10 },
        ratio: { kind: 'number', minimum: 1 },
      };
      const m = await change(tighter);
      expect(m?.changes.join('\n')).toContain('change title (rule maxLength 10)');
      const refused = await refusal();
      expect(refused.reasons).toHaveLength(5);
      const id = (await execute(db, "SELECT id FROM gizmo_gadgets WHERE title = 'A rather long title'"))[0].id;
      const other = (await execute(db, "SELECT id FROM gizmo_gadgets WHERE title = 'Short'"))[0].id;
      expect(refused.message).toContain(`gizmo/gadget.title gets a new rule (maxLength 10), but 1 stored row(s) break it, e.g. 'A rather long title' (row ${id}): title must NOT have more than 10 characters. Change those rows first, or keep the old rule`);
      expect(refused.message).toContain(`gizmo/gadget.code gets a new rule (pattern ^[a-z]+$), but 1 stored row(s) break it, e.g. 'ABC-1' (row ${other}): code must match pattern "^[a-z]+$"`);
      expect(refused.message).toContain(`gizmo/gadget.mail gets a new rule (format email), but 1 stored row(s) break it, e.g. 'not a mail' (row ${other}): mail must be an email address`);
      expect(refused.message).toContain(`gizmo/gadget.qty gets a new rule (maximum 10), but 1 stored row(s) break it, e.g. '50' (row ${other}): qty must be <= 10`);
      expect(refused.message).toContain(`gizmo/gadget.ratio gets a new rule (minimum 1), but 1 stored row(s) break it, e.g. '0.5' (row ${id}): ratio must be >= 1`);
      expect(refused.message).toContain('the database is as it was before it');
      expect(await stored()).toEqual(before);

      // the rows changed: it goes through, and every row keeps its field's rule
      await execute(db, `UPDATE gizmo_gadgets SET title = 'Long', ratio = 2 WHERE id = '${id}'`);
      await execute(db, `UPDATE gizmo_gadgets SET code = 'abc', mail = 'b@example.com', qty = 9 WHERE id = '${other}'`);
      const t = await boot();
      expect(t.migrated).toHaveLength(1);
      await t.database.close();
      await writable(Object.keys(fields));
    });

    it('a looser rule is recorded, so that tightening it back later holds the rows written meanwhile', async () => {
      const { db, refusal, change, boot } = await setup({ title: { kind: 'text', maxLength: 5 } }, [{ title: 'Short' }]);
      expect((await change({ title: { kind: 'text', maxLength: 50 } }))?.changes.join('\n')).toContain('change title (rule maxLength 50)');
      let t = await boot();
      expect((await t.call('POST', '/api/gizmo/gadgets', { data: { title: 'Written while the rule was loose' } })).status).toBe(201);
      await t.database.close();
      await change({ title: { kind: 'text', maxLength: 5 } });
      const refused = await refusal();
      expect(refused.reasons).toEqual([expect.stringContaining("gizmo/gadget.title gets a new rule (maxLength 5), but 1 stored row(s) break it, e.g. 'Written while the rule was loose'")]);
      await execute(db, "UPDATE gizmo_gadgets SET title = 'Fine' WHERE title <> 'Short'");
      t = await boot();
      await t.database.close();
    });

    it('a kind change into a field with a rule of its own holds the values as converted to that rule', async () => {
      const { db, refusal, change, boot, rows } = await setup({ code: { kind: 'number' } }, [{ code: 12 }, { code: 1.5 }, { code: null }]);
      await change({ code: { kind: 'text', pattern: '^[0-9]+$' } });
      const refused = await refusal();
      expect(refused.reasons).toEqual([expect.stringMatching(/^gizmo\/gadget\.code changes from number to text, but 1 stored row\(s\) break it, e\.g\. '1\.5' \(row [0-9a-f-]{36}\): code must match pattern "\^\[0-9\]\+\$"/)]);
      await execute(db, 'UPDATE gizmo_gadgets SET code = 2 WHERE code = 1.5');
      const t = await boot();
      expect((await rows(t)).map((r) => r.code)).toEqual(['12', '2', null]);
      await t.database.close();
    });

    it('a json field whose schema tightens holds its stored documents to it; a rule the API reads the same needs no migration', async () => {
      const schema = (extra: Record<string, unknown>) => ({ kind: 'json', schema: { type: 'object', properties: { size: { type: 'integer' } }, ...extra } });
      const { db, refusal, change, boot, writable } = await setup({ spec: schema({}) }, [{ spec: { size: 2 } }, { spec: { colour: 'red' } }]);
      await change({ spec: schema({ required: ['size'] }) });
      const refused = await refusal();
      expect(refused.reasons).toEqual([expect.stringMatching(/^gizmo\/gadget\.spec gets a new rule \(required \["size"\]\), but 1 stored row\(s\) break it, e\.g\. '\{"colour":"red"\}' \(row [0-9a-f-]{36}\): spec\.size is required\. Change those rows first, or keep the old rule$/)]);
      await execute(db, d.name === 'pg' ? `UPDATE gizmo_gadgets SET spec = '{"size": 3}'::jsonb WHERE spec ? 'colour'` : `UPDATE gizmo_gadgets SET spec = '{"size":3}' WHERE spec LIKE '%colour%'`);
      const t = await boot();
      await t.database.close();
      await writable(['spec']);
      // nothing of the rule changed: no migration
      expect(await change({ spec: schema({ required: ['size'] }) })).toBeUndefined();
    });

    it('a required text that no longer allows empty: refused naming the rows holding "", or filled from its backfill', async () => {
      const fields = { title: { kind: 'text', required: true, allowEmpty: true }, note: { kind: 'text', required: true, allowEmpty: true } };
      const { db, refusal, change, boot, rows, writable, stored } = await setup(fields, [{ title: '', note: '' }, { title: 'Kept', note: 'kept' }]);
      const before = await stored();
      await change({ title: { kind: 'text', required: true }, note: { kind: 'text', required: true } });
      const refused = await refusal();
      expect(refused.reasons).toHaveLength(2);
      expect(refused.reasons[0]).toMatch(/^gizmo\/gadget\.title gets a new rule \(minLength 1\), but 1 stored row\(s\) break it, e\.g\. '' \(row [0-9a-f-]{36}\): title must NOT have fewer than 1 characters\. Change those rows first, or keep the old rule, or give the field a "backfill" for the rows holding ""$/);
      expect(await stored()).toEqual(before);

      await change({ title: { kind: 'text', required: true, backfill: 'Untitled' }, note: { kind: 'text', required: true, default: '-' } });
      const t = await boot();
      expect((await rows(t)).map((r) => [r.title, r.note])).toEqual([['Untitled', '-'], ['Kept', 'kept']]);
      await t.database.close();
      await writable(['title', 'note']);
      expect((await execute(db, "SELECT count(*) AS n FROM gizmo_gadgets WHERE title = '' OR note = ''"))[0].n).toBe(d.name === 'pg' ? '0' : 0);
    });

    it('a text that is not null for its default, and takes "", keeps its "" through a migration of another field', async () => {
      const { change, boot, rows } = await setup({ title: { kind: 'text', default: 'Page' }, other: { kind: 'text' } }, [{ title: '' }, { title: 'Kept' }]);
      const sql = await change({ title: { kind: 'text', default: 'Page' }, other: { kind: 'text', maxLength: 10 } });
      expect(sql).toBeDefined();
      const t = await boot();
      expect((await rows(t)).map((r) => r.title)).toEqual(['', 'Kept']);
      await t.database.close();
    });

    it('a language map made a required text: maps without the default language are refused by a guard, or filled from the backfill', async () => {
      const { db, refusal, change, boot, rows, writable, stored } = await setup({ name: { kind: 'localized', required: true } }, [
        { name: { en: 'Kept' } },
        { name: {} },
        { name: { en: '' } },
      ]);
      const before = await stored();
      await change({ name: { kind: 'text', required: true } });
      const refused = await refusal();
      // a guard, not the database's NOT NULL error, names both kinds of rows
      expect(refused.refused).toBe(true);
      expect(refused.message).toMatch(/gizmo\/gadget\.name changes from localized to text and is required, but 1 row\(s\) hold no text in en, e\.g\. '\{\}' \(row [0-9a-f-]{36}\): give the field a "backfill" \(or a "default"\) for them/);
      expect(refused.message).toMatch(/gizmo\/gadget\.name changes from localized to text, but 1 stored row\(s\) break it, e\.g\. '' \(row [0-9a-f-]{36}\): name must NOT have fewer than 1 characters/);
      expect(await stored()).toEqual(before);

      await change({ name: { kind: 'text', required: true, backfill: 'Unnamed' } });
      const t = await boot();
      expect((await rows(t)).map((r) => r.name)).toEqual(['Kept', 'Unnamed', 'Unnamed']);
      await t.database.close();
      await writable(['name']);
    });
  });
}
