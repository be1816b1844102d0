import type { EntityInfo, FieldInfo } from '../api.js';

const LABEL_FIELDS = ['adminTitle', 'title', 'name', 'email', 'slug'];
const SHOWN_KINDS = new Set(['text', 'enum', 'integer', 'number', 'boolean', 'localized', 'reference', 'date', 'datetime', 'file', 'json']);
/** at most this many columns besides the label fields and the common ones */
const MORE_COLUMNS = 5;

const visible = (f: FieldInfo) => !f.secret && f.readable !== false;
/** presentation-only fields (className, containerClassName) are left out of tables */
const isStyling = (f: FieldInfo) => /className$/i.test(f.name);

/**
 * The columns a table shows: a relation's references first; then the label fields; then up to five more
 * fields that say something (files, key/value documents, enums…, never rich text or styling), then the
 * variant when there is a choice, the order of a relation, and createdAt.
 */
export function tableColumns(entity: EntityInfo): FieldInfo[] {
  const fields = entity.fields.filter(visible);
  const refs = entity.relation ? fields.filter((f) => f.kind === 'reference' && entity.relation!.includes(f.name)) : [];
  const label = LABEL_FIELDS.map((n) => fields.find((f) => f.name === n)).filter((f): f is FieldInfo => !!f && !refs.includes(f));
  const rest = fields
    .filter((f) => !f.common && !refs.includes(f) && !label.includes(f) && SHOWN_KINDS.has(f.kind) && f.format !== 'rich-text' && !isStyling(f))
    .slice(0, MORE_COLUMNS);
  const common = fields.filter((f) => (f.name === 'variant' && (f.values?.length ?? 0) > 1) || f.name === 'orderIndex' || f.name === 'createdAt');
  return [...refs, ...label, ...rest, ...common];
}

/**
 * The columns a search box looks in (the server's ilike means "contains"): every readable text field, every
 * language of every plain language map, and the id. Rich text is left out: it is stored as a JSON document
 * whose keys ('type', 'text', 'content') would match nearly any word.
 */
export function searchColumns(entity: EntityInfo, languages: string[]): string[] {
  const out: string[] = ['id'];
  for (const f of entity.fields) {
    if (!visible(f) || f.name === 'id' || f.format === 'rich-text') continue;
    if (f.kind === 'text' && f.format !== 'uuid') out.push(f.name);
    else if (f.kind === 'localized') for (const l of languages) out.push(`${f.name}.${l}`);
  }
  return out;
}

/** the filters a table offers: one per choice (enums with a choice, booleans), date and reference */
export function filterFields(entity: EntityInfo): FieldInfo[] {
  return entity.fields.filter(
    (f) =>
      visible(f) &&
      ((f.kind === 'enum' && (f.values?.length ?? 0) > 1) || f.kind === 'boolean' || f.kind === 'date' || f.kind === 'datetime' || f.kind === 'reference'),
  );
}

/** the column to order by for a field: one language of a map */
export const sortColumn = (f: FieldInfo, language: string) => (f.kind === 'localized' ? `${f.name}.${language}` : f.name);

/** fields a table can sort by (a JSON document or a file url has no useful order) */
export const sortable = (f: FieldInfo) => f.kind !== 'json';
