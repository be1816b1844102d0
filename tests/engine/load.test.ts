import { describe, it, expect, afterEach } from 'vitest';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../engine/codegen.js';
import { loadModel, ManifestError } from '../../engine/load.js';
import { scratchProject } from '../helpers/schemas.js';

const valid = { name: 'gadget', route: 'gadgets', title: 'Gadget', fields: { title: { kind: 'localized' } } };

describe('manifest loading', () => {
  let p: ReturnType<typeof scratchProject>;
  afterEach(() => p?.remove());

  const problemsOf = (manifest: unknown, file = 'gizmo/gadget.json') => {
    p = scratchProject();
    p.write(file, manifest);
    try {
      loadModel(p.schemasDir);
    } catch (e) {
      expect(e).toBeInstanceOf(ManifestError);
      return (e as ManifestError).problems.map((x) => `${x.file} ${x.path} ${x.rule}`);
    }
    return [];
  };

  it('builds the model graph with the common fields from the meta-schema', () => {
    p = scratchProject({ copySchemas: true });
    const model = loadModel(p.schemasDir);
    // every module folder of schemas/, however many an integrator adds
    const folders = readdirSync(join(ROOT, 'schemas')).filter((d) => d !== 'meta' && statSync(join(ROOT, 'schemas', d)).isDirectory());
    expect(model.modules).toEqual(folders.sort());
    expect(model.languages).toEqual(['en', 'ru']);
    const product = model.byId['ecommerce/product'];
    expect(product.fields.slice(0, 5).map((f) => f.name)).toEqual(['id', 'createdAt', 'updatedAt', 'variant', 'className']);
    expect(product.table).toBe('ecommerce_products');
    const rel = model.byId['ecommerce/products-to-attributes'];
    expect(rel.fields.map((f) => f.name)).toContain('orderIndex');
    expect(rel.fields.find((f) => f.name === 'productId')).toMatchObject({ kind: 'reference', target: 'ecommerce/product', onDelete: 'cascade' });
  });

  it('names the file, the JSON path and the rule of each problem', () => {
    expect(problemsOf({ ...valid, route: 'Bad Route' })).toEqual(['gizmo/gadget.json /route pattern']);
    expect(problemsOf({ ...valid, fields: { size: { kind: 'huge' } } })).toEqual(['gizmo/gadget.json /fields/size/kind enum']);
    expect(problemsOf({ ...valid, fields: { size: { kind: 'integer', pattern: 'x' } } })).toEqual(['gizmo/gadget.json /fields/size/pattern additionalProperties']);
    expect(problemsOf({ ...valid, colour: 'red' })).toEqual(['gizmo/gadget.json /colour additionalProperties']);
    expect(problemsOf({ ...valid, fields: { id: { kind: 'text' }, Big: { kind: 'text' } } })).toEqual(['gizmo/gadget.json /fields/id common-field', 'gizmo/gadget.json /fields/Big field-name']);
    // names every object has: a row without the field read the built-in (every create without them was refused),
    // and hasOwnProperty stopped codegen without naming the file
    expect(problemsOf({ ...valid, fields: { constructor: { kind: 'text' }, toString: { kind: 'text' }, valueOf: { kind: 'integer' }, hasOwnProperty: { kind: 'text' } } })).toEqual(
      ['constructor', 'toString', 'valueOf', 'hasOwnProperty'].map((n) => `gizmo/gadget.json /fields/${n} reserved`),
    );
    expect(problemsOf({ ...valid, fields: { ownerId: { kind: 'reference', to: 'nowhere' } } })).toEqual(['gizmo/gadget.json /fields/ownerId/to reference']);
    expect(problemsOf({ ...valid, fields: { state: { kind: 'enum', values: ['a'], default: 'b' } } })).toEqual(['gizmo/gadget.json /fields/state/default enum']);
    expect(problemsOf({ ...valid, relation: ['title', 'x'] })).toEqual(['gizmo/gadget.json /relation/0 relation', 'gizmo/gadget.json /relation/1 relation']);
    expect(problemsOf(valid, 'gizmo/widget.json')).toEqual(['gizmo/widget.json /name file-name']);
    expect(problemsOf('{ not json', 'gizmo/gadget.json')).toEqual(['gizmo/gadget.json  json']);
  });

  it('the error message reads as a list a person can act on', () => {
    p = scratchProject();
    p.write('gizmo/gadget.json', { ...valid, fields: { size: { kind: 'integer', required: 'yes' } } });
    // file:line:column of the offending key, its JSON path and the rule
    expect(() => loadModel(p.schemasDir)).toThrow('gizmo/gadget.json:8:7 at /fields/size/required: must be boolean (rule: type)');
  });
});
