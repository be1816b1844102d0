import { randomUUID } from 'node:crypto';
import { and, asc, Column, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Entity, Field, Model } from '../../engine/model.js';
import { SERVER_FIELDS } from '../../engine/json-schema.js';
import type { Database, Drizzle } from '../db/index.js';
import { HttpError, badRequest, fromDatabaseError, notFound, type Cause } from '../http/errors.js';
import type { ListQuery } from './query.js';
import { randomWords } from './words.js';
import { isoDate, isoDateOfTime } from './iso-date.js';
import { Hooks } from './hooks.js';
import { Policy } from './policy.js';
import type { Caller } from '../http/access.js';

type Row = Record<string, unknown>;

export interface WriteOptions {
  /** who asked (generic API writes); hooks see it */
  caller?: Caller;
  /** link a new row to this subject through the entity's owner relation to rbac/subject (a subject creating its own row) */
  linkTo?: string;
}

/** a list query built once (SQLite): the page's SQL, the total's SQL with its cache key, and the page bounds */
export interface CompiledList {
  rows: { sql: string; params: unknown[] };
  count: { sql: string; params: unknown[]; key: string };
  limit: number;
  offset: number;
}

let lastNow = 0;
/** strictly increasing within a process, so that rows made in one bulk keep their order by createdAt */
function now(): Date {
  lastNow = Math.max(Date.now(), lastNow + 1);
  return new Date(lastNow);
}
/** how many distinct counts (filter and caller combinations) are kept between two commits */
const COUNTS_KEPT = 1000;

/**
 * Which of a relation's rows `readLinked` reads: the first `first` of each near row (in relation order), or, for one
 * near row, `limit` rows from `offset`
 */
export type LinkWindow = { first: number } | { offset: number; limit: number };
const isBlank = (v: unknown) => v === undefined || v === null || v === '';
/** kinds a find-or-create may match on: plain values, never secrets or whole JSON documents */
const MATCHABLE = new Set(['text', 'enum', 'integer', 'number', 'boolean', 'date', 'datetime', 'file', 'reference']);

/** a property name a compiled row maker may write as it is: a plain identifier (every manifest field name is one) */
const PLAIN_NAME = /^[A-Za-z_$][\w$]*$/;

/**
 * The maker of one shape's rows from driver values: `(values) => ({ id: …, title: JSON.parse(…), … })`, compiled once
 * per shape so that every row is an object literal of one hidden class (V8 stores its properties at fixed offsets),
 * and a column whose driver value is the value (text, integers) is copied without a call. Nulls stay null. Names are
 * the manifest's field names, written as JSON strings; a name that is not a plain identifier (none is, by the
 * manifest's rules: camelCase) gets a plain loop instead. `from`: where the shape's columns start in the values (a
 * joined read's second table, `readLinked`).
 */
export function rowMaker(columns: [string, Drizzle][], from = 0, datesAsText = false): (values: unknown[]) => Row {
  const names = columns.map(([name]) => name);
  const at = (i: number) => from + i;
  const decoders = columns.map(([, col]) => (datesAsText && col.dataType === 'date' ? dateText(col) : col.mapFromDriverValue === Column.prototype.mapFromDriverValue ? undefined : (v: unknown) => col.mapFromDriverValue(v)));
  if (!names.every((n) => PLAIN_NAME.test(n) && n !== '__proto__')) {
    return (values) => {
      const row: Row = {};
      // defined, not assigned: a '__proto__' here is a property like any other, never the row's prototype
      for (let i = 0; i < names.length; i++) {
        const v = values[at(i)];
        Object.defineProperty(row, names[i], { value: v === null ? null : decoders[i] ? decoders[i]!(v) : v, enumerable: true, writable: true, configurable: true });
      }
      return row;
    };
  }
  const props = names.map((n, i) => `${JSON.stringify(n)}: v[${at(i)}] === null ? null : ${decoders[i] ? `d[${i}](v[${at(i)}])` : `v[${at(i)}]`}`);
  const make = new Function('d', `return (v) => ({ ${props.join(', ')} });`) as (d: typeof decoders) => (values: unknown[]) => Row;
  return make(decoders);
}

/**
 * A date column's decoding straight to the text JSON gives its Date (`isoDate`): SQLite's time values in milliseconds
 * (drizzle's timestamp_ms, every date-time here) without a Date in between; any other through the column's own Date.
 */
