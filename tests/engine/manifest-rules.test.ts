import { describe, it, expect, afterEach, afterAll } from 'vitest';
import { codegen } from '../../engine/codegen.js';
import { loadModel, ManifestError } from '../../engine/load.js';
import { DIALECTS } from '../helpers/databases.js';
import { bootApp } from '../helpers/app.js';
import { scratchProject, snapshotFiles } from '../helpers/schemas.js';

/** what the meta-schema and the loader refuse beyond the grammar, and how values are checked at write time */

const gadget = (fields: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ name: 'gadget', route: 'gadgets', title: 'Gadget', fields, ...extra });

describe('manifest rules', () => {
  let p: ReturnType<typeof scratchProject>;
  afterEach(() => p?.remove());

  /** every problem as "file path rule", and the messages */
  const load = (files: Record<string, unknown>) => {
    p = scratchProject();
    for (const [path, m] of Object.entries(files)) p.write(path, m);
    try {
      loadModel(p.schemasDir);
      return { problems: [] as string[], message: '' };
    } catch (e) {
      expect(e).toBeInstanceOf(ManifestError);
      return { problems: (e as ManifestError).problems.map((x) => `${x.file} ${x.path} ${x.rule}`), message: (e as Error).message, error: e as ManifestError };
    }
  };

  it('contradictory bounds, and defaults that break their own field\'s rules', () => {
    const r = load({ 'gizmo/gadget.json': gadget({
      size: { kind: 'integer', minimum: 10, maximum: 5, default: 100 },
      code: { kind: 'text', minLength: 5, maxLength: 2 },
      slug: { kind: 'text', pattern: '^[a-z]+$', default: 'Not A Slug' },
      url: { kind: 'text', format: 'link', default: 'javascript:alert(1)' },
      title: { kind: 'localized', default: { de: 'Hallo' } },
      name: { kind: 'text', required: true, default: '' },
      when: { kind: 'date', default: 'yesterday' },
    }) });
    expect(r.problems).toEqual([
      'gizmo/gadget.json /fields/size/minimum bounds',
      'gizmo/gadget.json /fields/size/default default',
      'gizmo/gadget.json /fields/code/minLength bounds',
      'gizmo/gadget.json /fields/slug/default default',
      'gizmo/gadget.json /fields/url/default default',
      'gizmo/gadget.json /fields/title/default default',
      'gizmo/gadget.json /fields/name/default default',
      'gizmo/gadget.json /fields/when/default default',
    ]);
    expect(r.message).toContain('minimum 10 is greater than maximum 5: no value could be stored');
    expect(r.message).toContain("default 100 breaks the field's own rules: must be <= 5");
    expect(r.message).toContain("'de' is not a configured language (en, ru)");
    expect(r.message).toContain('must NOT have fewer than 1 characters');
    // a default date or date-time keeps the one rule a write keeps (engine/fields: years 0001 to 9999, a real day)
    const dates = load({ 'gizmo/gadget.json': gadget({
      day: { kind: 'date', default: '2026-02-30' },
      first: { kind: 'date', default: '0000-01-01' },
      at: { kind: 'datetime', default: '0000-01-01T00:00:00Z' },
      ok: { kind: 'date', default: '0001-01-01' },
      okAt: { kind: 'datetime', default: '2026-01-31T09:30:00+05:30' },
    }) });
    expect(dates.problems).toEqual(['gizmo/gadget.json /fields/day/default default', 'gizmo/gadget.json /fields/first/default default', 'gizmo/gadget.json /fields/at/default default']);
    expect(dates.message).toContain('must match format "date"');
    // allowed empty, a required text may default to ""
    expect(load({ 'gizmo/gadget.json': gadget({ name: { kind: 'text', required: true, allowEmpty: true, default: '' } }) }).problems).toEqual([]);
  });

  it('type names that would collide in the generated code', () => {
    const r = load({
      'blog/comment.json': { name: 'comment', route: 'comments', title: 'Comment', fields: {} },
      'blog/comment-create.json': { name: 'comment-create', route: 'comment-creates', title: 'Comment create', fields: {} },
    });
    expect(r.problems).toEqual(['blog/comment-create.json /name name-collision']);
    expect(r.message).toContain('blog/comment-create would declare BlogCommentCreate (its row type), which blog/comment already declares (its create type)');
    // the module and name split differently, the same PascalCase
    expect(load({
      'a-b/c.json': { name: 'c', route: 'cs', title: 'C', fields: {} },
      'a/b-c.json': { name: 'b-c', route: 'others', title: 'BC', fields: {} },
    }).problems).toEqual(['a/b-c.json /name name-collision', 'a/b-c.json /name name-collision']);
  });

  it('module and route names that would shadow what the platform serves', () => {
    const r = load({
      'admin/model.json': { name: 'model', route: 'model', title: 'Model', fields: {} },
      'revalidation/x.json': { name: 'x', route: 'revalidate', title: 'X', fields: {} },
      'files/x.json': { name: 'x', route: 'xs', title: 'X', fields: {} },
      'assets/x.json': { name: 'x', route: 'xs', title: 'X', fields: {} },
      'host/thing.json': { name: 'thing', route: 'pages', title: 'Thing', fields: {} },
    });
    expect(r.problems).toEqual(['admin/  reserved', 'assets/  reserved', 'files/  reserved', 'revalidation/  reserved', 'host/thing.json /route reserved']);
    expect(r.message).toContain("the module name 'admin' would shadow /api/admin, which the platform serves (runtime/http/model-route.ts (GET /api/admin/model)");
    expect(r.message).toContain('/api/host/pages would shadow routes the platform serves there (plugins/host (GET /api/host/pages/find-by-url, /urls, /url-segment-value)); only host/page may use it');
  });

  it('unique on a localized field, with why', () => {
    const r = load({ 'gizmo/gadget.json': gadget({ title: { kind: 'localized', unique: true } }) });
    expect(r.problems).toEqual(['gizmo/gadget.json /fields/title/unique unique-localized']);
    expect(r.message).toContain('a localized field cannot be unique: its value is a map of languages');
    expect(load({ 'gizmo/gadget.json': gadget({ name: { kind: 'localized' } }, { unique: [['name', 'variant']] }) }).problems).toEqual(['gizmo/gadget.json /unique/0/0 unique-localized']);
  });

  it('every problem of every manifest in one pass, with line and column, and never echoed into the manifests that refer to a broken one', () => {
    const r = load({
      'gizmo/gadget.json': gadget({ size: { kind: 'huge' } }),
      'gizmo/part.json': { name: 'part', route: 'parts', title: 'Part', fields: { gadgetId: { kind: 'reference', to: 'gadget' } }, owner: 'gadgetId' },
      'gizmo/parts-to-gadgets.json': { name: 'parts-to-gadgets', route: 'parts-to-gadgets', title: 'P', relation: ['partId', 'gadgetId'], fields: { partId: { kind: 'reference', to: 'part' }, gadgetId: { kind: 'reference', to: 'gadget' } } },
      'gizmo/broken.json': '{\n  "name": "broken",\n  "route": oops\n}',
      'gizmo/other.json': gadget({ n: { kind: 'integer', maximum: 1, minimum: 2 } }, { name: 'other', route: 'others' }),
    });
    // part and parts-to-gadgets point at the broken gadget (a reference, an owner, a relation end): not reported again
    expect(r.problems).toEqual(['gizmo/broken.json  json', 'gizmo/gadget.json /fields/size/kind enum', 'gizmo/other.json /fields/n/minimum bounds']);
    const located = r.error!.problems.map((x) => `${x.file}:${x.line}:${x.column}`);
    expect(located).toEqual(['gizmo/broken.json:3:12', 'gizmo/gadget.json:7:7', 'gizmo/other.json:9:7']);
    expect(r.message).toContain('gizmo/broken.json:3:12 at /: not valid JSON');
  });

  it('a refused codegen writes nothing, not even generated/', async () => {
    p = scratchProject();
    p.write('gizmo/gadget.json', gadget({ size: { kind: 'integer' } }));
    await codegen({ schemasDir: p.schemasDir, outDir: p.outDir, migrationsDir: p.migrationsDir });
    const before = snapshotFiles(p.dir, ['generated', 'migrations']);
    p.write('gizmo/gadget.json', gadget({ size: { kind: 'integer' }, colour: { kind: 'text', required: true } }));
    p.write('gizmo/widget.json', gadget({ n: { kind: 'integer', minimum: 3, maximum: 1 } }, { name: 'widget', route: 'widgets' }));
    await expect(codegen({ schemasDir: p.schemasDir, outDir: p.outDir, migrationsDir: p.migrationsDir })).rejects.toThrow(ManifestError);
    // the loader's problem first; once the manifests load, the migration's: both before anything is written
    p.write('gizmo/widget.json', gadget({ n: { kind: 'integer' } }, { name: 'widget', route: 'widgets' }));
    await expect(codegen({ schemasDir: p.schemasDir, outDir: p.outDir, migrationsDir: p.migrationsDir })).rejects.toThrow(/colour: a new required field on an existing entity needs a "default" or a "backfill"/);
    expect(snapshotFiles(p.dir, ['generated', 'migrations'])).toEqual(before);
  });

  it('codegen with nothing changed is served from its cache', async () => {
    p = scratchProject();
    p.write('gizmo/gadget.json', gadget({ size: { kind: 'integer' } }));
    const first = await codegen({ schemasDir: p.schemasDir, outDir: p.outDir, migrationsDir: p.migrationsDir });
    expect(first.cached).toBe(false);
    const again = await codegen({ schemasDir: p.schemasDir, outDir: p.outDir, migrationsDir: p.migrationsDir });
    expect(again).toMatchObject({ cached: true, written: [] });
    expect(again.model.byId['gizmo/gadget'].fields.map((f) => f.name)).toContain('size');
    p.write('gizmo/gadget.json', gadget({ size: { kind: 'integer', title: 'Size' } }));
    expect((await codegen({ schemasDir: p.schemasDir, outDir: p.outDir, migrationsDir: p.migrationsDir })).cached).toBe(false);
  });
});

