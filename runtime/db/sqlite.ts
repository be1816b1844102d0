import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { queryCounter, type Database, type Drizzle, type MigrateOptions } from './database.js';
import { databaseError, GuardRun, guardOf, MigrationError, pendingOf, readMigrations, rehearsedUpTo, statusOf, type AppliedRow, type MigrationFile } from './migrator.js';
import { keptBy } from '../kept.js';

const TABLE = '"__drizzle_migrations"';

/** the migrations drizzle's table says were applied; none when there is no table yet */
export function appliedSqlite(client: BetterSqlite3.Database): AppliedRow[] {
  const exists = client.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'").get();
  if (!exists) return [];
  return (client.prepare(`SELECT hash, created_at FROM ${TABLE}`).all() as { hash: string; created_at: number }[])
    .map((r) => ({ hash: r.hash, createdAt: Number(r.created_at) }));
}

/**
 * Statements compiled once per SQL text and kept (least recently used go past `max`): drizzle prepares every
 * query it runs, and compiling is most of a small read's cost. A statement is handed back in its default
 * (object rows) mode, since drizzle switches it to raw rows when it wants them.
 */
function cachePrepared(client: BetterSqlite3.Database, max = 2000) {
  const prepare = client.prepare.bind(client);
  const cache = new Map<string, BetterSqlite3.Statement>();
  client.prepare = ((source: string) => {
    let stmt = cache.get(source);
    if (stmt) {
      cache.delete(source);
      if (stmt.reader) stmt.raw(false);
    } else {
      stmt = prepare(source);
      if (cache.size >= max) cache.delete(cache.keys().next().value!);
    }
    cache.set(source, stmt);
    return stmt;
  }) as typeof client.prepare;
}
/** better-sqlite3's own prepare, past cachePrepared's wrapper */
const unwrappedPrepare = BetterSqlite3.prototype.prepare;
/** how many of readRaw's statements are kept per reader (all go when full) */
const RAW_KEPT = 500;
/** how long a write waits for SQLite's write lock while another process holds it (SQLITE_BUSY_TIMEOUT_MS) */
const BUSY_TIMEOUT_MS = Number(process.env.SQLITE_BUSY_TIMEOUT_MS ?? 5000);
/**
 * the read of a run that opens a snapshot: a read outside a transaction takes and drops WAL's read lock (about 5 µs
 * of the 5.5 a one-row read costs); inside one it takes nothing, and a transaction's own begin and commit cost about
 * two reads. The page assembly runs some fifty reads in a row; a get by id runs one, and a list two.
 */
const SNAPSHOT_AT_READ = 3;
/** the writer's own busy wait, which blocks the event loop: short; a longer wait for the lock is asynchronous */
const WRITER_BUSY_MS = 20;

/**
 * Lower case for every script, one character at a time, as PostgreSQL's lower() does in a UTF-8 locale: SQLite's
 * own lower() (and LIKE) fold ASCII only, so `ilike 'ШАБЛОН'` found nothing on SQLite. Per character: a Σ is σ
 * wherever it stands (JavaScript's toLowerCase makes a word-final one ς), İ is i (not i + a combining dot).
 */
export function foldCase(text: string): string {
  if (!/[\u03a3\u0130]/.test(text)) return text.toLowerCase();
  let out = '';
  for (const ch of text) out += ch === '\u0130' ? 'i' : ch.toLowerCase();
  return out;
}

/**
 * The SQL function `unicode_lower(x)` (foldCase; NULL stays NULL), registered on every connection openSqlite
 * opens (the writer, the reader, and the reader that replaces it after migrations): the list filters' ilike and
 * notIlike (runtime/crud/query.ts) use it on SQLite where PostgreSQL uses lower().
 */
export const SQLITE_LOWER = 'unicode_lower';
const sqlLower = (value: unknown) => (value === null || value === undefined ? null : foldCase(typeof value === 'string' ? value : String(value)));

function open(path: string, readonly: boolean) {
  const client = new BetterSqlite3(path, { readonly, fileMustExist: readonly });
  cachePrepared(client);
  client.function(SQLITE_LOWER, { deterministic: true }, sqlLower);
  if (!readonly) client.pragma('journal_mode = WAL');
  client.pragma(`busy_timeout = ${readonly ? BUSY_TIMEOUT_MS : WRITER_BUSY_MS}`);
  client.pragma('foreign_keys = ON');
  // LIKE is case-sensitive as on PostgreSQL; ilike is the case-insensitive one
  client.pragma('case_sensitive_like = ON');
  if (!readonly) client.pragma('synchronous = NORMAL');
  return client;
}