function dateText(col: Drizzle): (v: unknown) => unknown {
  if (col.columnType === 'SQLiteTimestamp' && col.mode === 'timestamp_ms') return (v) => (typeof v === 'number' ? isoDateOfTime(v) : isoDate(col.mapFromDriverValue(v)));
  return (v) => {
    const d = col.mapFromDriverValue(v);
    return d instanceof Date ? isoDate(d) : d;
  };
}

/**
 * An error about one row of a bulk, its causes' fields named within the row's place (`data[1].number`), as
 * validation and the database's errors name them; a hook names only the field, not knowing the row's place.
 */
function within(e: HttpError, prefix: string): HttpError {
  if (!e.causes?.some((c) => c.field && !c.field.startsWith(prefix))) return e;
  const causes = e.causes.map((c) => (c.field && !c.field.startsWith(prefix) ? { ...c, field: `${prefix}.${c.field}` } : c));
  return new HttpError(e.status, e.message, causes, e.headers);
}

/**
 * Generic data access for every entity, shared by the CRUD routes and by plugins.
 * Secret fields are never selected or returned.
 */
export class Repository {
  private columnsCache = new Map<string, Record<string, Drizzle>>();
  private publicColumnsCache = new Map<string, Record<string, Drizzle>>();
  private byIdCache = new Map<string, { db: Drizzle; query: Drizzle }>();
  /** SQLite: the text of each entity's select by id, and how to decode the columns it selects */
  private byIdText = new Map<string, string>();
  /** the fields of each entity whose column reads as a Date (datesAsText) */
  private dateFields = new Map<string, string[]>();
  private inTexts = new Map<string, string>();
  /** SQLite: readLinked's SQL text and row makers, by shape */
  private countTexts = new Map<string, string>();
  private joined = new Map<string, { text: string; link: (values: unknown[]) => Row; end: (values: unknown[]) => Row; endId: number }>();
  private someColumnsCache = new Map<string, Record<string, Drizzle>>();
  private shapes = new Map<string, (values: unknown[]) => Row>();
  /** counts kept while the database's data version stays the same (see count) */
  private counts: { version: number; byKey: Map<string, number> } = { version: -1, byKey: new Map() };
  /** PostgreSQL: counts by SQL and parameters, each with the snapshot it was counted in (pgCount) */
  private pgCounts = new Map<string, { n: number; snapshot: string }>();
  /** every plugin's entity hooks; every write below runs them */
  readonly hooks: Hooks;

  constructor(
    readonly database: Database,
    readonly model: Model,
  ) {
    this.hooks = new Hooks(database);
  }

  /** one transaction; its afterCommit hooks run once it is committed */
  transaction<T>(fn: (tx: Drizzle) => Promise<T>): Promise<T> {
    return this.database.transaction(fn);
  }

  table(entity: Entity): Drizzle {
    return this.database.tables[entity.id];
  }

  /** the columns a response may carry: every field that is not secret */
  columns(entity: Entity): Record<string, Drizzle> {
    let cols = this.columnsCache.get(entity.id);
    if (!cols) {
      const t = this.table(entity);
      cols = Object.fromEntries(entity.fields.filter((f) => !f.secret).map((f) => [f.name, t[f.name]]));
      this.columnsCache.set(entity.id, cols);
    }
    return cols;
  }

  /** the columns everyone may read (no secret, no field whose read access leaves out 'public'): page data and expansions */
  publicColumns(entity: Entity): Record<string, Drizzle> {
    let cols = this.publicColumnsCache.get(entity.id);
    if (!cols) {
      const t = this.table(entity);
      cols = Object.fromEntries(entity.fields.filter(Policy.isPublicField).map((f) => [f.name, t[f.name]]));
      this.publicColumnsCache.set(entity.id, cols);
    }
    return cols;
  }

  private listQuery(entity: Entity, q: ListQuery) {
    return this.database.db.select(this.columns(entity)).from(this.table(entity)).where(q.where)
      .orderBy(...q.orderBy).limit(q.limit).offset(q.offset);
  }

  async list(entity: Entity, q: ListQuery): Promise<Row[]> {
    const compiled = this.database.readRaw ? this.compileList(entity, q) : undefined;
    return compiled ? this.runList(entity, compiled) : this.listQuery(entity, q);
  }

