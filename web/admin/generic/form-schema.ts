import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import type { EntityInfo, FieldInfo, ModelInfo } from '../api.js';
import { fieldTitle, polymorphicTarget } from '../labels.js';

const SERVER_SET = new Set(['id', 'createdAt', 'updatedAt']);

/**
 * the fields a form shows: everything but what the server sets, secrets (set through their own routes) and
 * fields the signed-in account may not read (the manifest's field access)
 */
export const editableFields = (e: EntityInfo) => e.fields.filter((f) => !SERVER_SET.has(f.name) && !f.secret && f.readable !== false);

/** fields the signed-in account may not write are shown disabled and never sent */
export const isWritable = (f: FieldInfo) => f.writable !== false;

/** the field a new row's slug follows as the editor types, and the one its admin title follows */
export const slugField = (e: EntityInfo) => e.fields.find((f) => f.generate === 'slug' && f.kind === 'text' && isWritable(f) && f.readable !== false);
/**
 * a field the server fills when it is left blank (the manifest's `generate`: an admin title of random words,
 * a slug), on create and on update (spec §5): never required in the form, and its hint says so
 */
export const isGenerated = (f: FieldInfo) => !!f.generate;
export const GENERATED_HINT = 'Generated when left blank';

/**
 * a choice that is never empty: a required enum, or one with a default (the column always holds a value, so a
 * blank choice would only be refused by the server, or silently mean the default). It offers no blank option;
 * a new row starts on its default. An optional enum without a default keeps a blank choice that clears it.
 */
export const alwaysChosen = (f: FieldInfo) => (f.kind === 'enum' || isLanguageField(f)) && (f.required || (f.default !== undefined && f.default !== null));

/**
 * Kinds whose default an editor sees as a chosen value (a select, a switch, a number): a new row starts with
 * it. A text default ('Page', '/') is a placeholder instead, so it is never saved by accident.
 */
const PREFILLED_KINDS = new Set(['enum', 'boolean', 'integer', 'number']);
export const prefillsDefault = (f: FieldInfo) => f.default !== undefined && f.default !== null && (PREFILLED_KINDS.has(f.kind) || isLanguageField(f));

/** a two-letter language code field: a select of the site's languages */
export const isLanguageField = (f: FieldInfo) => f.kind === 'text' && /^(language|locale|lang)$/i.test(f.name);

/** a property schema without its null branch nor its default: the form clears a value by leaving it empty */
function withoutNull(s: Record<string, unknown>): Record<string, unknown> {
  let out = s;
  if (Array.isArray(s.type)) {
    const types = (s.type as string[]).filter((t) => t !== 'null');
    out = { ...s, type: types.length === 1 ? types[0] : types };
  } else if (Array.isArray(s.anyOf)) {
    const rest = (s.anyOf as Record<string, unknown>[]).filter((b) => b.type !== 'null');
    if (rest.length === 1) out = { ...rest[0], ...(s.title ? { title: s.title } : {}) };
  }
  // an optional enum lists null among its values: the form's blank choice stands for it
  if (Array.isArray(out.enum) && out.enum.includes(null)) out = { ...out, enum: out.enum.filter((v) => v !== null) };
  const { default: _default, ...noDefault } = out;
  return noDefault;
}

