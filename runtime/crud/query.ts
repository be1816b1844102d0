import qs from 'qs';
import {
  and, or, asc, desc, eq, ne, gt, gte, lt, lte, inArray, notInArray, isNull, isNotNull, sql, type SQL,
} from 'drizzle-orm';
import type { Entity, Field, Model } from '../../engine/model.js';
import { DATE_RULE, DATETIME_RULE, fieldTypes, isUuidField, type Dialect } from '../../engine/fields/index.js';
import { badRequest, type Cause } from '../http/errors.js';
import { integerParam, parameterError } from '../http/query-params.js';
import type { Drizzle } from '../db/index.js';
import { SQLITE_LOWER } from '../db/sqlite.js';

/** a list without a limit gets every row up to the maximum, and X-Total-Count says how many match in all */
export const DEFAULT_LIMIT = 1000;
export const MIN_LIMIT = 1;
export const MAX_LIMIT = 1000;

export const FILTER_METHODS = [
  'eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'like', 'ilike', 'notLike', 'notIlike', 'inArray', 'notInArray', 'isNull', 'isNotNull',
] as const;
type Method = (typeof FILTER_METHODS)[number];
const NO_VALUE: readonly string[] = ['isNull', 'isNotNull'];
const LIST: readonly string[] = ['inArray', 'notInArray'];

export interface ListQuery {
  where?: SQL;
  orderBy: SQL[];
  limit: number;
  offset: number;
}

interface Condition {
  column?: unknown;
  method?: unknown;
  value?: unknown;
}

/** whether the caller may read a field; a field it may not read cannot be filtered or ordered on either */
export type CanRead = (field: Field) => boolean;

/** a 400 whose one cause names the query parameter and the rule it breaks */
const refuse = (field: string, rule: string, message: string) => badRequest(message, [{ field, rule, message }]);

/** the columns a query may name: every field that is not secret (and that the caller may read), and `<localized>.<language>` */
function resolveColumn(entity: Entity, model: Model, raw: unknown, where: string, canRead?: CanRead): { field: Field; language?: string } {
  if (typeof raw !== 'string' || !raw) throw badRequest(`${where} is required`, [{ message: `${where} is required`, field: where, rule: 'required' }]);
  const [name, language, ...rest] = raw.split('.');
  const field = entity.fields.find((f) => f.name === name);
  // secret fields, and fields the caller may not read, answer exactly like fields that do not exist: this is
  // the one check every method passes (a filter on a field one may not read would reveal it letter by letter)
  if (!field || field.secret || (canRead && !canRead(field)) || rest.length || (language !== undefined && field.kind !== 'localized')) {
    const allowed = entity.fields.filter((f) => !f.secret && (!canRead || canRead(f))).map((f) => f.name).join(', ');
    throw badRequest(`Unknown column '${raw}' in ${where}; columns of ${entity.id}: ${allowed}`, [
      { message: `unknown column '${raw}'`, field: where, rule: 'column' },
    ]);
  }
  // only the configured languages, spelled exactly: any other code is refused, never read as a missing key
  if (language !== undefined && !model.languages.includes(language)) {
    throw badRequest(`Unknown language '${language}' in ${where}; languages: ${model.languages.join(', ')}`, [
      { message: `unknown language '${language}'`, field: where, rule: 'language' },
    ]);
  }
  return { field, language };
}

/** the SQL expression a column name stands for; languages are bound parameters, never spliced */
function columnExpr(table: Drizzle, field: Field, language: string | undefined, dialect: Dialect): SQL | Drizzle {
  const col = table[field.name];
  if (language !== undefined) return dialect === 'pg' ? sql`(${col} ->> ${language})` : sql`json_extract(${col}, ${'$.' + language})`;
  // as SQL, not as the column (isNull / isNotNull and order on a whole map or JSON document)
  if (field.kind === 'localized' || field.kind === 'json') return dialect === 'pg' ? sql`(${col}::text)` : sql`${col}`;
  return col;
}

const CONTAINS: readonly string[] = ['like', 'ilike', 'notLike', 'notIlike'];