  /**
   * A list query as SQL text and parameters, for its page and for its total, where the database runs raw reads
   * (SQLite's readRaw, PostgreSQL's queryRaw): the CRUD routes keep it per query string and caller, so that a
   * repeated list is neither parsed nor built again. On PostgreSQL the total's query also reads the snapshot
   * (pgCount).
   */
  compileList(entity: Entity, q: ListQuery): CompiledList | undefined {
    if (!this.database.readRaw && !this.database.queryRaw) return undefined;
    const rows = this.listQuery(entity, q).toSQL();
    const total = (
      this.database.dialect === 'pg'
        ? this.database.db.select({ n: count(), snapshot: sql<string>`pg_current_snapshot()::text` })
        : this.database.db.select({ n: count() })
    ).from(this.table(entity)).where(q.where).toSQL();
    return {
      rows: { sql: rows.sql, params: rows.params },
      count: { sql: total.sql, params: total.params, key: `${total.sql}\u0000${JSON.stringify(total.params)}` },
      limit: q.limit,
      offset: q.offset,
    };
  }

  /** the page of a compiled list (`datesAsText`: rows to answer with, as getNow) */
  runList(entity: Entity, compiled: CompiledList, datesAsText = false): Row[] {
    return this.decode(entity, this.database.readRaw!(compiled.rows.sql, compiled.rows.params), false, undefined, datesAsText);
  }

  /** PostgreSQL: the page of a compiled list (queryRaw) */
  async runListRaw(entity: Entity, compiled: CompiledList): Promise<Row[]> {
    return this.decode(entity, await this.database.queryRaw!(compiled.rows.sql, compiled.rows.params));
  }

  /** PostgreSQL: the total of a compiled list, kept with its snapshot like every count there (pgCount) */
  runCountRaw(compiled: CompiledList): Promise<number> {
    const { sql: text, params, key } = compiled.count;
    return this.keptPgCount(key, async () => {
      const [[n, snapshot]] = await this.database.queryRaw!(text, params);
      return { n: Number(n), snapshot: snapshot as string };
    }, async () => ((await this.database.queryRaw!('SELECT pg_current_snapshot()::text', []))[0]?.[0] as string | undefined));
  }

  /** the total of a compiled list (kept until the next commit, like count) */
  runCount(compiled: CompiledList): number {
    const { sql: text, params, key } = compiled.count;
    const version = this.database.dataVersion?.();
    if (version === undefined) return Number(this.database.readRaw!(text, params)[0][0]);
    return this.keptCount(version, key, () => Number(this.database.readRaw!(text, params)[0][0]));
  }

  /** a count kept while nothing is committed: computed by `run` on a miss, stored only if the version held */
  private keptCount(version: number, key: string, run: () => number): number {
    if (version !== this.counts.version) this.counts = { version, byKey: new Map() };
    const kept = this.counts.byKey.get(key);
    if (kept !== undefined) return kept;
    const n = run();
    if (this.database.dataVersion!() === version && this.counts.version === version && this.counts.byKey.size < COUNTS_KEPT) this.counts.byKey.set(key, n);
    return n;
  }

  /**
   * Rows of `columns(entity)` from arrays of driver values (Database.readRaw): each column's own decoding
   * (JSON text, dates, booleans), fixed per entity, instead of drizzle's per-row, per-column type checks. The row of
   * each shape is made by a function compiled once (`rowMaker`).
   */
  private decode(entity: Entity, raw: unknown[][], publicOnly = false, only?: readonly string[], datesAsText = false): Row[] {
    const key = `${datesAsText ? 'text ' : ''}${only ? `public ${entity.id} ${only.join(',')}` : publicOnly ? `public ${entity.id}` : entity.id}`;
    let make = this.shapes.get(key);
    if (!make) {
      make = rowMaker(Object.entries(only ? this.someColumns(entity, only) : publicOnly ? this.publicColumns(entity) : this.columns(entity)), 0, datesAsText);
      this.shapes.set(key, make);
    }
    const rows: Row[] = new Array(raw.length);
    for (let r = 0; r < raw.length; r++) rows[r] = make(raw[r]);
    return rows;
  }

