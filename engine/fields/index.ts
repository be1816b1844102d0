import type { Field, FieldKind, Model } from '../model.js';
import addFormats from 'ajv-formats';
import { SAFE_FILE_PATTERN, SAFE_LINK_PATTERN } from '../links.js';

export type Dialect = 'sqlite' | 'pg';

/** Everything the engine knows about one kind of field. A new kind is one entry here. */
export interface FieldHandler {
  /** JSON Schema of a value in a request body (null is added for optional fields by the caller) */
  jsonSchema(field: Field, model: Model): Record<string, unknown>;
  /** drizzle column builder source for the dialect, without modifiers */
  column(field: Field, dialect: Dialect): string;
  /** drizzle-orm import names the column builder uses, per dialect */
  imports: Record<Dialect, string[]>;
  /** filter methods that make sense on this kind, beyond isNull / isNotNull */
  filterMethods: readonly string[];
  /** turns a query-string value into the column's value; throws a message on bad input */
  parse(raw: unknown, field: Field): unknown;
  /** admin form widget the generic renderer uses */
  widget: string;
}

const COMPARE = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'inArray', 'notInArray'] as const;
const TEXT = [...COMPARE, 'like', 'ilike', 'notLike', 'notIlike'] as const;
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const str = (raw: unknown) => {
  if (typeof raw === 'string') return raw;
  if (typeof raw === 'number' || typeof raw === 'boolean') return String(raw);
  throw 'must be a string';
};
/**
 * What an integer column holds: PostgreSQL's `integer` (4 bytes). SQLite's would hold more, but past 2^53 a JSON
 * number is no longer exact; both databases take the same values, and a value outside them is a 400 naming the
 * field (rule minimum or maximum), not the database's error.
 */
export const INTEGER_MIN = -2147483648;
export const INTEGER_MAX = 2147483647;
const num = (integer: boolean) => (raw: unknown) => {
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
  if (!Number.isFinite(n) || (integer && !Number.isInteger(n))) throw integer ? 'must be an integer' : 'must be a number';
  if (integer && (n < INTEGER_MIN || n > INTEGER_MAX)) throw `must be an integer from ${INTEGER_MIN} to ${INTEGER_MAX}`;
  return n;
};
const uuid = (raw: unknown) => {
  const s = str(raw);
  if (!UUID_RE.test(s)) throw 'must be a UUID';
  return s.toLowerCase();
};
const col = (f: Field) => JSON.stringify(f.column);

/**
 * One rule for a date and a date-time, for a body's value (runtime/crud/validate.ts makes the JSON Schema formats
 * `date` and `date-time` these functions) and a filter's value alike: the ISO 8601 form below, a real calendar day,
 * in the years 0001 to 9999. Both databases hold exactly that: PostgreSQL has no year 0, and past 9999 a Date's JSON
 * text is `+010000-…`, which PostgreSQL refuses. A date-time names its offset (Z or ±HH:mm, never the server's
 * time zone) and is read as ECMAScript reads that form (`new Date`, as the write path does), years below 100
 * included; its instant, in UTC, must lie in those years too.
 */
export const DATE_RULE = 'must be a date YYYY-MM-DD (ISO 8601): a real calendar day in the years 0001 to 9999';
export const DATETIME_RULE =
  'must be a date-time YYYY-MM-DDTHH:mm:ss[.sss] ending in Z or ±HH:mm (ISO 8601, e.g. 2026-01-31T09:30:00Z): a real calendar day and time in the years 0001 to 9999 (UTC)';
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:Z|[+-](\d{2}):(\d{2}))$/i;
/** the first and the last millisecond of the years 0001 to 9999, in UTC */
const FIRST_MS = -62135596800000;
const LAST_MS = 253402300799999;
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const isDay = (y: number, m: number, d: number) =>
  y >= 1 && m >= 1 && m <= 12 && d >= 1 && d <= (m === 2 && y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : MONTH_DAYS[m - 1]);
