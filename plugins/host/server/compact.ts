import type { Entity, Model } from '../../../engine/model.js';
import { linksOf } from '../../../runtime/crud/expand.js';

type Row = Record<string, unknown>;

/** columns no widget draws: when a row was written */
const UNDRAWN = new Set(['createdAt', 'updatedAt']);
/**
 * What a relation row has that no widget reads: widgets reach a relation's far end only (`targets()` in
 * web/storefront/context.tsx), and relation rows come in order already. Fields of its own beyond these stay.
 */
const RELATION_BOOKKEEPING = new Set(['id', 'variant', 'className', 'orderIndex', 'adminTitle', 'slug', 'createdAt', 'updatedAt']);

/**
 * The fields of a relation's rows a page needs: its two ends (expand joins by them) and any field of its own; what
 * `compactRow` drops of them (RELATION_BOOKKEEPING) is not read at all (expand's `linkFields`)
 */
export function linkFields(link: Link): readonly string[] {
  let fields = linkFieldsOf.get(link.relation);
  if (!fields) linkFieldsOf.set(link.relation, (fields = link.relation.fields.map((f) => f.name).filter((name) => !RELATION_BOOKKEEPING.has(name))));
  return fields;
}
const linkFieldsOf = new WeakMap<Entity, readonly string[]>();

const isEmptyMap = (v: unknown) => !!v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0;

/**
 * Makes an expanded row (and what is expanded under it) as small as the page needs, in place (issue 11: the page
 * data carries only the request's language and what widgets draw):
 * - a language map keeps only the value the page shows (its language, else the default one, else any; the key
 *   stays, so `pick` reads it as before); a map with no value at all goes;
 * - a value that is null goes (widgets read a missing value and a null alike: `row.x ?? …`);
 * - the write times go; `adminTitle`, the admin's name of a row, stays only on a row whose title has no value
 *   (the storefront falls back to it there: a file's caption, a product line, a subject's name);
 * - a relation row keeps only its far end (and any field of its own), not its ids, variant or order.
 * Walks the same links `expand` made, so it knows each row's entity. A row met twice (a currency shared by two
 * prices) is compacted once, to one object. The compact row is a new object with the kept keys in their order (a
 * delete would turn the row into a slow dictionary object for everything that reads it after: the render, the read
 * tracker, JSON).
 */
export function compactRow(model: Model, entity: Entity, row: Row, language: string, defaultLanguage: string, seen = new Map<Row, Row>()): Row {
  const done = seen.get(row);
  if (done) return done;
  const out: Row = {};
  seen.set(row, out);
  const { localized, links } = shapeOf(model, entity);
  const title = row.title;
  let titled = (typeof title === 'string' && title !== '') || (!!title && typeof title === 'object' && !localized.has('title'));
  if (!titled && localized.has('title') && title && typeof title === 'object') titled = pickKey(title as Row, language, defaultLanguage) !== undefined;
  for (const key in row) {
    if (!Object.hasOwn(row, key)) continue;
    const value = row[key];
    if (value === null || value === undefined || UNDRAWN.has(key) || (key === 'adminTitle' && titled)) continue;
    if (typeof value !== 'object') {
      out[key] = value;
      continue;
    }
    if (localized.has(key)) {
      const m = value as Row;
      const at = pickKey(m, language, defaultLanguage);
      if (at !== undefined) out[key] = { [at]: m[at] };
      continue;
    }
    const link = links.get(key);
    if (link && Array.isArray(value)) {
      out[key] = (value as Row[]).map((rel) => {
        const kept: Row = {};
        for (const k in rel) {
          if (!Object.hasOwn(rel, k)) continue;
          const v = rel[k];
          if (k === link.near.name || k === link.far.name || RELATION_BOOKKEEPING.has(k) || v === null) continue;
          kept[k] = k === link.end && v && typeof v === 'object' ? compactRow(model, link.target, v as Row, language, defaultLanguage, seen) : v;
        }
        return kept;
      });
      continue;
    }
    if (isEmptyMap(value)) continue;
    out[key] = value;
  }
  return out;
}

/** the key a language map shows: the page's language, else the default one, else the first with a value */
function pickKey(m: Row, language: string, defaultLanguage: string): string | undefined {
  return m[language] ? language : m[defaultLanguage] ? defaultLanguage : Object.keys(m).find((k) => m[k]);
}

type Link = ReturnType<typeof linksOf>[number];
const shapes = new WeakMap<Entity, { localized: Set<string>; links: Map<string, Link> }>();
function shapeOf(model: Model, entity: Entity) {
  let shape = shapes.get(entity);
  if (!shape) {
    shape = { localized: new Set(entity.fields.filter((f) => f.kind === 'localized').map((f) => f.name)), links: new Map(linksOf(model, entity).map((l) => [l.key, l])) };
    shapes.set(entity, shape);
  }
  return shape;
}