  /**
   * The public columns (`publicColumns`) of the rows whose `field` is one of `values`; with `ordered`, in relation
   * order (orderIndex, createdAt, id). Where the database runs raw reads (SQLite), the SQL text is built once per
   * entity, field and number of values, and rows are decoded per column: the page assembly's expansions run dozens
   * of these per page, and building each with drizzle cost more than running it. Elsewhere, drizzle runs it on `db`.
   * With `only`, just `id` and those fields (`someColumns`).
   */
  async readIn(db: Drizzle, entity: Entity, field: string, values: unknown[], ordered = false, only?: readonly string[]): Promise<Row[]> {
    const t = this.table(entity);
    const query = (d: Drizzle, vals: unknown[]) => {
      const q = d.select(only ? this.someColumns(entity, only) : this.publicColumns(entity)).from(t).where(inArray(t[field], vals));
      return ordered ? q.orderBy(asc(t.orderIndex), asc(t.createdAt), asc(t.id)) : q;
    };
    if (!this.database.readRaw || db !== this.database.db) return query(db, values);
    const key = `${entity.id} ${field} ${values.length} ${ordered}${only ? ' ' + only.join(',') : ''}`;
    let text = this.inTexts.get(key);
    if (text === undefined) {
      text = query(db, values).toSQL().sql as string;
      if (this.inTexts.size < COUNTS_KEPT) this.inTexts.set(key, text);
    }
    return this.decode(entity, this.database.readRaw(text, values), true, only);
  }

  /**
   * A relation's rows whose `near` field is one of `values`, in relation order (orderIndex, createdAt, id), each read
   * together with the row its `far` field points at, in one statement (a LEFT JOIN on the far end's id): `links` are
   * every relation row (public columns, or `id` and `linkOnly`), `ends` the far rows found (public columns, or `id`
   * and `farOnly`), each once. Two reads in one for each relation a page's expansion walks (runtime/crud/expand.ts).
   * On SQLite the SQL text is built once per shape and the rows decoded per column, as in `readIn`.
   */
  async readLinked(db: Drizzle, link: { relation: Entity; near: Field; far: Field; target: Entity }, values: unknown[], linkOnly?: readonly string[], farOnly?: readonly string[], window?: LinkWindow): Promise<{ links: Row[]; ends: Row[] }> {
    const columns = () => [linkOnly ? this.someColumns(link.relation, linkOnly) : this.publicColumns(link.relation), farOnly ? this.someColumns(link.target, farOnly) : this.publicColumns(link.target)] as const;
    const query = (d: Drizzle, [linkColumns, farColumns]: ReturnType<typeof columns>) => {
      const rel = this.table(link.relation);
      const far = this.table(link.target);
      const near = inArray(rel[link.near.name], values);
      // the first rows of each near row only: numbered in relation order per near row (a window both databases have)
      // (for one near row, a plain limit: the index on the near row's column walks them in order)
      const first = window && 'first' in window && values.length > 1
        ? inArray(rel.id, d.select({ id: sql`numbered.id` }).from(
            d.select({ id: rel.id, n: sql`row_number() over (partition by ${rel[link.near.name]} order by ${rel.orderIndex}, ${rel.createdAt}, ${rel.id})`.as('n') }).from(rel).where(near).as('numbered'),
          ).where(sql`numbered.n <= ${sql.raw(String(Math.floor(window.first)))}`))
        : undefined;
      const q = d.select({ link: linkColumns, end: farColumns }).from(rel).leftJoin(far, eq(far.id, rel[link.far.name])).where(first ? and(near, first) : near)
        .orderBy(asc(rel.orderIndex), asc(rel.createdAt), asc(rel.id));
      if (window && 'offset' in window) return q.limit(Math.floor(window.limit)).offset(Math.floor(window.offset));
      return window && 'first' in window && values.length <= 1 ? q.limit(Math.floor(window.first)) : q;
    };
    // a window's SQL names the values twice (or takes a limit and an offset): drizzle's own run, with its parameters
    if (window) {
      const links: Row[] = [];
      const ends = new Map<unknown, Row>();
      for (const { link: l, end } of (await query(db, columns())) as { link: Row; end: Row | null }[]) {
        links.push(l);
        if (end && !ends.has(end.id)) ends.set(end.id, end);
      }
      return { links, ends: [...ends.values()] };
    }
    const links: Row[] = [];
    const ends = new Map<unknown, Row>();
    if (!this.database.readRaw || db !== this.database.db) {
      for (const { link: l, end } of (await query(db, columns())) as { link: Row; end: Row | null }[]) {
        links.push(l);
        if (end && !ends.has(end.id)) ends.set(end.id, end);
      }
      return { links, ends: [...ends.values()] };
    }
    // the shape's SQL and row makers, made once: a page's expansion runs a dozen of these
    const key = `${link.relation.id} ${link.near.name} ${link.target.id} ${values.length} ${linkOnly?.join(',') ?? '*'} ${farOnly?.join(',') ?? '*'}`;
    let joined = this.joined.get(key);
    if (!joined) {
      const both = columns();
      const linkEntries = Object.entries(both[0]);
      const farEntries = Object.entries(both[1]);
      joined = { text: query(db, both).toSQL().sql as string, link: rowMaker(linkEntries), end: rowMaker(farEntries, linkEntries.length), endId: linkEntries.length + farEntries.findIndex(([name]) => name === 'id') };
      if (this.joined.size >= COUNTS_KEPT) this.joined.clear();
      this.joined.set(key, joined);
    }
    for (const v of this.database.readRaw(joined.text, values)) {
      links.push(joined.link(v));
      const id = v[joined.endId];
      if (id !== null && !ends.has(id)) ends.set(id, joined.end(v));
    }
    return { links, ends: [...ends.values()] };
  }