/** the date as it is when `s` keeps the date rule (DATE_RULE), else undefined */
export function dateOf(s: string): string | undefined {
  const m = DATE_RE.exec(s);
  return m && isDay(+m[1], +m[2], +m[3]) ? s : undefined;
}
/** the instant `s` names when it keeps the date-time rule (DATETIME_RULE), else undefined */
export function dateTimeOf(s: string): Date | undefined {
  const m = DATETIME_RE.exec(s);
  if (!m || !isDay(+m[1], +m[2], +m[3]) || +m[4] > 23 || +m[5] > 59 || +m[6] > 59) return undefined;
  if (m[7] !== undefined && (+m[7] > 23 || +m[8] > 59)) return undefined;
  const d = new Date(s);
  const ms = d.getTime();
  return ms >= FIRST_MS && ms <= LAST_MS ? d : undefined;
}

/**
 * ajv-formats, with a date and a date-time held to the field registry's one rule (DATE_RULE, DATETIME_RULE): a
 * body, a filter's value and a manifest's default or backfill keep the same rule.
 */
export function addValueFormats(ajv: import('ajv').Ajv): void {
  (addFormats as unknown as (a: import('ajv').Ajv) => void)(ajv);
  ajv.addFormat('date', { type: 'string', validate: (s: string) => dateOf(s) !== undefined });
  ajv.addFormat('date-time', { type: 'string', validate: (s: string) => dateTimeOf(s) !== undefined });
}

/** the rule of a link field: the allow-list of link targets, "" beside it when the field allows empty */
function linkRule(f: Field): Record<string, unknown> {
  const pattern = f.allowEmpty ? `^$|${SAFE_LINK_PATTERN}` : SAFE_LINK_PATTERN;
  return f.pattern === undefined ? { pattern } : { allOf: [{ pattern }] };
}