/**
 * Lower case for ilike: PostgreSQL's lower(); on SQLite, whose lower() and LIKE fold ASCII only, the Unicode
 * fold registered on each of its connections (runtime/db/sqlite.ts), so `ilike 'ШАБЛОН'` matches alike on both
 */
const lowerOf = (dialect: Dialect, x: unknown): SQL => (dialect === 'pg' ? sql`lower(${x})` : sql`${sql.raw(SQLITE_LOWER)}(${x})`);

/**
 * a whole language map or JSON document: each database writes its own text for it (`{"en":"a"}` on SQLite,
 * `{"en": "a"}` on PostgreSQL), so it is never searched as text; one language of a map is (`title.en`)
 */
const isDocument = (field: Field, language: string | undefined) => language === undefined && (field.kind === 'localized' || field.kind === 'json');

/**
 * the methods a column takes, in FILTER_METHODS' order: its kind's (one language of a map takes text's; a whole
 * map or JSON document none, see isDocument), the like family on an id or reference (searched as text), and
 * isNull / isNotNull on every column; the list the filters are checked against and the one the OpenAPI document gives
 */
export function filterMethodsOf(field: Field, language?: string): Method[] {
  const own: readonly string[] = language !== undefined ? fieldTypes.text.filterMethods : isDocument(field, language) ? [] : fieldTypes[field.kind].filterMethods;
  const asText = language === undefined && isUuidField(field);
  return FILTER_METHODS.filter((m) => NO_VALUE.includes(m) || own.includes(m) || (asText && CONTAINS.includes(m)));
}

/** the bound pattern of a contains search: the value with \, % and _ escaped, between two % */
const contains = (value: unknown) => `%${String(value).replace(/[\\%_]/g, (ch) => '\\' + ch)}%`;

function condition(entity: Entity, model: Model, table: Drizzle, dialect: Dialect, c: Condition, where: string, canRead?: CanRead): SQL {
  if (!c || typeof c !== 'object') throw refuse(where, 'type', `${where} must be an object with column, method and value`);
  const { field, language } = resolveColumn(entity, model, c.column, `${where}[column]`, canRead);
  const method = c.method as Method;
  // an id (or a reference) may be searched as text with like/ilike: the admin finds rows by an id prefix
  const asText = language === undefined && isUuidField(field) && CONTAINS.includes(method);
  if (typeof method !== 'string' || !(FILTER_METHODS as readonly string[]).includes(method)) {
    throw badRequest(`Unknown method '${String(c.method)}' in ${where}[method]; methods: ${FILTER_METHODS.join(', ')}`, [
      { message: `unknown method '${String(c.method)}'`, field: `${where}[method]`, rule: 'method' },
    ]);
  }
  const methods = filterMethodsOf(field, language);
  if (!methods.includes(method)) {
    if (field.kind === 'localized' && language === undefined) {
      const example = `${field.name}.${model.defaultLanguage}`;
      throw badRequest(
        `Column '${field.name}' in ${where}[column] is a language map: filter one language, as '${example}' (languages: ${model.languages.join(', ')}); a whole map takes only isNull and isNotNull`,
        [{ message: `filter one language of '${field.name}', as '${example}'`, field: `${where}[column]`, rule: 'language' }],
      );
    }
    throw refuse(`${where}[method]`, 'method', `Method '${method}' does not apply to ${field.kind} column '${c.column}' in ${where}[method]; use one of: ${methods.join(', ')}`);
  }
  const expr = asText ? (dialect === 'pg' ? sql`(${table[field.name]}::text)` : table[field.name]) : columnExpr(table, field, language, dialect);
  if (method === 'isNull') return isNull(expr);
  if (method === 'isNotNull') return isNotNull(expr);
  const parseOne = (v: unknown, at: string) => {
    try {
      return language !== undefined || asText ? fieldTypes.text.parse(v, { ...field, kind: 'text', format: undefined }) : fieldTypes[field.kind].parse(v, field);
    } catch (rule) {
      // a text that is no date is the same rule a write breaks (ajv's `format`, runtime/crud/validate.ts)
      const cause: Cause = { message: `${at} ${rule}`, field: at, rule: rule === DATE_RULE || rule === DATETIME_RULE ? 'format' : 'type' };
      throw badRequest(`${at} ${rule} (column '${c.column}' is ${field.kind})`, [cause]);
    }
  };
  if (c.value === undefined) throw badRequest(`${where}[value] is required for method ${method}`, [{ message: `${where}[value] is required`, field: `${where}[value]`, rule: 'required' }]);
  if (LIST.includes(method)) {
    // `value=` (present and empty) is the empty list; a missing value is the 400 above, never "no filter"
    const values = c.value === '' ? [] : Array.isArray(c.value) ? c.value : typeof c.value === 'object' ? Object.values(c.value as object) : [c.value];
    const parsed = values.map((v, i) => parseOne(v, `${where}[value][${i}]`));
    // an empty list matches nothing (inArray) or everything (notInArray): never "no filter" by accident
    if (!parsed.length) return method === 'inArray' ? sql`1 = 0` : sql`1 = 1`;
    return method === 'inArray' ? inArray(expr, parsed) : notInArray(expr, parsed);
  }
  const value = parseOne(c.value, `${where}[value]`);
  switch (method) {
    case 'eq': return eq(expr, value);
    case 'ne': return ne(expr, value);
    case 'gt': return gt(expr, value);
    case 'gte': return gte(expr, value);
    case 'lt': return lt(expr, value);
    case 'lte': return lte(expr, value);
    // the like family means "contains" (spec clients send the bare term): % and _ in the value match themselves
    case 'like': return sql`${expr} like ${contains(value)} escape '\\'`;
    case 'notLike': return sql`${expr} not like ${contains(value)} escape '\\'`;
    case 'ilike': return sql`${lowerOf(dialect, expr)} like ${lowerOf(dialect, contains(value))} escape '\\'`;
    case 'notIlike': return sql`${lowerOf(dialect, expr)} not like ${lowerOf(dialect, contains(value))} escape '\\'`;
  }
  throw badRequest(`Unknown method '${method}'`);
}