  /** how many rows of the relation each near row has (readLinked's `window` reads only some of them) */
  async countLinked(db: Drizzle, link: { relation: Entity; near: Field }, values: unknown[]): Promise<Map<string, number>> {
    const rel = this.table(link.relation);
    const query = () => db.select({ near: rel[link.near.name], n: count() }).from(rel).where(inArray(rel[link.near.name], values)).groupBy(rel[link.near.name]);
    if (!this.database.readRaw || db !== this.database.db) return new Map((await query()).map((r: { near: string; n: number | string }) => [r.near, Number(r.n)]));
    // SQLite: the statement's text made once per shape, as readLinked's
    const key = `count ${link.relation.id} ${link.near.name} ${values.length}`;
    let text = this.countTexts.get(key);
    if (!text) {
      if (this.countTexts.size >= COUNTS_KEPT) this.countTexts.clear();
      this.countTexts.set(key, (text = query().toSQL().sql as string));
    }
    return new Map(this.database.readRaw(text, values).map((r) => [r[0] as string, Number(r[1])]));
  }

  /**
   * `id` and those of `names` that are public columns of the entity (`readIn`'s `only`: the fields a page's widgets
   * read); a name that is no public column (a relation's key, a secret field) selects nothing
   */
  private someColumns(entity: Entity, names: readonly string[]): Record<string, Drizzle> {
    const key = `${entity.id} ${names.join(',')}`;
    let cols = this.someColumnsCache.get(key);
    if (!cols) {
      const all = this.publicColumns(entity);
      cols = Object.fromEntries(Object.entries(all).filter(([name]) => name === 'id' || names.includes(name)));
      if (this.someColumnsCache.size >= COUNTS_KEPT) this.someColumnsCache.clear();
      this.someColumnsCache.set(key, cols);
    }
    return cols;
  }

  /**
   * How many rows match. Where the database tells cheaply whether anything was committed since (SQLite's data
   * version), a count is kept until then, keyed by its SQL and parameters: a list's X-Total-Count stays exact
   * without scanning the table for every page. At most COUNTS_KEPT counts are kept; all go at the next commit.
   */
  async count(entity: Entity, where?: SQL): Promise<number> {
    const db = this.database.db;
    if (this.database.dialect === 'pg') return this.pgCount(db, entity, where);
    const q = db.select({ n: count() }).from(this.table(entity)).where(where);
    const version = this.database.dataVersion?.();
    if (version === undefined || !this.database.readRaw) return Number((await q)[0].n);
    const { sql: text, params } = q.toSQL();
    return this.keptCount(version, `${text}\u0000${JSON.stringify(params)}`, () => Number(this.database.readRaw!(text, params)[0][0]));
  }

