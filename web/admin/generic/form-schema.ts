import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import type { EntityInfo, FieldInfo } from '../api.js';

const SERVER_SET = new Set(['id', 'createdAt', 'updatedAt']);

/**
 * the fields a form shows: everything but what the server sets, secrets (set through their own routes) and
 * fields the signed-in account may not read (the manifest's field access)
 */
export const editableFields = (e: EntityInfo) => e.fields.filter((f) => !SERVER_SET.has(f.name) && !f.secret && f.readable !== false);

/** fields the signed-in account may not write are shown disabled and never sent */
export const isWritable = (f: FieldInfo) => f.writable !== false;

/** a property schema without its null branch: the form clears a value by leaving it empty */
function withoutNull(s: Record<string, unknown>): Record<string, unknown> {
  if (Array.isArray(s.type)) {
    const types = (s.type as string[]).filter((t) => t !== 'null');
    return { ...s, type: types.length === 1 ? types[0] : types };
  }
  if (Array.isArray(s.anyOf)) {
    const rest = (s.anyOf as Record<string, unknown>[]).filter((b) => b.type !== 'null');
    if (rest.length === 1) return { ...rest[0], ...(s.title ? { title: s.title } : {}) };
  }
  return s;
}

const widgetOf = (f: FieldInfo): UiSchema => {
  if (f.kind === 'localized') return { 'ui:field': 'localized', 'ui:options': { richText: f.format === 'rich-text', multiline: f.format === 'multiline' } };
  if (f.kind === 'json') return { 'ui:field': 'json' };
  if (f.kind === 'reference') return { 'ui:widget': 'reference', 'ui:options': { target: f.target } };
  if (f.kind === 'boolean') return { 'ui:widget': 'switch' };
  if (f.kind === 'file') return { 'ui:widget': 'file' };
  if (f.kind === 'datetime') return { 'ui:widget': 'datetime' };
  if (f.kind === 'date') return { 'ui:widget': 'date' };
  if (f.kind === 'enum') return { 'ui:widget': 'select' };
  if (f.kind === 'integer' || f.kind === 'number') return { 'ui:widget': 'number' };
  if (f.format === 'rich-text') return { 'ui:widget': 'richText' };
  if (f.format === 'multiline') return { 'ui:widget': 'textarea' };
  return { 'ui:widget': 'text' };
};

/** the JSON Schema and uiSchema rjsf draws an entity's form from, both derived from the manifest */
export function formSchema(entity: EntityInfo, mode: 'create' | 'update'): { schema: RJSFSchema; uiSchema: UiSchema } {
  const source = entity.schemas[mode] as { properties: Record<string, Record<string, unknown>>; required?: string[] };
  const properties: Record<string, unknown> = {};
  const uiSchema: UiSchema = { 'ui:submitButtonOptions': { norender: true } };
  const fields = editableFields(entity);
  for (const f of fields) {
    const s = withoutNull(source.properties[f.name] ?? {});
    properties[f.name] = { ...s, title: f.title ?? s.title ?? f.name, ...(f.description && { description: f.description }) };
    uiSchema[f.name] = { ...widgetOf(f), ...(!isWritable(f) && { 'ui:disabled': true, 'ui:help': 'This account may not change this field' }) };
  }
  // generated fields may stay blank: the server fills them in
  const required = (source.required ?? []).filter((n) => !fields.find((f) => f.name === n)?.generate);
  uiSchema['ui:order'] = [...fields.filter((f) => !f.common).map((f) => f.name), ...fields.filter((f) => f.common).map((f) => f.name)];
  return { schema: { type: 'object', properties, ...(required.length && { required }) } as RJSFSchema, uiSchema };
}

/** server causes ({ field: 'title.en', message }) as rjsf's extraErrors, on the top-level field */
export function errorsOf(causes: { field?: string; message: string }[] | undefined) {
  const out: Record<string, { __errors: string[] }> = {};
  for (const c of causes ?? []) {
    const top = (c.field ?? '').split('.')[0].replace(/\[.*$/, '');
    if (!top) continue;
    (out[top] ??= { __errors: [] }).__errors.push(c.message);
  }
  return out;
}
