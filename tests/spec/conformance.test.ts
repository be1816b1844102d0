import { describe, it, expect, beforeAll } from 'vitest';
import { join } from 'node:path';
import { ROOT } from '../../engine/codegen.js';
import { loadModel } from '../../engine/load.js';
import type { Model } from '../../engine/model.js';
import { registerPluginVariants } from '../../plugins/web.js';
import { lookup, registered } from '../../web/registry.js';
import { resolveVariant, spellVariant } from '../../web/storefront/variants.js';
import { readSpec, specEntities, specVariants, VARIANT_WORDS } from '../helpers/spec.js';

/** a product name, to spell the spec's `{product}` variant names out as PRODUCT_NAME would */
const PRODUCT = 'acme-studio';

/** Variants the spec names that may be missing, each with its reason: none left. */
const PENDING: Record<string, string> = {
  'ecommerce/widget/order-list-default': 'issue 9 (shop: the order list)',
  'ecommerce/widget/product-list-{product}-recommendation': 'issue 9 (shop)',
  'ecommerce/product/cart-default': 'issue 9 (shop: cart)',
  'ecommerce/product/overview-default': 'issue 9 (shop)',
  'ecommerce/product/price-default': 'issue 9 (shop: prices)',
  'ecommerce/product/currency-toggle-group-default': 'issue 9 (shop: checkout)',
};

/** Manifest variants an admin can pick that draw nothing, with the reason: only the host widget, which points at a module's widget. */
const UNDRAWN: Record<string, string> = {
  'host/widget/default': 'a host widget is drawn through the module widget it points at',
};

/** spec §2 and §3, read from the spec document itself (issue 13) */
describe('conformance with the spec', () => {
  let spec: string;
  let model: Model;
  beforeAll(async () => {
    spec = readSpec();
    model = loadModel(join(ROOT, 'schemas'));
    await registerPluginVariants();
  });

  it('§2: every public widget variant the spec names resolves to a component, and an admin can pick it', () => {
    const { variants, unknownHeads } = specVariants(spec);
    expect(unknownHeads, 'a list the test does not know how to read').toEqual([]);
    expect(variants.length).toBeGreaterThan(50);
    const missing: string[] = [];
    const notPickable: string[] = [];
    for (const { entity, variant, source } of variants) {
      const [module, name] = entity.split('/') as [string, string];
      const key = `${entity}/${variant}`;
      // the spelled-out name (content-acme-studio-description) and the manifest's (content-description) both draw
      const drawn = resolveVariant(module, name, spellVariant(variant, PRODUCT), PRODUCT) && resolveVariant(module, name, spellVariant(variant));
      if (!drawn && !PENDING[key]) missing.push(`${key} (spec: '${source}')`);
      const manifest = model.byId[entity];
      if (!manifest?.variants.includes(spellVariant(variant))) notPickable.push(key);
    }
    expect(missing).toEqual([]);
    expect(notPickable).toEqual([]);
  });

  it('§2: the words the test reads as variant names are all still in the spec', () => {
    for (const words of Object.keys(VARIANT_WORDS)) expect(spec, words).toContain(words);
  });

  it('manifest variants an admin can pick all draw something, but for the listed ones', () => {
    const drawnEntities = new Set(registered().map((k) => k.split('/').slice(0, 2).join('/')));
    const undrawn = model.entities
      .filter((e) => e.name === 'widget' || drawnEntities.has(e.id))
      .flatMap((e) => e.variants.filter((v) => !resolveVariant(e.module, e.name, v)).map((v) => `${e.id}/${v}`))
      .filter((key) => !UNDRAWN[key]);
    expect(undrawn).toEqual([]);
  });

  it('§3: every entity of the spec exists with its fields; every entity has the common ones and every relation its orderIndex', () => {
    const { entities, common, relationCommon, relations, modules, unknownRows } = specEntities(spec);
    expect(unknownRows, 'a table row the test does not know how to read').toEqual([]);
    expect(entities.length).toBeGreaterThan(20);
    expect(model.modules.map((m) => (typeof m === 'string' ? m : (m as { name: string }).name)).sort()).toEqual(expect.arrayContaining([...modules].sort()));
    const problems: string[] = [];
    for (const { name, ids, fields } of entities) {
      const list = ids === 'every widget' ? model.entities.filter((e) => e.name === 'widget').map((e) => e.id) : ids;
      for (const id of list) {
        const entity = model.byId[id];
        if (!entity) {
          problems.push(`${name}: no entity ${id}`);
          continue;
        }
        for (const f of fields) {
          if (f.modules && !f.modules.includes(entity.module)) continue;
          if (!entity.fields.some((x) => x.name === f.name)) problems.push(`${id} has no field '${f.name}' (spec: ${name})`);
        }
      }
    }
    for (const e of model.entities) {
      for (const f of common) if (!e.fields.some((x) => x.name === f)) problems.push(`${e.id} has no common field '${f}'`);
      if (e.relation) for (const f of relationCommon) if (!e.fields.some((x) => x.name === f)) problems.push(`${e.id} has no '${f}'`);
    }
    for (const r of relations) if (!model.entities.some((e) => e.name === r && e.relation)) problems.push(`no relation entity ${r}`);
    expect(problems).toEqual([]);
  });
  // last: the admin's generic '*/*' entries would stand in for every entity's storefront variants above
  it('§2: every entity has the admin view variants (find, admin-table-row, admin-table, admin-select-input, admin-form, default)', async () => {
    const line = spec.split('\n').find((l) => l.startsWith('- Every entity has these view variants:'))!;
    const views = line.slice(line.indexOf(':') + 1).replace(/\.$/, '').split(',').map((s) => s.trim());
    const { registerGenericAdmin } = await import('../../web/admin/generic/index.js');
    registerGenericAdmin();
    const missing = model.entities.flatMap((e) => views.filter((v) => !lookup(e.module, e.name, v)).map((v) => `${e.id}/${v}`));
    expect(views).toHaveLength(6);
    expect(missing).toEqual([]);
  });
});