/** values are checked against the configured languages and the non-empty rule on every write */
for (const d of DIALECTS) {
  describe(`manifest rules at write time on ${d.name}`, () => {
    const p = scratchProject();
    afterAll(() => p.remove());

    it('a localized value takes only the configured languages; a required text is not empty unless allowed', async () => {
      p.write('gizmo/gadget.json', gadget({
        title: { kind: 'localized' },
        name: { kind: 'text', required: true },
        note: { kind: 'text', required: true, allowEmpty: true },
        slug: { kind: 'text', required: true, generate: 'slug' },
      }));
      await codegen({ schemasDir: p.schemasDir, outDir: p.outDir, migrationsDir: p.migrationsDir });
      const t = await bootApp(await d.make(), { generatedDir: p.outDir, migrationsDir: p.migrationsDir });
      try {
        const de = await t.call('POST', '/api/gizmo/gadgets', { data: { title: { de: 'Hallo' }, name: 'x', note: 'y' } });
        expect(de.status).toBe(400);
        expect(de.body.cause.map((c: { field: string }) => c.field)).toContain('title');
        const empty = await t.call('POST', '/api/gizmo/gadgets', { data: { title: { en: 'Hi', ru: 'Привет' }, name: '', note: '' } });
        expect(empty.status).toBe(400);
        expect(empty.body.cause).toEqual([expect.objectContaining({ field: 'name', rule: 'minLength' })]);
        const ok = await t.call('POST', '/api/gizmo/gadgets', { data: { title: { en: 'Hi', ru: 'Привет' }, name: 'x', note: '', slug: '' } });
        expect(ok.status).toBe(201);
        expect(ok.body.data).toMatchObject({ note: '', title: { en: 'Hi', ru: 'Привет' } });
        expect(ok.body.data.slug).not.toBe('');
        expect((await t.call('PATCH', `/api/gizmo/gadgets/${ok.body.data.id}`, { data: { name: '' } })).status).toBe(400);
      } finally {
        await t.close();
      }
    });
  });
}