const isBusy = (e: unknown) => typeof (e as { code?: unknown })?.code === 'string' && (e as { code: string }).code.startsWith('SQLITE_BUSY');

/**
 * Takes SQLite's write lock (`BEGIN IMMEDIATE`). Another process may hold it (WORKERS=N on one file): the attempt
 * is repeated, waiting between tries without blocking this process's event loop (reads go on meanwhile), until
 * SQLITE_BUSY_TIMEOUT_MS has passed.
 */
async function beginImmediate(writer: BetterSqlite3.Database) {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (let pause = 1; ; pause = Math.min(pause * 2, 25)) {
    try {
      writer.exec('BEGIN IMMEDIATE');
      return;
    } catch (e) {
      if (!isBusy(e) || Date.now() >= deadline) throw e;
      await new Promise((r) => setTimeout(r, pause));
    }
  }
}

/**
 * Embedded SQLite: one writer connection (writes serialized in transactions) and one reader,
 * which in WAL mode sees only committed data. Several processes may share the file: one writer at a time
 * (SQLite's write lock, waited for asynchronously), every reader sees every committed write.
 */
export function openSqlite(url: string, tables: Record<string, Drizzle>): Database {
  const path = resolve(url.replace(/^file:(\/\/)?/, ''));
  mkdirSync(dirname(path), { recursive: true });
  const writer = open(path, false);
  let reader = open(path, true);
  const counter = queryCounter();
  const wdb = drizzle(writer, { logger: counter.logger });
  let rdb = drizzle(reader, { logger: counter.logger });
  // changes when another connection (the writer, another process) commits; the reader itself never writes
  let version = reader.prepare('PRAGMA data_version').pluck();
  /** readRaw's statements on the current reader, by SQL text (a new reader starts with none) */
  const rawStatementsOf = (on: BetterSqlite3.Database) => keptBy(RAW_KEPT, (sql: string) => unwrappedPrepare.call(on, sql).raw(true));
  let rawStatement = rawStatementsOf(reader);
  /** bumped when the reader is replaced (after migrations), so that a new connection's numbers never repeat an old one's */
  let epoch = 0;
  let queue: Promise<unknown> = Promise.resolve();

  /**
   * Runs of reads share a snapshot. From the SNAPSHOT_AT_READ-th read since the last fresh start, the reader holds
   * one read transaction, until the first of: the next request starting (`fresh`, called by the app's envelope), a
   * write of this process committing, or the end of this turn of the event loop. So a read sees every write
   * committed before its request started, by any process, and every write this process committed since; the reads
   * of one page see one state of the database instead of each its own.
   */
  let readsInRun = 0;
  const transactionsOf = (on: BetterSqlite3.Database) => ({ begin: on.prepare('BEGIN'), commit: on.prepare('COMMIT') });
  let snapshot = transactionsOf(reader);
  const endSnapshot = () => {
    readsInRun = 0;
    if (reader.open && reader.inTransaction) snapshot.commit.run();
  };

  const database: Database = {
    dialect: 'sqlite',
    get db() {
      return rdb;
    },
    // WAL: the reader sees every committed write
    get primary() {
      return rdb;
    },
    get queries() {
      return counter.count;
    },
    tables,
    readRaw(sql: string, params: unknown[]) {
      counter.count++;
      if (++readsInRun === SNAPSHOT_AT_READ && !reader.inTransaction) {
        snapshot.begin.run();
        setImmediate(endSnapshot);
      }
      // the reader's statement for this SQL text, in raw mode for good: kept apart from drizzle's (cachePrepared,
      // which hands its statements back in object mode), so a read neither switches modes nor reorders a cache
      return rawStatement(sql).all(...params) as unknown[][];
    },
    fresh: endSnapshot,
    dataVersion() {
      return epoch * 2 ** 32 + (version.get() as number);
    },
    transaction<T>(fn: (tx: Drizzle) => Promise<T>): Promise<T> {
      const run = async () => {
        await beginImmediate(writer);
        try {
          const result = await fn(wdb);
          writer.exec('COMMIT');
          // this process's next read sees what it just wrote
          endSnapshot();
          return result;
        } catch (e) {
          if (writer.inTransaction) writer.exec('ROLLBACK');
          throw e;
        }
      };
      const next = queue.then(run, run);
      queue = next.catch(() => undefined);
      return next;
    },
    async migrate(migrationsDir: string, opts: MigrateOptions = {}) {
      const files = readMigrations(join(migrationsDir, 'sqlite'));
      const pending = pendingOf(files, appliedSqlite(writer));
      if (!pending.length) return { applied: [], pending };
      await queue;
      if (opts.dryRun) {
        writer.pragma('foreign_keys = OFF');
        writer.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
        try {
          return { applied: [], pending, refusal: rehearseSqlite(writer, pending) };
        } finally {
          writer.pragma(`busy_timeout = ${WRITER_BUSY_MS}`);
          writer.pragma('foreign_keys = ON');
        }
      }
      writer.exec(`CREATE TABLE IF NOT EXISTS ${TABLE} (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at numeric)`);
      const applied: MigrationFile[] = [];
      // table rebuilds drop and recreate tables: with foreign keys on, that would cascade-delete child rows
      // (the pragma is a no-op inside a transaction, so it is set around them; foreign_key_check ends each one)
      writer.pragma('foreign_keys = OFF');
      // a migration waits for the write lock as long as any write would (it runs synchronously: the process is starting)
      writer.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
      try {
        for (const m of pending) {
          applySqlite(writer, m);
          applied.push(m);
          opts.onApplied?.(m);
        }
      } finally {
        writer.pragma(`busy_timeout = ${WRITER_BUSY_MS}`);
        writer.pragma('foreign_keys = ON');
        // the reader's schema cache predates the migration
        endSnapshot();
        reader.close();
        reader = open(path, true);
        snapshot = transactionsOf(reader);
        rawStatement = rawStatementsOf(reader);
        rdb = drizzle(reader, { logger: counter.logger });
        version = reader.prepare('PRAGMA data_version').pluck();
        epoch++;
      }
      return { applied, pending: [] };
    },
    async migrationStatus(migrationsDir: string) {
      return statusOf(readMigrations(join(migrationsDir, 'sqlite')), appliedSqlite(writer));
    },
    async close() {
      await queue;
      endSnapshot();
      reader.close();
      writer.close();
    },
  };
  return database;
}