function group(value: unknown, where: string): Condition[] {
  if (value === undefined) return [];
  if (Array.isArray(value)) return value;
  if (value && typeof value === 'object') return Object.values(value); // qs turns long arrays into objects
  throw refuse(where, 'type', `${where} must be a list of conditions`);
}

/** `filters[and][i]` and `filters[or][i]` → one WHERE; every value is a bound parameter */
export function whereOf(entity: Entity, model: Model, table: Drizzle, dialect: Dialect, filters: unknown, canRead?: CanRead): SQL | undefined {
  if (filters === undefined || filters === '') return undefined;
  if (typeof filters !== 'object' || filters === null) throw refuse('filters', 'type', 'filters must be filters[and][i][column|method|value] or filters[or][…]');
  const f = filters as Record<string, unknown>;
  for (const key of Object.keys(f)) if (key !== 'and' && key !== 'or') throw refuse(`filters[${key}]`, 'unknown', `Unknown filter group 'filters[${key}]'; use filters[and] or filters[or]`);
  const all = group(f.and, 'filters[and]').map((c, i) => condition(entity, model, table, dialect, c, `filters[and][${i}]`, canRead));
  const any = group(f.or, 'filters[or]').map((c, i) => condition(entity, model, table, dialect, c, `filters[or][${i}]`, canRead));
  const parts = [...all, ...(any.length ? [or(...any)!] : [])];
  return parts.length ? and(...parts) : undefined;
}

