import type { Dialect } from '../fields/index.js';
import type { ColumnState } from './state.js';

/**
 * How a column's values change kind: the SQL expression that converts an old (non-null) value, per dialect, and
 * the condition under which an old value does not convert. A migration first counts the rows that do not
 * convert (a guard: it refuses, naming how many and one example, and changes nothing) and then converts with the
 * explicit expression, so that SQLite never keeps a string in an INTEGER column and PostgreSQL always has its
 * USING. Conversions that could lose data (another language of a map, the time of a date-time) count as
 * failing for the rows where they would; conversions that make no sense are refused by codegen.
 */

/** how a kind is stored: several kinds share a storage */
export type Storage = 'text' | 'uuid' | 'integer' | 'number' | 'boolean' | 'datetime' | 'date' | 'localized' | 'json';

export function storageOf(c: Pick<ColumnState, 'kind' | 'uuid'>): Storage {
  switch (c.kind) {
    case 'reference':
      return 'uuid';
    case 'text':
      return c.uuid ? 'uuid' : 'text';
    case 'enum':
    case 'file':
      return 'text';
    default:
      return c.kind;
  }
}

type Sql = (c: string) => string;
export interface PerDialect {
  sqlite: Sql;
  pg: Sql;
}

export interface Conversion {
  /** the new value from the old one */
  to: PerDialect;
  /** true for an old value that does not convert; absent when every value converts */
  fails?: PerDialect;
  /** what a failing value is, for the guard's message: "does not convert to integer" */
  failure: string;
  /** PostgreSQL guards that call pg_temp.mp_castable */
  castable?: boolean;
  /** true for an old (non-null) value that converts to no value (null): a required column needs a fill for it */
  empty?: PerDialect;
  /** what rows holding such a value do, for the guard's message: "hold no text in en" */
  emptiness?: string;
}

export type ConversionResult = Conversion | { refuse: string };

const same: PerDialect = { sqlite: (c) => c, pg: (c) => c };
const both = (f: Sql): PerDialect => ({ sqlite: f, pg: f });
export const isIdentity = (d: Dialect, conv: Conversion) => conv.to[d]('"x"') === '"x"';

const INT_MIN = -2147483648;
const INT_MAX = 2147483647;
const PG_INTEGER = `'^-?(0|[1-9][0-9]*)$'`;
const PG_NUMBER = `'^-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?$'`;
const PG_UUID = `'^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'`;
const SQLITE_UUID = `'${['8', '4', '4', '4', '12'].map((n) => '[0-9a-f]'.repeat(Number(n))).join('-')}'`;
const PG_DATETIME = `'^[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]{1,6})?)?)?(Z|[+-][0-9]{2}:[0-9]{2})?$'`;
const PG_ZONED = `'(Z|[+-][0-9]{2}:[0-9]{2})$'`;
const sqliteMs = (c: string) => `CAST(round((julianday(${c}) - 2440587.5) * 86400000) AS INTEGER)`;

/**
 * A text read as another kind (a number, a boolean, a date, a uuid) is read without the whitespace around it, the
 * same on both databases: spaces, tabs, line feeds, vertical tabs, form feeds and carriage returns (ASCII
 * whitespace; other characters, a no-break space included, are part of the value). Both `trim()`s remove spaces
 * only, and SQLite's JSON and CAST skip more on their own, so each dialect names the characters.
 */
const WHITESPACE = [32, 9, 10, 11, 12, 13];
const trimmedSqlite = (c: string) => `trim(${c}, char(${WHITESPACE.join(', ')}))`;
const trimmedPg = (c: string) => `btrim(${c}, E'${WHITESPACE.map((n) => `\\x${n.toString(16).padStart(2, '0')}`).join('')}')`;

