import pg from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import { PgTimestamp } from 'drizzle-orm/pg-core';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { keptBy } from '../kept.js';
import { readsFromPrimary } from './read-routing.js';
import { queryCounter, type Database, type Drizzle, type MigrateOptions } from './database.js';
import { databaseError, GuardRun, guardOf, MigrationError, pendingOf, readMigrations, rehearsedUpTo, statusOf, type AppliedRow, type MigrationFile } from './migrator.js';

const TABLE = '"drizzle"."__drizzle_migrations"';

/** the migrations drizzle's table says were applied; none when there is no table yet */
export async function appliedPg(client: pg.ClientBase): Promise<AppliedRow[]> {
  const { rows } = await client.query(`SELECT to_regclass('drizzle.__drizzle_migrations') AS t`);
  if (!rows[0].t) return [];
  return (await client.query(`SELECT hash, created_at FROM ${TABLE}`)).rows.map((r: { hash: string; created_at: string }) => ({ hash: r.hash, createdAt: Number(r.created_at) }));
}

/**
 * Runs a migration's statements (its guards recorded, refusing it when one found rows), up to `upTo` (exclusive),
 * inside the caller's transaction
 */
async function runPg(client: pg.ClientBase, m: MigrationFile, upTo = m.statements.length) {
  let at = 0;
  try {
    const guards = new GuardRun(m.file, 'pg');
    for (const [i, stmt] of m.statements.slice(0, upTo).entries()) {
      at = i;
      const guard = guardOf(stmt);
      if (!guard) guards.check(m.statements);
      const result = await client.query(stmt);
      if (guard) guards.record(i, stmt, result.rows);
    }
    guards.check(m.statements);
  } catch (e) {
    if (e instanceof MigrationError) throw e;
    throw new MigrationError(m.file, at, m.statements[at] ?? '', databaseError('pg', e), false);
  }
}

/** one migration in one transaction: its guards may refuse it; a failure rolls all of it back */
async function applyPg(client: pg.ClientBase, m: MigrationFile) {
  await client.query('BEGIN');
  try {
    await runPg(client, m);
    await client.query(`INSERT INTO ${TABLE} ("hash", "created_at") VALUES ($1, $2)`, [m.hash, m.when]);
    await client.query('COMMIT');
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e instanceof MigrationError ? e : new MigrationError(m.file, m.statements.length - 1, m.statements.at(-1) ?? '', databaseError('pg', e), false);
  }
}

/** a dry run (migrator.ts rehearsedUpTo): the refusal or failure the pending migrations would meet, in a transaction always rolled back */
async function rehearsePg(client: pg.ClientBase, pending: MigrationFile[]): Promise<MigrationError | undefined> {
  await client.query('BEGIN');
  try {
    for (const [i, m] of pending.entries()) await runPg(client, m, rehearsedUpTo(pending, i));
  } catch (e) {
    if (e instanceof MigrationError) return e;
    throw e;
  } finally {
    await client.query('ROLLBACK');
  }
  return undefined;
}

/**
 * The type parsers drizzle's node-postgres driver reads with: dates, times and intervals stay text, which the
 * columns decode themselves (mapFromDriverValue); everything else as pg parses it.
 */
const AS_TEXT = new Set([pg.types.builtins.TIMESTAMPTZ, pg.types.builtins.TIMESTAMP, pg.types.builtins.DATE, pg.types.builtins.INTERVAL, 1231, 1115, 1185, 1187, 1182]);
const asText = (v: string) => v;
const DRIZZLE_TYPES = {
  getTypeParser: ((typeId: number, format?: 'text' | 'binary') => (AS_TEXT.has(typeId) ? asText : pg.types.getTypeParser(typeId, format))) as typeof pg.types.getTypeParser,
};

/** days from 1970-01-01 to a day of the proleptic Gregorian calendar (H. Hinnant's days_from_civil) */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  return era * 146097 + yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear - 719468;
}