  /**
   * PostgreSQL: a count kept with the snapshot it was counted in (`pg_current_snapshot()`, read in the same
   * statement, so the two agree). A snapshot names exactly which transactions' writes are visible; while a new
   * statement's snapshot is the same text, no write has been committed (or rolled back) since, by this process or
   * any other, and the kept count is exact. A hit costs a one-row query instead of scanning the matching rows.
   */
  private async pgCount(db: Drizzle, entity: Entity, where?: SQL): Promise<number> {
    const q = db.select({ n: count(), snapshot: sql<string>`pg_current_snapshot()::text` }).from(this.table(entity)).where(where);
    const { sql: text, params } = q.toSQL();
    const key = `${text}\u0000${JSON.stringify(params)}`;
    return this.keptPgCount(key, async () => {
      const [row] = await q;
      return { n: Number(row.n), snapshot: row.snapshot };
    }, async () => ((await db.execute(sql`SELECT pg_current_snapshot()::text AS snapshot`)).rows as { snapshot: string }[])[0]?.snapshot);
  }

  /** a count kept with its snapshot: reused while a new statement's snapshot is the same text, else counted again */
  private async keptPgCount(key: string, counted: () => Promise<{ n: number; snapshot: string }>, snapshotNow: () => Promise<string | undefined>): Promise<number> {
    const kept = this.pgCounts.get(key);
    if (kept && (await snapshotNow()) === kept.snapshot) return kept.n;
    const { n, snapshot } = await counted();
    if (this.pgCounts.size >= COUNTS_KEPT) this.pgCounts.clear();
    this.pgCounts.set(key, { n, snapshot });
    return n;
  }

  /**
   * SQLite (a database with `readRaw`): `get` without a promise, for callers that answer in the same turn (the fast
   * lane of runtime/http/fast-read.ts). The SQL text is made once per entity, the row decoded per column; with
   * `datesAsText`, a row to answer with: its dates already the text JSON gives them (see datesAsText), no Date made.
   */
  getNow(entity: Entity, id: string, datesAsText = false): Row | undefined {
    let text = this.byIdText.get(entity.id);
    if (text === undefined) {
      // no LIMIT: the id is the primary key, and a bound LIMIT makes SQLite re-plan the lookup on every run
      text = this.database.db.select(this.columns(entity)).from(this.table(entity)).where(eq(this.table(entity).id, '')).toSQL().sql as string;
      this.byIdText.set(entity.id, text);
    }
    return this.decode(entity, this.database.readRaw!(text, [id]), false, undefined, datesAsText)[0];
  }

  /**
   * Rows about to be sent, with their dates already as the text JSON gives them (toJSON: ISO 8601, or null for an
   * invalid date), in place: a Date sends JSON.stringify down its slow path for the whole answer, about 2.5 µs per
   * date. Only for rows that are the caller's own to change (a read's); the bytes sent are the same.
   */
  datesAsText<T>(entity: Entity, rows: T[]): T[] {
    let names = this.dateFields.get(entity.id);
    if (!names) {
      const t = this.table(entity);
      this.dateFields.set(entity.id, (names = entity.fields.filter((f) => t[f.name]?.dataType === 'date').map((f) => f.name)));
    }
    for (const row of rows as Record<string, unknown>[]) {
      if (!row) continue;
      for (const name of names) {
        const v = row[name];
        if (v instanceof Date) row[name] = isoDate(v);
      }
    }
    return rows;
  }

  async get(entity: Entity, id: string, tx?: Drizzle): Promise<Row | undefined> {
    if (tx) {
      const [row] = await tx.select(this.columns(entity)).from(this.table(entity)).where(eq(this.table(entity).id, id)).limit(1);
      return row;
    }
    // one prepared statement per entity: the hot path of the storefront
    if (this.database.readRaw) return this.getNow(entity, id);
    const db = this.database.db;
    let cached = this.byIdCache.get(entity.id);
    if (!cached || cached.db !== db) {
      // no LIMIT: the id is the primary key, and a bound LIMIT makes SQLite re-plan the lookup on every run
      const q = db.select(this.columns(entity)).from(this.table(entity)).where(eq(this.table(entity).id, sql.placeholder('id')));
      cached = { db, query: this.database.dialect === 'pg' ? q.prepare(`by_id_${entity.table}`) : q.prepare() };
      this.byIdCache.set(entity.id, cached);
    }
    const rows = await cached.query.execute({ id });
    return rows[0];
  }

