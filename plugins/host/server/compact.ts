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
 * prices) is compacted once.
 */
export function compactRow(model: Model, entity: Entity, row: Row, language: string, defaultLanguage: string, seen = new WeakSet<Row>()): void {
  if (seen.has(row)) return;
  seen.add(row);
  for (const key of UNDRAWN) delete row[key];
  for (const f of entity.fields) {
    if (f.kind !== 'localized') continue;
    const map = row[f.name];
    if (!map || typeof map !== 'object') continue;
    const m = map as Record<string, unknown>;
    const key = m[language] ? language : m[defaultLanguage] ? defaultLanguage : Object.keys(m).find((k) => m[k]);
    if (key) row[f.name] = { [key]: m[key] };
    else delete row[f.name];
  }
  const title = row.title;
  if ((typeof title === 'string' && title) || (title && typeof title === 'object')) delete row.adminTitle;
  for (const key of Object.keys(row)) if (row[key] === null || isEmptyMap(row[key])) delete row[key];
  for (const link of linksOf(model, entity)) {
    const rels = row[link.key];
    if (!Array.isArray(rels)) continue;
    row[link.key] = (rels as Row[]).map((rel) => {
      const out: Row = {};
      for (const [key, value] of Object.entries(rel)) {
        if (key === link.near.name || key === link.far.name || RELATION_BOOKKEEPING.has(key) || value === null) continue;
        out[key] = value;
      }
      const end = rel[link.end];
      if (end && typeof end === 'object') compactRow(model, link.target, end as Row, language, defaultLanguage, seen);
      return out;
    });
  }
}
