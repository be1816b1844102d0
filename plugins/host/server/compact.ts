import type { Entity, Model } from '../../../engine/model.js';
import { linksOf } from '../../../runtime/crud/expand.js';

type Row = Record<string, unknown>;

/** columns no widget draws: when a row was written; relation rows are in order already */
const UNDRAWN = new Set(['createdAt', 'updatedAt']);

/**
 * Makes an expanded row (and what is expanded under it) as small as the page needs, in place: a language map
 * keeps only the value the page shows (its language, else the default one, else any; the key stays, so
 * `pick` reads it as before), the write times go, and a relation row keeps its own fields but not the two ids
 * its ends already carry. Walks the same links `expand` made, so it knows each row's entity.
 */
export function compactRow(model: Model, entity: Entity, row: Row, language: string, defaultLanguage: string): void {
  for (const key of UNDRAWN) delete row[key];
  for (const f of entity.fields) {
    if (f.kind !== 'localized') continue;
    const map = row[f.name];
    if (!map || typeof map !== 'object') continue;
    const m = map as Record<string, unknown>;
    const key = m[language] ? language : m[defaultLanguage] ? defaultLanguage : Object.keys(m).find((k) => m[k]);
    row[f.name] = key ? { [key]: m[key] } : {};
  }
  for (const link of linksOf(model, entity)) {
    const rels = row[link.key];
    if (!Array.isArray(rels)) continue;
    for (const rel of rels as Row[]) {
      compactRow(model, link.relation, rel, language, defaultLanguage);
      delete rel[link.near.name];
      delete rel[link.far.name];
      const end = rel[link.end];
      if (end && typeof end === 'object') compactRow(model, link.target, end as Row, language, defaultLanguage);
    }
  }
}