  async getOrThrow(entity: Entity, id: string, tx?: Drizzle): Promise<Row> {
    const row = await this.get(entity, id, tx);
    if (!row) throw notFound(entity, id);
    return row;
  }

  /** datetime values travel as ISO strings and are stored as dates */
  private toDb(entity: Entity, data: Row): Row {
    const out: Row = {};
    for (const f of entity.fields) {
      if (!(f.name in data) || (SERVER_FIELDS as readonly string[]).includes(f.name)) continue;
      const v = data[f.name];
      out[f.name] = f.kind === 'datetime' && typeof v === 'string' ? new Date(v) : v;
    }
    return out;
  }

  private async generate(tx: Drizzle, entity: Entity, f: Field): Promise<string> {
    const separator = f.generate === 'slug' ? '-' : ' ';
    if (!f.unique) return randomWords(separator);
    for (let attempt = 0; ; attempt++) {
      const candidate = randomWords(separator) + (attempt > 3 ? separator + randomUUID().slice(0, 8) : '');
      const [taken] = await tx.select({ id: this.table(entity).id }).from(this.table(entity)).where(eq(this.table(entity)[f.name], candidate)).limit(1);
      if (!taken) return candidate;
    }
  }

  /** every reference in the row points at an existing row: a clear 400 instead of a constraint error */
  private async checkReferences(tx: Drizzle, entity: Entity, row: Row, prefix: string) {
    const causes: Cause[] = [];
    for (const f of entity.fields) {
      if (f.kind !== 'reference' || isBlank(row[f.name])) continue;
      const target = this.model.byId[f.target!];
      const t = this.database.tables[target.id];
      const [found] = await tx.select({ id: t.id }).from(t).where(eq(t.id, row[f.name])).limit(1);
      const field = prefix ? `${prefix}.${f.name}` : f.name;
      if (!found) causes.push({ field, rule: 'reference', message: `${field}: no ${target.id} with id ${row[f.name]}` });
    }
    if (causes.length) throw badRequest(causes.length === 1 ? causes[0].message : 'References to missing rows', causes);
  }

  private async fill(tx: Drizzle, entity: Entity, data: Row, mode: 'create' | 'update') {
    for (const f of entity.fields) {
      if (f.generate && (mode === 'create' ? isBlank(data[f.name]) : f.name in data && isBlank(data[f.name]))) {
        data[f.name] = await this.generate(tx, entity, f);
      } else if (mode === 'create' && data[f.name] === undefined && f.default !== undefined && !f.common) {
        data[f.name] = structuredClone(f.default);
      }
    }
    if (mode === 'create' && isBlank(data.variant)) data.variant = entity.defaultVariant;
  }

