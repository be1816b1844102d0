import type { EntityInfo, FieldInfo } from '../api.js';

const LABEL_FIELDS = ['adminTitle', 'title', 'slug'];
const SHOWN_KINDS = new Set(['text', 'enum', 'integer', 'number', 'boolean', 'localized', 'reference', 'date', 'datetime', 'file']);

/** the columns a table shows: the label fields, then up to five more plain fields, then createdAt */
export function tableColumns(entity: EntityInfo): FieldInfo[] {
  const fields = entity.fields.filter((f) => !f.secret && f.readable !== false);
  const label = LABEL_FIELDS.map((n) => fields.find((f) => f.name === n)).filter((f): f is FieldInfo => !!f);
  const rest = fields
    .filter((f) => !f.common && !LABEL_FIELDS.includes(f.name) && SHOWN_KINDS.has(f.kind) && f.format !== 'rich-text')
    .slice(0, 5);
  const common = ['variant', 'orderIndex', 'createdAt'].map((n) => fields.find((f) => f.name === n)).filter((f): f is FieldInfo => !!f);
  return [...label, ...rest, ...common];
}

/** the columns a search box looks in: adminTitle, slug and title (in the default language) where they exist */
export function searchColumns(entity: EntityInfo, language: string): string[] {
  const out: string[] = [];
  for (const name of ['adminTitle', 'slug', 'title']) {
    const f = entity.fields.find((x) => x.name === name && !x.secret && x.readable !== false);
    if (!f) continue;
    if (f.kind === 'localized') out.push(`${name}.${language}`);
    else if (f.kind === 'text') out.push(name);
  }
  return out;
}

/** the column to order by for a field: one language of a map */
export const sortColumn = (f: FieldInfo, language: string) => (f.kind === 'localized' ? `${f.name}.${language}` : f.name);
