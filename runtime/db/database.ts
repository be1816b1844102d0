import type { Dialect } from '../../engine/fields/index.js';
import type { MigrationError, MigrationFile, MigrationStatus } from './migrator.js';

export interface MigrateOptions {
  dryRun?: boolean;
  /** called after each migration is committed */
  onApplied?: (m: MigrationFile) => void;
}

export interface MigrateResult {
  /** the migrations this call applied, in order */
  applied: MigrationFile[];
  /** with dryRun: the migrations that would be applied */
  pending: MigrationFile[];
  /**
   * with dryRun: the refusal (or failure) the real run would meet, found by running the guards in a transaction
   * that is always rolled back (migrator.ts rehearsedUpTo); undefined when the guards pass
   */
  refusal?: MigrationError;
}

/** Any drizzle database or transaction; the generic layer only uses the query builder common to both dialects. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Drizzle = any;

/**
 * One database, either dialect. Reads go through `db`; every write goes through `transaction`.
 * @example await database.transaction(async (tx) => tx.insert(table).values(row));
 */
export interface Database {
  dialect: Dialect;
  /**
   * reads: with DATABASE_READ_URL, a read replica's pool for anonymous GETs (it may lag behind the primary by a
   * moment) and the primary for requests that write or carry credentials (db/read-routing.ts)
   */
  db: Drizzle;
  /**
   * reads that must see every committed write (a session made a moment ago, a page about to be cached): the
   * primary; the same as `db` without a replica
   */
  primary: Drizzle;
  /** drizzle tables keyed by entity id */
  tables: Record<string, Drizzle>;
  transaction<T>(fn: (tx: Drizzle) => Promise<T>): Promise<T>;
  /**
   * A number that changes whenever anything was committed to the database since it was last read, by this
   * process or any other (SQLite: `PRAGMA data_version` on the reader connection); undefined where it cannot be
   * told cheaply (PostgreSQL). What is derived from the data (list totals) may be kept while it stays the same.
   */
  dataVersion?(): number;
  /**
   * Runs a read built by drizzle (its `toSQL()`: text and driver-encoded parameters) on the read connection and
   * answers each row as an array of driver values in the order selected, without drizzle's per-row mapping.
   * SQLite keeps one prepared statement per text. Undefined where drizzle's own execution is used (PostgreSQL).
   */
  readRaw?(sql: string, params: unknown[]): unknown[][];
  /**
   * PostgreSQL's `readRaw`: the same rows as arrays of driver values (drizzle's type parsers: dates as text for the
   * column to decode), on the pool `db` reads from, with no drizzle query built or mapped. Undefined on SQLite.
   */
  queryRaw?(sql: string, params: unknown[]): Promise<unknown[][]>;
  /**
   * A request starts: reads from here on must see every write committed before it, by any process. SQLite keeps a
   * run of reads in one read transaction (a snapshot, see sqlite.ts); this ends it. Undefined where every read sees
   * the latest commit anyway (PostgreSQL, each statement its own snapshot).
   */
  fresh?(): void;
  /** statements sent so far (through drizzle), for tests and diagnostics */
  readonly queries: number;
  /**
   * applies the migrations under migrationsDir/<dialect> that have not run yet, each in a transaction of its own;
   * a refused or failed one throws a MigrationError (file, statement, the database's error) and leaves the database
   * as it was before it. With `dryRun`, applies nothing and answers what is pending and the refusal its guards would
   * give (run in a transaction that is rolled back).
   */
  migrate(migrationsDir: string, opts?: MigrateOptions): Promise<MigrateResult>;
  /** which migrations under migrationsDir/<dialect> this database has applied, and which are pending */
  migrationStatus(migrationsDir: string): Promise<MigrationStatus>;
  close(): Promise<void>;
}

/** a url as it may be shown: its credentials (user:password@) masked */
export const maskedUrl = (url: string) => url.replace(/\/\/[^@/]*@/, '//***@');

export function dialectOf(url: string): Dialect {
  if (/^postgres(ql)?:\/\//.test(url)) {
    // a malformed one is named here, not by the driver's bare 'Invalid URL'
    if (!URL.canParse(url)) throw new Error(`DATABASE_URL is not a valid url: '${maskedUrl(url)}' (postgres://user:password@host:5432/database)`);
    return 'pg';
  }
  if (url.startsWith('file:')) return 'sqlite';
  // a bare word is refused too: taken as a path, a typo ('garbage', 'postgre://…' without the s) made a new empty database
  throw new Error(`DATABASE_URL must start with file: or postgres://, got '${maskedUrl(url)}'`);
}

/** a drizzle logger that only counts */
export function queryCounter() {
  const counter = { count: 0, logger: { logQuery: () => void counter.count++ } };
  return counter;
}