export const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** the text a value of a storage reads as: what a text (or enum) field gets from it */
function asText(from: Storage, language: string): Conversion | undefined {
  const failure = 'does not convert to text';
  switch (from) {
    case 'text':
      return { to: same, failure };
    case 'uuid':
    case 'integer':
    case 'json':
      return { to: { sqlite: from === 'integer' ? (c) => `CAST(${c} AS TEXT)` : (c) => c, pg: (c) => `${c}::text` }, failure };
    case 'number':
      return {
        to: {
          sqlite: (c) => `CASE WHEN ${c} = CAST(${c} AS INTEGER) AND abs(${c}) < 1e15 THEN CAST(CAST(${c} AS INTEGER) AS TEXT) ELSE CAST(${c} AS TEXT) END`,
          pg: (c) => `${c}::text`,
        },
        failure,
      };
    case 'boolean':
      return { to: both((c) => `CASE WHEN ${c} THEN 'true' ELSE 'false' END`), failure };
    case 'datetime':
      return {
        to: {
          sqlite: (c) => `strftime('%Y-%m-%dT%H:%M:%fZ', ${c} / 1000.0, 'unixepoch')`,
          pg: (c) => `to_char(${c} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
        },
        failure,
      };
    case 'date':
      return { to: { sqlite: (c) => c, pg: (c) => `to_char(${c}, 'YYYY-MM-DD')` }, failure };
    case 'localized':
      return {
        to: { sqlite: (c) => `json_extract(${c}, '$.${language}')`, pg: (c) => `(${c} ->> ${quote(language)})` },
        fails: {
          sqlite: (c) => `EXISTS (SELECT 1 FROM json_each(${c}) e WHERE e.key <> ${quote(language)} AND e.value <> '')`,
          pg: (c) => `EXISTS (SELECT 1 FROM jsonb_each_text(${c}) e WHERE e.key <> ${quote(language)} AND e.value <> '')`,
        },
        failure: `holds text in another language than ${language}, which a single text cannot keep`,
        empty: { sqlite: (c) => `json_extract(${c}, '$.${language}') IS NULL`, pg: (c) => `(${c} ->> ${quote(language)}) IS NULL` },
        emptiness: `hold no text in ${language}`,
      };
  }
}

const or = (a: Sql | undefined, b: Sql): Sql => (a ? (c) => `(${a(c)}) OR (${b(c)})` : b);

/**
 * The conversion from one column state to another, or why codegen refuses it.
 * @param targetExists SQL (per dialect) that is true when the converted value names a row of the new target
 */
export function conversion(
  from: ColumnState,
  to: ColumnState,
  opts: { language: string; targetRows?: (dialect: Dialect, value: string) => string },
): ConversionResult | undefined {
  const a = storageOf(from);
  const b = storageOf(to);
  const refuse = (why = '') => ({
    refuse: `changing a ${from.kind} field into a ${to.kind} field is not converted automatically${why}: add a new field, copy the values over, then drop the old one (npm run codegen -- --allow-destructive)`,
  });
  let conv: Conversion | undefined;
  if (a === b) conv = { to: same, failure: '' };
  else if (b === 'text') conv = asText(a, opts.language);
  else if (b === 'integer') {
    if (a === 'text') {
      conv = {
        to: { sqlite: (c) => `CAST(${trimmedSqlite(c)} AS INTEGER)`, pg: (c) => `${trimmedPg(c)}::integer` },
        fails: {
          sqlite: (c) => `CASE WHEN json_valid(${trimmedSqlite(c)}) THEN json_type(${trimmedSqlite(c)}) <> 'integer' OR CAST(${trimmedSqlite(c)} AS INTEGER) NOT BETWEEN ${INT_MIN} AND ${INT_MAX} ELSE 1 END`,
          pg: (c) => `CASE WHEN ${trimmedPg(c)} ~ ${PG_INTEGER} AND length(${trimmedPg(c)}) <= 12 THEN ${trimmedPg(c)}::bigint NOT BETWEEN ${INT_MIN} AND ${INT_MAX} ELSE true END`,
        },
        failure: 'is not a whole number (or is out of the integer range)',
      };
    } else if (a === 'number') {
      conv = {
        to: { sqlite: (c) => `CAST(${c} AS INTEGER)`, pg: (c) => `${c}::integer` },
        fails: {
          sqlite: (c) => `${c} <> CAST(${c} AS INTEGER) OR ${c} NOT BETWEEN ${INT_MIN} AND ${INT_MAX}`,
          pg: (c) => `${c} <> trunc(${c}) OR ${c} NOT BETWEEN ${INT_MIN} AND ${INT_MAX}`,
        },
        failure: 'has a fraction (or is out of the integer range)',
      };
    } else if (a === 'boolean') {
      conv = { to: { sqlite: (c) => c, pg: (c) => `CASE WHEN ${c} THEN 1 ELSE 0 END` }, failure: '' };
    } else return refuse();
  } else if (b === 'number') {
    if (a === 'integer') conv = { to: { sqlite: (c) => `CAST(${c} AS REAL)`, pg: (c) => `${c}::double precision` }, failure: '' };
    else if (a === 'boolean') conv = { to: { sqlite: (c) => `CAST(${c} AS REAL)`, pg: (c) => `(CASE WHEN ${c} THEN 1 ELSE 0 END)::double precision` }, failure: '' };
    else if (a === 'text') {
      conv = {
        to: { sqlite: (c) => `CAST(${trimmedSqlite(c)} AS REAL)`, pg: (c) => `${trimmedPg(c)}::double precision` },
        fails: {
          sqlite: (c) => `CASE WHEN json_valid(${trimmedSqlite(c)}) THEN json_type(${trimmedSqlite(c)}) NOT IN ('integer', 'real') OR abs(CAST(${trimmedSqlite(c)} AS REAL)) > 1e308 ELSE 1 END`,
          pg: (c) => `CASE WHEN ${trimmedPg(c)} ~ ${PG_NUMBER} THEN abs(${trimmedPg(c)}::numeric) > 1e308 ELSE true END`,
        },
        failure: 'is not a number',
      };
    } else return refuse();
  } else if (b === 'boolean') {
    if (a === 'integer' || a === 'number') {
      conv = {
        to: { sqlite: (c) => (a === 'integer' ? c : `CAST(${c} AS INTEGER)`), pg: (c) => `${c} <> 0` },
        fails: both((c) => `${c} NOT IN (0, 1)`),
        failure: 'is neither 0 nor 1',
      };
    } else if (a === 'text') {
      conv = {
        to: { sqlite: (c) => `CASE WHEN lower(${trimmedSqlite(c)}) IN ('true', '1') THEN 1 ELSE 0 END`, pg: (c) => `lower(${trimmedPg(c)}) IN ('true', '1')` },
        fails: { sqlite: (c) => `lower(${trimmedSqlite(c)}) NOT IN ('true', 'false', '1', '0')`, pg: (c) => `lower(${trimmedPg(c)}) NOT IN ('true', 'false', '1', '0')` },
        failure: "is none of true, false, 1, 0",
      };
    } else return refuse();
  } else if (b === 'datetime') {
    if (a === 'text') {
      conv = {
        to: {
          sqlite: (c) => sqliteMs(trimmedSqlite(c)),
          pg: (c) => `CASE WHEN ${trimmedPg(c)} ~ ${PG_ZONED} THEN ${trimmedPg(c)}::timestamptz ELSE ${trimmedPg(c)}::timestamp AT TIME ZONE 'UTC' END`,
        },
        fails: {
          sqlite: (c) => `CASE WHEN ${trimmedSqlite(c)} GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' THEN julianday(${trimmedSqlite(c)}) IS NULL OR date(${trimmedSqlite(c)}) IS NOT substr(${trimmedSqlite(c)}, 1, 10) ELSE 1 END`,
          pg: (c) => `CASE WHEN ${trimmedPg(c)} ~ ${PG_DATETIME} THEN NOT pg_temp.mp_castable(${trimmedPg(c)}, 'timestamptz') ELSE true END`,
        },
        failure: 'is not a date-time (YYYY-MM-DDTHH:MM:SS, optionally with Z or an offset)',
        castable: true,
      };
    } else if (a === 'date') {
      conv = { to: { sqlite: (c) => sqliteMs(c), pg: (c) => `${c}::timestamp AT TIME ZONE 'UTC'` }, failure: '' };
    } else return refuse();
  } else if (b === 'date') {
    if (a === 'text') {
      conv = {
        to: { sqlite: trimmedSqlite, pg: (c) => `${trimmedPg(c)}::date` },
        fails: {
          sqlite: (c) => `date(${trimmedSqlite(c)}) IS NOT ${trimmedSqlite(c)}`,
          pg: (c) => `CASE WHEN ${trimmedPg(c)} ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' THEN NOT pg_temp.mp_castable(${trimmedPg(c)}, 'date') ELSE true END`,
        },
        failure: 'is not a date (YYYY-MM-DD)',
        castable: true,
      };
    } else if (a === 'datetime') {
      conv = {
        to: { sqlite: (c) => `date(${c} / 1000, 'unixepoch')`, pg: (c) => `(${c} AT TIME ZONE 'UTC')::date` },
        fails: { sqlite: (c) => `${c} % 86400000 <> 0`, pg: (c) => `(${c} AT TIME ZONE 'UTC')::time <> '00:00'` },
        failure: 'has a time of day (UTC), which a date cannot keep',
      };
    } else return refuse();
  } else if (b === 'localized') {
    if (a === 'text') conv = { to: { sqlite: (c) => `json_object(${quote(opts.language)}, ${c})`, pg: (c) => `jsonb_build_object(${quote(opts.language)}, ${c})` }, failure: '' };
    else return refuse();
  } else if (b === 'json') {
    if (a === 'localized') conv = { to: same, failure: '' };
    else return refuse(' (a text could be JSON or just text)');
  } else if (b === 'uuid') {
    if (a === 'text') {
      conv = {
        to: { sqlite: (c) => `lower(${trimmedSqlite(c)})`, pg: (c) => `lower(${trimmedPg(c)})::uuid` },
        fails: {
          sqlite: (c) => `length(${trimmedSqlite(c)}) <> 36 OR lower(${trimmedSqlite(c)}) NOT GLOB ${SQLITE_UUID}`,
          pg: (c) => `NOT (${trimmedPg(c)} ~ ${PG_UUID})`,
        },
        failure: 'is not a UUID',
      };
    } else return refuse();
  }
  if (!conv) return refuse();

  // narrower enum values, or a text becoming an enum: every value must be one of the values
  if (to.kind === 'enum' && (from.kind !== 'enum' || (from.values ?? []).some((v) => !to.values!.includes(v)))) {
    const list = to.values!.map(quote).join(', ');
    const base = conv;
    const notListed: PerDialect = { sqlite: (c) => `${base.to.sqlite(c)} NOT IN (${list})`, pg: (c) => `${base.to.pg(c)} NOT IN (${list})` };
    conv = {
      ...base,
      fails: base.fails ? { sqlite: or(base.fails.sqlite, notListed.sqlite), pg: (c) => `CASE WHEN ${base.fails!.pg(c)} THEN true ELSE ${notListed.pg(c)} END` } : notListed,
      failure: `is not one of ${to.values!.join(', ')}`,
    };
  }
  // a reference (new, or to another entity): every value must name a row of the target
  if (to.kind === 'reference' && opts.targetRows && (from.kind !== 'reference' || from.target !== to.target)) {
    const base = conv;
    const rows = opts.targetRows;
    const missing: PerDialect = { sqlite: (c) => `NOT (${rows('sqlite', base.to.sqlite(c))})`, pg: (c) => `NOT (${rows('pg', base.to.pg(c))})` };
    conv = {
      ...base,
      fails: base.fails
        ? { sqlite: (c) => `CASE WHEN ${base.fails!.sqlite(c)} THEN 1 ELSE ${missing.sqlite(c)} END`, pg: (c) => `CASE WHEN ${base.fails!.pg(c)} THEN true ELSE ${missing.pg(c)} END` }
        : missing,
      failure: `is not the id of a row of ${to.target}`,
    };
  }
  return conv;
}

