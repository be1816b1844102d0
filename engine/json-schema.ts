import type { Entity, Field, Model } from './model.js';
import { fieldTypes } from './fields/index.js';

type Schema = Record<string, unknown>;

/** Fields the server sets; accepted in bodies (clients echo whole rows back) but never written from them */
export const SERVER_FIELDS = ['id', 'createdAt', 'updatedAt'] as const;

const isServerField = (f: Field) => (SERVER_FIELDS as readonly string[]).includes(f.name);

/** a field that may be left out on create: it has a default, is generated, or is optional */
export const optionalOnCreate = (f: Field) => !f.required || f.default !== undefined || !!f.generate;

/**
 * The most characters a text kept in an index may hold: PostgreSQL refuses an index entry over 2704 bytes (a 500),
 * and a character takes up to 4 bytes in UTF-8. A unique or indexed text holds at most 500 (2000 bytes); one of a
 * group unique together (`unique: [[…]]`) at most 250, so that two of them still fit. A manifest's own smaller
 * maxLength stands. The same on SQLite, which has no such limit, so that both take the same values.
 */
export const INDEXED_TEXT_MAX = 500;
export const GROUPED_TEXT_MAX = 250;
export function indexedTextMax(entity: Entity, field: Field): number | undefined {
  if ((entity.unique ?? []).some((group) => group.length > 1 && group.includes(field.name))) return GROUPED_TEXT_MAX;
  return field.unique || field.index ? INDEXED_TEXT_MAX : undefined;
}

function valueSchema(field: Field, model: Model, nullable: boolean, indexedMax?: number): Schema {
  const base: Schema = {
    ...(fieldTypes[field.kind].jsonSchema as (f: Field, m: Model) => Schema)(field, model),
    ...(field.title && { title: field.title }),
    ...(field.description && { description: field.description }),
  };
  if (indexedMax !== undefined && base.type === 'string' && !Array.isArray(base.enum)) base.maxLength = Math.min((base.maxLength as number | undefined) ?? indexedMax, indexedMax);
  if (field.default !== undefined) base.default = field.default;
  if (!nullable) return base;
  // an enum lists null too, or a stored null would break the row's own schema (and its generated type)
  if (typeof base.type === 'string') return { ...base, type: [base.type, 'null'], ...(Array.isArray(base.enum) && { enum: [...base.enum, null] }) };
  if (Object.keys(base).every((k) => ['title', 'description', 'default'].includes(k))) return base;
  return { anyOf: [base, { type: 'null' }], ...(field.title && { title: field.title }) };
}

/**
 * JSON Schema of a create or update body's `data` for an entity: its writable fields,
 * nothing else (unknown fields are refused).
 */
export function bodySchema(entity: Entity, model: Model, mode: 'create' | 'update'): Schema {
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  for (const f of entity.fields) {
    if (isServerField(f)) {
      properties[f.name] = {};
      continue;
    }
    properties[f.name] = valueSchema(f, model, !f.required && f.default === undefined, indexedTextMax(entity, f));
    if (mode === 'create' && !optionalOnCreate(f)) required.push(f.name);
  }
  return {
    $id: `${entity.id}#${mode}`,
    title: `${entity.title} (${mode})`,
    type: 'object',
    additionalProperties: false,
    properties,
    ...(required.length && { required }),
  };
}

/** JSON Schema of a row as the API returns it (secret fields are never returned) */
export function rowSchema(entity: Entity, model: Model): Schema {
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  for (const f of entity.fields) {
    if (f.secret) continue;
    const alwaysSet = isServerField(f) || f.required || f.default !== undefined || !!f.generate;
    const s = isServerField(f)
      ? { type: 'string', ...(f.kind === 'datetime' ? { format: 'date-time' } : { format: 'uuid' }) }
      : valueSchema(f, model, !alwaysSet);
    delete s.default;
    properties[f.name] = s;
    // a field whose read access is restricted is left out of the rows of callers who may not read it
    if (!f.access?.read || f.access.read.includes('public')) required.push(f.name);
  }
  return { title: entity.title, type: 'object', additionalProperties: false, properties, required };
}