/**
 * Runs a migration's statements (its guards recorded, refusing it when one found rows), up to `upTo` (exclusive),
 * then checks the foreign keys; inside the caller's transaction
 */
function runSqlite(writer: BetterSqlite3.Database, m: MigrationFile, upTo = m.statements.length) {
  let at = 0;
  try {
    const guards = new GuardRun(m.file, 'sqlite');
    for (const [i, stmt] of m.statements.slice(0, upTo).entries()) {
      at = i;
      if (guardOf(stmt)) {
        guards.record(i, stmt, writer.prepare(stmt).all());
        continue;
      }
      guards.check(m.statements);
      writer.exec(stmt);
    }
    guards.check(m.statements);
    const broken = writer.pragma('foreign_key_check') as { table: string; rowid: number; parent: string }[];
    if (broken.length) {
      const first = broken[0];
      throw new MigrationError(m.file, at, '', `it would leave ${broken.length} row(s) pointing at rows that do not exist (e.g. a row of ${first.table} pointing into ${first.parent})`, true);
    }
  } catch (e) {
    if (e instanceof MigrationError) throw e;
    throw new MigrationError(m.file, at, m.statements[at] ?? '', databaseError('sqlite', e), false);
  }
}

/** one migration in one transaction: its guards may refuse it; a failure rolls all of it back */
function applySqlite(writer: BetterSqlite3.Database, m: MigrationFile) {
  writer.exec('BEGIN IMMEDIATE');
  try {
    runSqlite(writer, m);
    writer.prepare(`INSERT INTO ${TABLE} ("hash", "created_at") VALUES (?, ?)`).run(m.hash, m.when);
    writer.exec('COMMIT');
  } catch (e) {
    if (writer.inTransaction) writer.exec('ROLLBACK');
    throw e instanceof MigrationError ? e : new MigrationError(m.file, m.statements.length - 1, m.statements.at(-1) ?? '', databaseError('sqlite', e), false);
  }
}

/** a dry run (migrator.ts rehearse): the refusal or failure the pending migrations would meet, in a transaction always rolled back */
function rehearseSqlite(writer: BetterSqlite3.Database, pending: MigrationFile[]): MigrationError | undefined {
  writer.exec('BEGIN IMMEDIATE');
  try {
    for (const [i, m] of pending.entries()) runSqlite(writer, m, rehearsedUpTo(pending, i));
  } catch (e) {
    if (e instanceof MigrationError) return e;
    throw e;
  } finally {
    if (writer.inTransaction) writer.exec('ROLLBACK');
  }
  return undefined;
}