/**
 * A stored value of a storage as readable text, the same on both databases, for a guard's message: a date-time as
 * ISO 8601 in UTC (SQLite keeps milliseconds, PostgreSQL's own text follows the session's time zone), a boolean as
 * true or false, anything else as the database's text of it.
 */
export function shown(d: Dialect, storage: Storage, x: string): string {
  switch (storage) {
    case 'datetime':
      return d === 'pg' ? `to_char(${x} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')` : `strftime('%Y-%m-%dT%H:%M:%fZ', ${x} / 1000.0, 'unixepoch')`;
    case 'boolean':
      return `CASE WHEN ${x} THEN 'true' ELSE 'false' END`;
    default:
      return d === 'pg' ? `${x}::text` : `CAST(${x} AS TEXT)`;
  }
}

/** a value as an SQL literal of a kind, for a default or a backfill */
export function literal(value: unknown, c: Pick<ColumnState, 'kind'>, dialect: Dialect): string {
  if (value === null || value === undefined) return 'NULL';
  switch (c.kind) {
    case 'integer':
    case 'number':
      return String(Number(value));
    case 'boolean':
      return dialect === 'pg' ? (value ? 'true' : 'false') : value ? '1' : '0';
    case 'datetime':
      return dialect === 'pg' ? quote(String(value)) : String(Date.parse(String(value)));
    case 'localized':
    case 'json':
      return dialect === 'pg' ? `${quote(JSON.stringify(value))}::jsonb` : quote(JSON.stringify(value));
    default:
      return quote(String(value));
  }
}

/** the PostgreSQL helper the guards of conversions to dates call: whether a text casts to a type */
export const PG_CASTABLE = [
  `CREATE OR REPLACE FUNCTION pg_temp.mp_castable(v text, t text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('SELECT %L::%s', v, t);
  RETURN true;
EXCEPTION WHEN others THEN
  RETURN false;
END $$;`,
  'DROP FUNCTION pg_temp.mp_castable(text, text);',
];
