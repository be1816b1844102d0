import { describe, it, expect, afterAll } from 'vitest';
import { readdirSync } from 'node:fs';
import { codegen } from '../../engine/codegen.js';
import { ManifestError } from '../../engine/load.js';
import { DIALECTS } from '../helpers/databases.js';
import { bootApp } from '../helpers/app.js';
import { scratchProject } from '../helpers/schemas.js';

const gadget = (fields: Record<string, unknown> = {}) => ({
  name: 'gadget', route: 'gadgets', title: 'Gadget',
  fields: { slug: { kind: 'text', required: true, unique: true, generate: 'slug' }, size: { kind: 'integer', default: 1 }, ...fields },
});
const part = { name: 'part', route: 'parts', title: 'Part', fields: { gadgetId: { kind: 'reference', to: 'gadget', required: true }, label: { kind: 'text' } } };

/** a manifest change, then a restart: the database is migrated and keeps every row */
for (const d of DIALECTS) {
  describe(`migrations on ${d.name}`, () => {
    const p = scratchProject();
    afterAll(() => p.remove());

    it('adding fields and entities, or changing a default, migrates an existing database and keeps its rows', async () => {
      p.write('gizmo/gadget.json', gadget());
      p.write('gizmo/part.json', part);
      await codegen({ schemasDir: p.schemasDir, outDir: p.outDir, migrationsDir: p.migrationsDir });
      const db = await d.make();
      const opts = { generatedDir: p.outDir, migrationsDir: p.migrationsDir };
      let t = await bootApp(db, opts);
      const g = await t.call('POST', '/api/gizmo/gadgets/bulk', { data: [{ slug: 'first', size: 3 }, { slug: 'second' }] });
      expect(g.status).toBe(201);
      const parts = await t.call('POST', '/api/gizmo/parts/bulk', { data: g.body.data.map((x: { id: string; slug: string }) => ({ gadgetId: x.id, label: 'part of ' + x.slug })) });
      expect(parts.status).toBe(201);
      await t.database.close();

      // a new required field without a default cannot be added: existing rows would have no value
      p.write('gizmo/gadget.json', gadget({ colour: { kind: 'text', required: true } }));
      const refused = await codegen({ schemasDir: p.schemasDir, outDir: p.outDir, migrationsDir: p.migrationsDir }).catch((e) => e);
      expect(refused).toBeInstanceOf(ManifestError);
      expect(refused.message).toMatch(/gizmo\/gadget\.json:\d+:\d+ at \/fields\/colour: a new required field on an existing entity needs a "default"/);

      // with a default it can; a changed default rebuilds the table on SQLite; a new entity arrives
      p.write('gizmo/gadget.json', gadget({ colour: { kind: 'text', required: true, default: 'red' }, weight: { kind: 'number' }, size: { kind: 'integer', default: 5 } }));
      p.write('gizmo/sprocket.json', { name: 'sprocket', route: 'sprockets', title: 'Sprocket', fields: { teeth: { kind: 'integer', default: 12 } } });
      const second = await codegen({ schemasDir: p.schemasDir, outDir: p.outDir, migrationsDir: p.migrationsDir });
      expect(second.migrations[d.name].file).toMatch(/0001_gizmo_gadget_change_size_add_colour_weight_and_1_more\.sql$/);

      t = await bootApp(db, opts);
      const gadgets = (await t.call('GET', '/api/gizmo/gadgets')).body.data;
      expect(gadgets.map((x: Record<string, unknown>) => [x.slug, x.size, x.colour, x.weight])).toEqual([['first', 3, 'red', null], ['second', 1, 'red', null]]);
      expect((await t.call('GET', '/api/gizmo/parts')).body.data.map((x: { label: string }) => x.label)).toEqual(['part of first', 'part of second']);
      expect((await t.call('POST', '/api/gizmo/gadgets', { data: {} })).body.data).toMatchObject({ size: 5, colour: 'red' });
      expect((await t.call('POST', '/api/gizmo/sprockets', { data: {} })).body.data.teeth).toBe(12);
      await t.database.close();

      // dropping a field would delete data: refused unless asked for explicitly
      p.write('gizmo/gadget.json', gadget({ colour: { kind: 'text', required: true, default: 'red' }, size: { kind: 'integer', default: 5 } }));
      await expect(codegen({ schemasDir: p.schemasDir, outDir: p.outDir, migrationsDir: p.migrationsDir })).rejects.toThrow(/field 'weight' \(column gizmo_gadgets\.weight\) is no longer declared.*--allow-destructive/);
      expect(readdirSync(`${p.migrationsDir}/${d.name}`).filter((f) => f.endsWith('.sql'))).toHaveLength(2);
      await codegen({ schemasDir: p.schemasDir, outDir: p.outDir, migrationsDir: p.migrationsDir, allowDestructive: true });
      t = await bootApp(db, opts);
      const after = (await t.call('GET', '/api/gizmo/gadgets')).body.data;
      expect(after).toHaveLength(3);
      expect(after[0]).not.toHaveProperty('weight');
      expect((await t.call('GET', '/api/gizmo/parts/count')).body.data).toBe(2);
      await t.close();
    });
  });
}
