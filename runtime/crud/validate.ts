import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { Entity, Model } from '../../engine/model.js';
import { SERVER_FIELDS, bodySchema } from '../../engine/json-schema.js';
import { DATE_RULE, DATETIME_RULE, UUID_PATTERN, UUID_RULE, addValueFormats } from '../../engine/fields/index.js';
import { SAFE_FILE_PATTERN, SAFE_LINK_PATTERN } from '../../engine/links.js';
import { badRequest, type Cause } from '../http/errors.js';

const ajv = new Ajv({ allErrors: true, strict: false, useDefaults: false, coerceTypes: false });
// a date and a date-time keep the field registry's one rule, in a body as in a filter's value (years 0001 to 9999)
addValueFormats(ajv);
/** formats said in words: a date and a date-time as the field registry says them, an id and an address as a person would */
const FORMAT_RULES: Record<string, string> = { date: DATE_RULE, 'date-time': DATETIME_RULE, uuid: UUID_RULE, email: 'must be an email address' };

const cache = new WeakMap<Entity, Record<'create' | 'update', ValidateFunction>>();

/**
 * Patterns said in words (a field's `patternText`, and the slug's everywhere), so that an error names what a field
 * takes rather than its regular expression.
 */
const PATTERN_WORDS = new Map<string, string>([
  ['^[a-z0-9-]+$', 'lowercase letters, digits and dashes'],
  [UUID_PATTERN, UUID_RULE.replace(/^must be /, '')],
]);

function validatorsOf(entity: Entity, model: Model) {
  let v = cache.get(entity);
  if (!v) {
    for (const f of entity.fields) if (f.pattern !== undefined && f.patternText) PATTERN_WORDS.set(f.pattern, f.patternText);
    const strip = (s: Record<string, unknown>) => ({ ...s, $id: undefined });
    v = {
      create: ajv.compile(strip(bodySchema(entity, model, 'create'))),
      update: ajv.compile(strip(bodySchema(entity, model, 'update'))),
    };
    cache.set(entity, v);
  }
  return v;
}

/** a JSON pointer under `prefix` as the API names fields: `items/0/quantity` → `items[0].quantity`, as in `data[0].slug` */
const joinPath = (prefix: string, pointer: string) =>
  [prefix, ...pointer.split('/').filter(Boolean).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))]
    .filter(Boolean)
    .reduce((path, part) => (/^\d+$/.test(part) && path ? `${path}[${part}]` : path ? `${path}.${part}` : part), '');

const enumChoices = (values: unknown[]) => {
  const named = values.filter((v) => v !== null).join(', ');
  return values.includes(null) ? `${named} (or null)` : named;
};

function causeOf(err: ErrorObject, prefix: string): Cause {
  const at = joinPath(prefix, err.instancePath);
  const p = err.params as Record<string, unknown>;
  switch (err.keyword) {
    case 'additionalProperties': {
      const field = joinPath(at, String(p.additionalProperty));
      return { field, rule: 'unknown', message: `${field} is not an allowed field` };
    }
    case 'required': {
      const field = joinPath(at, String(p.missingProperty));
      return { field, rule: 'required', message: `${field} is required` };
    }
    case 'enum':
      // a key of a language map (propertyNames): the key is named, as what it must be
      if (err.propertyName !== undefined) return { field: at, rule: 'language', message: `${at} has the key '${err.propertyName}', which is not a language of the site (${enumChoices(p.allowedValues as unknown[])})` };
      // an optional enum also takes null, which the list names in words rather than as an empty item
      return { field: at, rule: 'enum', message: `${at} must be one of: ${enumChoices(p.allowedValues as unknown[])}` };
    case 'format':
      // a date, a date-time, an id or an address says what it accepts; any other format as ajv words it
      if (Object.hasOwn(FORMAT_RULES, String(p.format))) return { field: at, rule: 'format', message: `${at || 'data'} ${FORMAT_RULES[String(p.format)]}` };
      return { field: at, rule: err.keyword, message: `${at || 'data'} ${err.message}` };
    case 'propertyNames':
      return { field: at, rule: 'language', message: `${at} keys must be language codes such as en, ru` };
    // the allow-lists of urls (engine/links.ts) say what they take, not their regular expression
    case 'pattern':
      if (p.pattern === SAFE_LINK_PATTERN) return { field: at, rule: 'pattern', message: `${at} must be an http(s), mailto or tel url, or a relative link` };
      if (p.pattern === SAFE_FILE_PATTERN) return { field: at, rule: 'pattern', message: `${at} must be an https url, a stored file's key or a path on this site` };
      if (PATTERN_WORDS.has(String(p.pattern))) return { field: at, rule: 'pattern', message: `${at || 'data'} must be ${PATTERN_WORDS.get(String(p.pattern))}` };
      return { field: at, rule: err.keyword, message: `${at || 'data'} ${err.message}` };
    default:
      return { field: at, rule: err.keyword, message: `${at || 'data'} ${err.message}` };
  }
}