export const fieldTypes = {
  text: {
    jsonSchema: (f) => ({
      type: 'string',
      ...(f.pattern !== undefined && { pattern: f.pattern }),
      ...(f.minLength !== undefined && { minLength: f.minLength }),
      // a required text holds something: "" is refused unless the manifest allows empty
      ...(f.required && !f.allowEmpty && !(f.minLength! >= 1) && { minLength: 1 }),
      ...(f.maxLength !== undefined && { maxLength: f.maxLength }),
      ...(f.format && ['email', 'uri', 'uuid'].includes(f.format) && { format: f.format }),
      // a link must pass the one allow-list of link targets (engine/links.ts), beside any pattern of its own; with
      // allowEmpty, "" (no link) too
      ...(f.format === 'link' && linkRule(f)),
    }),
    column: (f, d) => (d === 'pg' && f.format === 'uuid' ? `uuid(${col(f)})` : `text(${col(f)})`),
    imports: { sqlite: ['text'], pg: ['text', 'uuid'] },
    filterMethods: TEXT,
    parse: (raw, f) => (f.format === 'uuid' ? uuid(raw) : str(raw)),
    widget: 'text',
  },
  enum: {
    jsonSchema: (f) => ({ type: 'string', enum: f.values }),
    column: (f) => `text(${col(f)})`,
    imports: { sqlite: ['text'], pg: ['text'] },
    filterMethods: TEXT,
    parse: str,
    widget: 'select',
  },
  integer: {
    jsonSchema: (f) => ({ type: 'integer', minimum: Math.max(f.minimum ?? INTEGER_MIN, INTEGER_MIN), maximum: Math.min(f.maximum ?? INTEGER_MAX, INTEGER_MAX) }),
    column: (f) => `integer(${col(f)})`,
    imports: { sqlite: ['integer'], pg: ['integer'] },
    filterMethods: COMPARE,
    parse: num(true),
    widget: 'number',
  },
  number: {
    jsonSchema: (f) => ({ type: 'number', ...(f.minimum !== undefined && { minimum: f.minimum }), ...(f.maximum !== undefined && { maximum: f.maximum }) }),
    column: (f, d) => (d === 'pg' ? `doublePrecision(${col(f)})` : `real(${col(f)})`),
    imports: { sqlite: ['real'], pg: ['doublePrecision'] },
    filterMethods: COMPARE,
    parse: num(false),
    widget: 'number',
  },
  boolean: {
    jsonSchema: () => ({ type: 'boolean' }),
    column: (f, d) => (d === 'pg' ? `boolean(${col(f)})` : `integer(${col(f)}, { mode: 'boolean' })`),
    imports: { sqlite: ['integer'], pg: ['boolean'] },
    filterMethods: ['eq', 'ne'],
    parse: (raw) => {
      if (raw === true || raw === 'true' || raw === '1' || raw === 1) return true;
      if (raw === false || raw === 'false' || raw === '0' || raw === 0) return false;
      throw 'must be true or false';
    },
    widget: 'switch',
  },
  localized: {
    // keyed only by the configured languages (schemas/meta/languages.json)
    jsonSchema: (f, model) => ({
      type: 'object',
      propertyNames: { enum: model.languages },
      additionalProperties: { type: 'string' },
    }),
    column: (f, d) => (d === 'pg' ? `jsonb(${col(f)})` : `text(${col(f)}, { mode: 'json' })`),
    imports: { sqlite: ['text'], pg: ['jsonb'] },
    // the whole map compares as JSON text; `<field>.<language>` filters one language with every text method
    filterMethods: ['like', 'ilike', 'notLike', 'notIlike'],
    parse: str,
    widget: 'localized',
  },
  datetime: {
    jsonSchema: () => ({ type: 'string', format: 'date-time' }),
    column: (f, d) =>
      d === 'pg'
        ? `timestamp(${col(f)}, { withTimezone: true, precision: 3, mode: 'date' })`
        : `integer(${col(f)}, { mode: 'timestamp_ms' })`,
    imports: { sqlite: ['integer'], pg: ['timestamp'] },
    filterMethods: COMPARE,
    parse: (raw) => {
      const d = typeof raw === 'string' ? dateTimeOf(raw) : undefined;
      if (!d) throw DATETIME_RULE;
      return d;
    },
    widget: 'datetime',
  },
  date: {
    jsonSchema: () => ({ type: 'string', format: 'date' }),
    column: (f, d) => (d === 'pg' ? `date(${col(f)}, { mode: 'string' })` : `text(${col(f)})`),
    imports: { sqlite: ['text'], pg: ['date'] },
    filterMethods: COMPARE,
    parse: (raw) => {
      const s = typeof raw === 'string' ? dateOf(raw) : undefined;
      if (s === undefined) throw DATE_RULE;
      return s;
    },
    widget: 'date',
  },
  json: {
    jsonSchema: (f) => (f.schema as Record<string, unknown>) ?? {},
    column: (f, d) => (d === 'pg' ? `jsonb(${col(f)})` : `text(${col(f)}, { mode: 'json' })`),
    imports: { sqlite: ['text'], pg: ['jsonb'] },
    filterMethods: ['like', 'ilike', 'notLike', 'notIlike'],
    parse: str,
    widget: 'json',
  },
  file: {
    // an https url, a stored file's key or a path on this site (engine/links.ts): no other scheme, no other site
    jsonSchema: () => ({ type: 'string', pattern: SAFE_FILE_PATTERN }),
    column: (f) => `text(${col(f)})`,
    imports: { sqlite: ['text'], pg: ['text'] },
    filterMethods: TEXT,
    parse: str,
    widget: 'file',
  },
  reference: {
    jsonSchema: () => ({ type: 'string', format: 'uuid' }),
    column: (f, d) => (d === 'pg' ? `uuid(${col(f)})` : `text(${col(f)})`),
    imports: { sqlite: ['text'], pg: ['uuid'] },
    filterMethods: ['eq', 'ne', 'inArray', 'notInArray'],
    parse: (raw) => uuid(raw),
    widget: 'reference',
  },
} satisfies Record<FieldKind, FieldHandler>;

export function handlerOf(field: Field): FieldHandler {
  return fieldTypes[field.kind];
}

/** the id column is a uuid primary key on every entity */
export const isUuidField = (f: Field) => f.kind === 'reference' || f.format === 'uuid';
export { UUID_RE };
/** the same id as a JSON Schema pattern, for request bodies that name rows */
export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
export const UUID_RULE = 'must be a UUID';