  /** a database constraint error as the 409 naming its field; `prefix`: the row's place in a bulk (`data[1]`) */
  private async guard<T>(entity: Entity, fn: () => Promise<T>, prefix?: string): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      if (e instanceof HttpError) throw prefix ? within(e, prefix) : e;
      throw fromDatabaseError(e, entity, prefix) ?? e;
    }
  }

  /**
   * Inserts one validated body; the server sets id, createdAt and updatedAt. Runs the entity's hooks; with
   * `opts.linkTo`, links the new row to that subject through the entity's owner relation, in the same transaction.
   */
  async create(entity: Entity, body: Row, tx?: Drizzle, prefix = '', id: string = randomUUID(), opts: WriteOptions = {}): Promise<Row> {
    if (!tx) return this.guard(entity, () => this.database.transaction((t) => this.create(entity, body, t, prefix, id, opts)));
    const args = { entity, tx, caller: opts.caller };
    const data = this.toDb(entity, await this.hooks.beforeCreate(entity, { ...body }, args));
    await this.fill(tx, entity, data, 'create');
    await this.checkReferences(tx, entity, data, prefix);
    const at = now();
    const [row] = await tx.insert(this.table(entity)).values({ ...data, id, createdAt: at, updatedAt: at }).returning(this.columns(entity));
    if (opts.linkTo && entity.owner?.kind === 'through' && entity.owner.target === 'rbac/subject') {
      const o = entity.owner;
      await this.create(this.model.byId[o.relation], { [o.subjectField]: opts.linkTo, [o.targetField]: row.id }, tx, prefix, undefined, { caller: opts.caller });
    }
    await this.hooks.after('create', entity, row, args);
    return row;
  }

  async update(entity: Entity, id: string, body: Row, tx?: Drizzle, prefix = '', opts: WriteOptions = {}): Promise<Row> {
    if (!tx) return this.guard(entity, () => this.database.transaction((t) => this.update(entity, id, body, t, prefix, opts)));
    const previous = await this.getOrThrow(entity, id, tx);
    const args = { entity, tx, caller: opts.caller, previous };
    const data = this.toDb(entity, await this.hooks.beforeUpdate(entity, { ...body }, args));
    await this.fill(tx, entity, data, 'update');
    await this.checkReferences(tx, entity, data, prefix);
    const [row] = await tx.update(this.table(entity)).set({ ...data, updatedAt: now() }).where(eq(this.table(entity).id, id)).returning(this.columns(entity));
    // deleted by another transaction since it was read (PostgreSQL's read committed): gone, as for a later request
    if (!row) throw notFound(entity, id);
    await this.hooks.after('update', entity, row, args);
    return row;
  }

  /** deletes one row (relations pointing at it cascade in the database) */
  async delete(entity: Entity, id: string, tx?: Drizzle, opts: WriteOptions = {}): Promise<Row> {
    if (!tx) return this.guard(entity, () => this.database.transaction((t) => this.delete(entity, id, t, opts)));
    const previous = await this.getOrThrow(entity, id, tx);
    const args = { entity, tx, caller: opts.caller };
    await this.hooks.beforeDelete(entity, previous, args);
    const [row] = await tx.delete(this.table(entity)).where(eq(this.table(entity).id, id)).returning(this.columns(entity));
    // deleted by another transaction since it was read: the loser of two deletes is a 404, its hooks never run
    if (!row) throw notFound(entity, id);
    await this.hooks.after('delete', entity, row, args);
    return row;
  }

  /**
   * The first row equal to the body on its plain, non-secret fields, among the rows `opts.scope` allows
   * (the caller's own, for a subject); created when there is none.
   */
  async findOrCreate(entity: Entity, body: Row, opts: WriteOptions & { scope?: SQL } = {}): Promise<{ row: Row; created: boolean }> {
    const data = this.toDb(entity, body);
    const t = this.table(entity);
    const conditions = entity.fields
      .filter((f) => !f.secret && MATCHABLE.has(f.kind) && f.name in data)
      .map((f) => (data[f.name] === null ? sql`${t[f.name]} is null` : eq(t[f.name], data[f.name])));
    const find = async (db: Drizzle): Promise<Row | undefined> =>
      conditions.length ? (await db.select(this.columns(entity)).from(t).where(and(...conditions, opts.scope)).orderBy(t.createdAt, t.id).limit(1))[0] : undefined;
    try {
      return await this.guard(entity, () =>
        this.database.transaction(async (tx) => {
          const found = await find(tx);
          if (found) return { row: found, created: false };
          return { row: await this.create(entity, body, tx, '', undefined, opts), created: true };
        }),
      );
    } catch (e) {
      // PostgreSQL: a concurrent call made the same row between this one's find and its insert (each transaction saw
      // none), and the unique key refused the second. It is there now: found, as a call a moment later would find it
      if (!(e instanceof HttpError) || e.status !== 409) throw e;
      const found = await find(this.database.db);
      if (!found) throw e;
      return { row: found, created: false };
    }
  }

  /** all or nothing, in one transaction: a refusing hook on any item writes nothing at all */
  async bulkCreate(entity: Entity, bodies: Row[], opts: WriteOptions = {}): Promise<Row[]> {
    return this.guard(entity, () =>
      this.database.transaction(async (tx) => {
        const rows: Row[] = [];
        for (const [i, b] of bodies.entries()) rows.push(await this.guard(entity, () => this.create(entity, b, tx, `data[${i}]`, undefined, opts), `data[${i}]`));
        return rows;
      }),
    );
  }

  async bulkUpdate(entity: Entity, items: { id: string; data: Row }[], opts: WriteOptions = {}): Promise<Row[]> {
    return this.guard(entity, () =>
      this.database.transaction(async (tx) => {
        const rows: Row[] = [];
        for (const [i, it] of items.entries()) rows.push(await this.guard(entity, () => this.update(entity, it.id, it.data, tx, `data[${i}]`, opts), `data[${i}]`));
        return rows;
      }),
    );
  }
}