/** the two digits at `i` as a number, or -1 */
const two = (s: string, i: number) => {
  const a = s.charCodeAt(i) - 48;
  const b = s.charCodeAt(i + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
};

/**
 * The instant PostgreSQL's text of a `timestamp` or `timestamptz` names (DateStyle ISO: `0050-06-15 12:00:00.5+00`,
 * `10000-01-01 00:19:32+00:19:32 BC`; no offset: UTC, as drizzle reads a timestamp without time zone), to the
 * millisecond, worked out from its parts: the years 0001 to 0099 stay themselves (`new Date(text)`, drizzle's own
 * reading, takes `0050-06-15 12:00:00+00` for 1950), as do offsets with seconds (a session time zone's local mean
 * time before 1900), years past 9999 and BC. `infinity` and any other text go to Date as before. Read by char codes:
 * a list's dates are decoded per value, and this takes about half the time `new Date(text)` does (95 ns, 180).
 */
export function timestampFromPg(text: string): Date {
  let i = 0;
  let year = 0;
  for (let c = text.charCodeAt(0); c >= 48 && c <= 57; c = text.charCodeAt(++i)) year = year * 10 + c - 48;
  const month = two(text, i + 1);
  const day = two(text, i + 4);
  const hours = two(text, i + 7);
  const minutes = two(text, i + 10);
  const seconds = two(text, i + 13);
  if (i < 4 || text.charCodeAt(i) !== 45 || text.charCodeAt(i + 3) !== 45 || text.charCodeAt(i + 6) !== 32 || text.charCodeAt(i + 9) !== 58 || text.charCodeAt(i + 12) !== 58 || (month | day | hours | minutes | seconds) < 0) return new Date(text);
  i += 15;
  let millis = 0;
  if (text.charCodeAt(i) === 46) {
    // a fraction: its first three digits are the milliseconds (Date keeps no finer), the rest is cut off
    let scale = 100;
    for (let c = text.charCodeAt(++i); c >= 48 && c <= 57; c = text.charCodeAt(++i)) {
      millis += (c - 48) * scale;
      scale = scale > 1 ? scale / 10 : 0;
    }
  }
  let offset = 0;
  const sign = text.charCodeAt(i);
  if (sign === 43 || sign === 45) {
    let part = two(text, i + 1);
    if (part < 0) return new Date(text);
    offset = part * 3600;
    i += 3;
    for (let unit = 60; unit >= 1 && text.charCodeAt(i) === 58; unit /= 60, i += 3) {
      if ((part = two(text, i + 1)) < 0) return new Date(text);
      offset += part * unit;
    }
    if (sign === 45) offset = -offset;
  }
  if (i !== text.length) {
    if (text.length !== i + 3 || text.slice(i) !== ' BC') return new Date(text);
    year = 1 - year;
  }
  return new Date(daysFromCivil(year, month, day) * 86400000 + ((hours * 60 + minutes) * 60 + seconds - offset) * 1000 + millis);
}

/**
 * Every timestamp column drizzle reads on PostgreSQL, through drizzle's queries (get, relations, returning rows) and
 * through `queryRaw`'s rows (`Repository.decode` calls the column's mapFromDriverValue), is read by
 * `timestampFromPg`: the value written is the value read, for every year a date-time field takes.
 */
(PgTimestamp.prototype as { mapFromDriverValue(value: unknown): unknown }).mapFromDriverValue = (value: unknown) =>
  typeof value === 'string' ? timestampFromPg(value) : value;

/**
 * The name queryRaw prepares a text under, on each connection the first time it runs there: PostgreSQL then parses
 * and plans it once per connection instead of per query (a list's raw read and its count, run again and again with
 * new values). Kept by text; a name stands for one text, as node-postgres requires.
 */
const statementName = keptBy(2000, (text: string) => `raw_${createHash('sha1').update(text).digest('base64url')}`);
/** "cached plan must not change result type" (a prepared statement after a migration changed its columns' types) */
const STALE_PLAN = '0A000';

/** a fixed key so that instances starting together migrate one at a time */
const MIGRATION_LOCK = 4_000_001;

/** the primary at `url`; with `readUrl`, a second pool on a read replica that `db` reads from */
export function openPg(url: string, tables: Record<string, Drizzle>, readUrl?: string): Database {
  const size = Number(process.env.DATABASE_POOL_SIZE ?? 10);
  const pool = new pg.Pool({ connectionString: url, max: size });
  pool.on('error', () => undefined); // an idle client's error must not crash the process; the next query reports it
  const readPool = readUrl ? new pg.Pool({ connectionString: readUrl, max: size }) : undefined;
  readPool?.on('error', () => undefined);
  const counter = queryCounter();
  const db = drizzle(pool, { logger: counter.logger });
  const replica = readPool ? drizzle(readPool, { logger: counter.logger }) : undefined;
  return {
    dialect: 'pg',
    // the replica, except for a request that writes or carries credentials (read-routing.ts)
    get db() {
      return replica && !readsFromPrimary() ? replica : db;
    },
    primary: db,
    get queries() {
      return counter.count;
    },
    tables,
    async queryRaw(text: string, values: unknown[]) {
      counter.count++;
      const from = readPool && !readsFromPrimary() ? readPool : pool;
      try {
        return (await from.query({ name: statementName(text), text, values, rowMode: 'array', types: DRIZZLE_TYPES })).rows as unknown[][];
      } catch (e) {
        // a statement prepared before a migration changed what it returns: run it unprepared (it stays stale on that
        // connection, which the next start replaces)
        if ((e as { code?: string }).code !== STALE_PLAN) throw e;
        return (await from.query({ text, values, rowMode: 'array', types: DRIZZLE_TYPES })).rows as unknown[][];
      }
    },
    transaction: (fn) => db.transaction(fn),
    async migrate(migrationsDir: string, opts: MigrateOptions = {}) {
      const files = readMigrations(join(migrationsDir, 'pg'));
      const client = await pool.connect();
      try {
        await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
        // read under the lock: another instance may just have applied them
        const pending = pendingOf(files, await appliedPg(client));
        if (!pending.length) return { applied: [], pending };
        if (opts.dryRun) return { applied: [], pending, refusal: await rehearsePg(client, pending) };
        await client.query('CREATE SCHEMA IF NOT EXISTS "drizzle"');
        await client.query(`CREATE TABLE IF NOT EXISTS ${TABLE} (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint)`);
        const applied: MigrationFile[] = [];
        for (const m of pending) {
          await applyPg(client, m);
          applied.push(m);
          opts.onApplied?.(m);
        }
        return { applied, pending: [] };
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
        client.release();
      }
    },
    async migrationStatus(migrationsDir: string) {
      const client = await pool.connect();
      try {
        return statusOf(readMigrations(join(migrationsDir, 'pg')), await appliedPg(client));
      } finally {
        client.release();
      }
    },
    close: async () => {
      await Promise.all([pool.end(), readPool?.end()]);
    },
  };
}