function orderOf(entity: Entity, model: Model, table: Drizzle, dialect: Dialect, orderBy: unknown, canRead?: CanRead): SQL[] {
  const out: SQL[] = [];
  if (orderBy !== undefined && orderBy !== '') {
    if (typeof orderBy !== 'object' || orderBy === null) throw refuse('orderBy', 'type', 'orderBy must be orderBy[and][i][column|method]');
    for (const key of Object.keys(orderBy)) if (key !== 'and') throw refuse(`orderBy[${key}]`, 'unknown', `Unknown order group 'orderBy[${key}]'; use orderBy[and]`);
    group((orderBy as Record<string, unknown>).and, 'orderBy[and]').forEach((o, i) => {
      const where = `orderBy[and][${i}]`;
      const { field, language } = resolveColumn(entity, model, o?.column, `${where}[column]`, canRead);
      const method = o.method ?? 'asc';
      if (method !== 'asc' && method !== 'desc') throw badRequest(`Unknown method '${String(method)}' in ${where}[method]; methods: asc, desc`, [{ message: `unknown method '${String(method)}'`, field: `${where}[method]`, rule: 'method' }]);
      // a whole map or JSON value orders by each database's own JSON text: one language of a map, as a filter takes
      if (language === undefined && (field.kind === 'localized' || field.kind === 'json')) {
        const example = field.kind === 'localized' ? `${field.name}.${model.defaultLanguage}` : undefined;
        throw badRequest(
          example ? `Column '${field.name}' in ${where}[column] is a language map: order by one language, as '${example}'` : `Column '${field.name}' in ${where}[column] is JSON: it cannot be ordered by`,
          [{ message: example ? `order by one language of '${field.name}', as '${example}'` : `'${field.name}' cannot be ordered by`, field: `${where}[column]`, rule: example ? 'language' : 'column' }],
        );
      }
      const expr = columnExpr(table, field, language, dialect);
      // NULLs after every value ascending and before them descending, on both databases (PostgreSQL's own
      // default, so its plans are unchanged; SQLite's is the reverse): written out for a column that can be null
      const nullable = language !== undefined || !(table[field.name] as { notNull?: boolean }).notNull;
      if (!nullable) out.push(method === 'desc' ? desc(expr) : asc(expr));
      else out.push(method === 'desc' ? sql`${expr} desc nulls first` : sql`${expr} asc nulls last`);
    });
  }
  if (!out.length) {
    if (entity.relation) out.push(asc(table.orderIndex));
    out.push(asc(table.createdAt));
  }
  out.push(asc(table.id)); // a total order, so that pages never overlap
  return out;
}

function intParam(raw: unknown, name: string, min: number, max: number, fallback: number) {
  const n = integerParam(raw, name, min, max, fallback);
  if (typeof n !== 'number') throw parameterError([n]);
  return n;
}

/** the most parameters a query string may have: past it the request is refused, never read in part */
export const MAX_QUERY_PARAMETERS = 2000;

export function parseQueryString(search: string): Record<string, unknown> {
  try {
    return qs.parse(search.replace(/^\?/, ''), { depth: 5, arrayLimit: MAX_LIMIT, parameterLimit: MAX_QUERY_PARAMETERS, throwOnLimitExceeded: true, allowDots: false });
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    const message = `The query string has more than ${MAX_QUERY_PARAMETERS} parameters`;
    throw badRequest(message, [{ field: 'query', rule: 'maxItems', message }]);
  }
}

/** the parameters of a list (and of its count, which takes the same query string and reads only filters) */
export const LIST_PARAMETERS = ['filters', 'orderBy', 'limit', 'offset'] as const;

/** refuses a parameter a list does not take (a misspelt `filter` or `orderby` would otherwise be ignored) */
export function checkListParameters(query: Record<string, unknown>): void {
  for (const name in query) {
    if ((LIST_PARAMETERS as readonly string[]).includes(name)) continue;
    const message = `Unknown query parameter '${name.slice(0, 100)}'; a list takes ${LIST_PARAMETERS.join(', ')}`;
    throw badRequest(message, [{ field: name.slice(0, 100), rule: 'unknown', message }]);
  }
}

/** the list query of spec §7 in deep-object form: filters, orderBy, limit, offset */
export function parseListQuery(entity: Entity, model: Model, table: Drizzle, dialect: Dialect, query: Record<string, unknown>, canRead?: CanRead): ListQuery {
  checkListParameters(query);
  return {
    where: whereOf(entity, model, table, dialect, query.filters, canRead),
    orderBy: orderOf(entity, model, table, dialect, query.orderBy, canRead),
    limit: intParam(query.limit, 'limit', MIN_LIMIT, MAX_LIMIT, DEFAULT_LIMIT),
    offset: intParam(query.offset, 'offset', 0, Number.MAX_SAFE_INTEGER, 0),
  };
}