function check(validate: ValidateFunction, data: unknown, prefix: string) {
  if (validate(data)) return;
  const errors = validate.errors ?? [];
  // a language map's wrong key is said once, by the key's own error (ajv adds a second, 'property name is invalid')
  const keyed = new Set(errors.filter((e) => e.propertyName !== undefined).map((e) => e.instancePath));
  const causes = errors
    .filter((e) => e.keyword !== 'anyOf' && !(e.keyword === 'type' && (e.params as { type?: string }).type === 'null') && !(e.keyword === 'propertyNames' && keyed.has(e.instancePath)))
    .map((e) => causeOf(e, prefix));
  const seen = new Set<string>();
  // a value of the wrong type that is also outside an enum says so once: the enum's list is the useful half
  const enumFields = new Set(causes.filter((c) => c.rule === 'enum').map((c) => c.field));
  const unique = causes.filter((c) => !(c.rule === 'type' && enumFields.has(c.field)) && !seen.has(c.message) && seen.add(c.message));
  throw badRequest(unique.length === 1 ? `Validation failed: ${unique[0].message}` : `Validation failed on ${unique.length} fields`, unique);
}

const valueValidators = new Map<string, ValidateFunction>();

/**
 * The first rule a field's value breaks, as a written value's would be named (the field, the rule, the message), or
 * undefined when it keeps them: a migration holds the stored values of a field whose rule changes to it.
 */
export function valueCause(schema: Record<string, unknown>, field: string, value: unknown): Cause | undefined {
  const key = JSON.stringify(schema);
  let validate = valueValidators.get(key);
  if (!validate) valueValidators.set(key, (validate = ajv.compile(schema)));
  if (validate(value)) return undefined;
  return causeOf(validate.errors![0], field);
}

/**
 * A validator for a body that is not an entity (sign-in, checkout, …), compiled once, whose
 * errors name the field and rule like the entities' do.
 * @example const login = bodyValidator<{ login: string }>({ type: 'object', ... }); const body = login(data);
 */
export function bodyValidator<T>(schema: Record<string, unknown>) {
  const validate = ajv.compile(schema);
  return (data: unknown): T => {
    if (data === undefined || data === null) throw badRequest('Data is undefined');
    check(validate, data, '');
    return data as T;
  };
}

/** where in a JSON value a number is not finite (1e400 parses as Infinity), as a field path; undefined when none is */
function infiniteAt(v: unknown, path: string): string | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? undefined : path;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const at = infiniteAt(v[i], `${path}[${i}]`);
      if (at) return at;
    }
  } else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      const at = infiniteAt(x, `${path}.${k}`);
      if (at) return at;
    }
  }
  return undefined;
}

/**
 * Validates a body's data against the entity's manifest (compiled once per entity). Throws a 400
 * whose causes name each field and rule.
 */
export function validateBody(entity: Entity, model: Model, mode: 'create' | 'update', data: unknown, prefix = ''): Record<string, unknown> {
  if (data === undefined) throw badRequest('Data is undefined');
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw badRequest(`${prefix || 'data'} must be an object`);
  const validate = validatorsOf(entity, model)[mode];
  // a plain string for a language map is the default language's text ("alt": "Logo" → {"en": "Logo"})
  const plain = entity.fields.filter((f) => f.kind === 'localized' && typeof (data as Record<string, unknown>)[f.name] === 'string');
  if (plain.length) {
    data = { ...(data as Record<string, unknown>) };
    for (const f of plain) (data as Record<string, unknown>)[f.name] = { [model.defaultLanguage]: (data as Record<string, unknown>)[f.name] };
  }
  // a blank generated field (slug, adminTitle) asks the server to generate it
  const blanks = entity.fields.filter((f) => f.generate && (data as Record<string, unknown>)[f.name] !== undefined && ['', null].includes((data as Record<string, never>)[f.name])).map((f) => f.name);
  if (blanks.length) {
    data = { ...(data as Record<string, unknown>) };
    for (const name of blanks) delete (data as Record<string, unknown>)[name];
  }
  check(validate, data, prefix);
  // a JSON document holds finite numbers only: JSON.parse reads 1e400 as Infinity, which would be stored as null
  for (const f of entity.fields) {
    if (f.kind !== 'json') continue;
    const at = infiniteAt((data as Record<string, unknown>)[f.name], f.name);
    if (at) throw badRequest(`Validation failed: ${prefix ? prefix + '.' : ''}${at} is a number too large to store`, [{ field: `${prefix ? prefix + '.' : ''}${at}`, rule: 'finite', message: `${at} must be a finite number` }]);
  }
  const body: Record<string, unknown> = { ...(data as Record<string, unknown>), ...Object.fromEntries(blanks.map((name) => [name, ''])) };
  // the server sets id, createdAt and updatedAt: sent ones are ignored, for every caller alike (an owner's update
  // that sent another id was judged as a row with that id, and refused, while the system's went through)
  for (const name of SERVER_FIELDS) delete body[name];
  return body;
}