const widgetOf = (entity: EntityInfo, f: FieldInfo, schema: Record<string, unknown>): UiSchema => {
  if (f.kind === 'localized') return { 'ui:field': 'localized', 'ui:options': { richText: f.format === 'rich-text', multiline: f.format === 'multiline' } };
  if (f.kind === 'json') return { 'ui:field': 'json' };
  if (f.kind === 'reference') return { 'ui:widget': 'reference', 'ui:options': { target: f.target } };
  if (f.kind === 'boolean') return { 'ui:widget': 'switch' };
  if (f.kind === 'file') return { 'ui:widget': 'file' };
  if (f.kind === 'datetime') return { 'ui:widget': 'datetime' };
  if (f.kind === 'date') return { 'ui:widget': 'date' };
  if (f.kind === 'enum') return { 'ui:widget': 'select', ...(alwaysChosen(f) && { 'ui:options': { blank: false } }) };
  if (f.kind === 'integer' || f.kind === 'number') return { 'ui:widget': 'number' };
  if (f.format === 'rich-text') return { 'ui:widget': 'richText' };
  if (f.format === 'multiline') return { 'ui:widget': 'textarea' };
  if (isLanguageField(f)) return { 'ui:widget': 'language', ...(alwaysChosen(f) && { 'ui:options': { blank: false } }) };
  const poly = polymorphicTarget(entity, f);
  if (poly) return { 'ui:widget': 'polyReference', 'ui:options': poly };
  const leadingSlash = typeof schema.pattern === 'string' && schema.pattern.startsWith('^/');
  return { 'ui:widget': 'text', ...(leadingSlash && { 'ui:options': { leadingSlash } }) };
};

/** the required fields of the form: what the manifest requires, but what the server generates when blank */
export function requiredFields(entity: EntityInfo): string[] {
  return editableFields(entity)
    .filter((f) => f.required && isWritable(f) && !isGenerated(f))
    .map((f) => f.name);
}

/**
 * The JSON Schema and uiSchema rjsf draws an entity's form from, both derived from the manifest. `fixed`
 * fields (a nested table's key) are kept but hidden.
 */
export function formSchema(entity: EntityInfo, mode: 'create' | 'update', model?: ModelInfo, fixed: string[] = []): { schema: RJSFSchema; uiSchema: UiSchema } {
  const source = entity.schemas[mode] as { properties: Record<string, Record<string, unknown>>; required?: string[] };
  const properties: Record<string, unknown> = {};
  const uiSchema: UiSchema = { 'ui:submitButtonOptions': { norender: true } };
  const fields = editableFields(entity);
  for (const f of fields) {
    const s = withoutNull(source.properties[f.name] ?? {});
    properties[f.name] = { ...s, title: fieldTitle(f, model), ...(f.description && { description: f.description }) };
    const ui: UiSchema = widgetOf(entity, f, s);
    if (!PREFILLED_KINDS.has(f.kind) && f.default !== undefined && f.default !== null && typeof f.default !== 'object' && !isLanguageField(f)) ui['ui:placeholder'] = String(f.default);
    if (isGenerated(f) && isWritable(f)) ui['ui:help'] = GENERATED_HINT;
    if (!isWritable(f)) Object.assign(ui, { 'ui:disabled': true, 'ui:help': 'This account may not change this field' });
    if (fixed.includes(f.name)) ui['ui:widget'] = 'hidden';
    uiSchema[f.name] = ui;
  }
  const required = requiredFields(entity).filter((n) => !fixed.includes(n));
  uiSchema['ui:order'] = [...fields.filter((f) => !f.common).map((f) => f.name), ...fields.filter((f) => f.common).map((f) => f.name)];
  return { schema: { type: 'object', properties, ...(required.length && { required }) } as RJSFSchema, uiSchema };
}

/** server causes ({ field: 'title.en', message }) as rjsf's extraErrors, on the top-level field */
export function errorsOf(causes: { field?: string; message: string }[] | undefined, known?: (name: string) => boolean) {
  const out: Record<string, { __errors: string[] }> = {};
  for (const c of causes ?? []) {
    const top = (c.field ?? '').split('.')[0]!.replace(/\[.*$/, '');
    if (!top || (known && !known(top))) continue;
    const list = (out[top] ??= { __errors: [] }).__errors;
    if (!list.includes(c.message)) list.push(c.message);
  }
  return out;
}

/**
 * A server cause's message with the field's label in place of its raw name ('url is already taken' → 'URL is
 * already taken'), as the form says it beside the field.
 */
export function causeInWords(message: string, name: string | undefined, label: string | undefined): string {
  if (!name || !label || name === label) return message;
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return message.replace(new RegExp(`^${escaped}(?=[\\s.:\\[]|$)(\\.[a-z]{2}(?![A-Za-z]))?`), (_, lang?: string) => (lang ? `${label} (${lang.slice(1).toUpperCase()})` : label));
}
