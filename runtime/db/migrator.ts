import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { valueCause } from '../crud/validate.js';

/**
 * Reads and runs the migrations codegen writes, in drizzle's format (meta/_journal.json, <tag>.sql split at
 * `--> statement-breakpoint`) and against drizzle's own table of applied migrations (`__drizzle_migrations`,
 * `drizzle.__drizzle_migrations` on PostgreSQL: hash and created_at = the journal's `when`), so that databases
 * migrated before keep their history. Unlike drizzle's migrator, each migration runs in a transaction of its own,
 * its guards can refuse it with a message, and a failure names the file, the statement and the database's error.
 */

export interface MigrationFile {
  tag: string;
  /** the journal's `when`: drizzle records it as created_at */
  when: number;
  /** the SQL file's path */
  file: string;
  sql: string;
  hash: string;
  /** statement chunks, in order; comment-only chunks are left out */
  statements: string[];
}

export interface AppliedRow {
  hash: string;
  createdAt: number;
}

export interface MigrationStatus {
  applied: { tag: string; when: number }[];
  pending: { tag: string; when: number }[];
}

/** the migrations of one dialect's folder (migrations/<dialect>), in journal order */
export function readMigrations(dir: string): MigrationFile[] {
  const journalPath = join(dir, 'meta', '_journal.json');
  if (!existsSync(journalPath)) return [];
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string; when: number }[] };
  return journal.entries.map((e) => {
    const file = join(dir, `${e.tag}.sql`);
    if (!existsSync(file)) throw new Error(`The journal ${journalPath} lists ${e.tag}, but ${file} is missing`);
    const sql = readFileSync(file, 'utf8');
    return {
      tag: e.tag, when: e.when, file, sql,
      hash: createHash('sha256').update(sql).digest('hex'),
      statements: sql.split('--> statement-breakpoint').filter((s) => !isBlank(s)),
    };
  });
}

const isBlank = (chunk: string) => chunk.split('\n').every((l) => !l.trim() || l.trim().startsWith('--'));

/**
 * drizzle's rule: a migration is pending when its `when` is later than the last applied one's; and, beyond it, a
 * file whose very SQL (its hash) is applied already is not pending whatever its `when` (a migration rewritten and
 * put back byte for byte). When the last applied migration is no file's any more (changed or removed after it was
 * applied) nothing pending is run: it would run against a schema it does not expect.
 */
export function pendingOf(files: MigrationFile[], applied: AppliedRow[]): MigrationFile[] {
  const last = applied.length ? Math.max(...applied.map((a) => a.createdAt)) : undefined;
  const hashes = new Set(applied.map((a) => a.hash));
  const pending = files.filter((f) => !hashes.has(f.hash) && (last === undefined || f.when > last));
  if (pending.length && last !== undefined) {
    const latest = applied.find((a) => a.createdAt === last)!;
    if (!files.some((f) => f.hash === latest.hash)) {
      throw new Error(
        `the database's last applied migration (applied as ${new Date(last).toISOString()}) matches no file in migrations/: it was changed or removed after it was applied, so ${pending.map((f) => f.tag).join(', ')} would run against a schema it does not expect. Nothing was applied. Restore the applied migration (git checkout migrations/, or codegen with DATABASE_URL naming this database), then make the change as a new migration.`,
      );
    }
  }
  return pending;
}

export function statusOf(files: MigrationFile[], applied: AppliedRow[]): MigrationStatus {
  const pending = new Set(pendingOf(files, applied));
  return {
    applied: files.filter((f) => !pending.has(f)).map((f) => ({ tag: f.tag, when: f.when })),
    pending: files.filter((f) => pending.has(f)).map((f) => ({ tag: f.tag, when: f.when })),
  };
}

/** `-- guard: <message>` heads a statement that counts rows the migration cannot keep */
export function guardOf(statement: string): string | undefined {
  return /^-- guard: (.*)$/m.exec(statement)?.[1];
}

/**
 * A dry run rehearses the pending migrations in one transaction that it always rolls back, so that every guard
 * reads the rows as the real run would find them: a migration before the last pending one runs whole (a later
 * one's guards read what it changed); the last runs only up to its last guard (the renames before its guards,
 * and the guards). How far the i-th of `pending` runs:
 */
export function rehearsedUpTo(pending: MigrationFile[], i: number): number {
  const m = pending[i];
  if (i < pending.length - 1) return m.statements.length;
  return m.statements.findLastIndex((s) => guardOf(s) !== undefined) + 1;
}

/** the row a guard's SELECT answers: how many rows fail, an example value, the example's row id */
export interface GuardRow {
  failing: number | string | null;
  example?: unknown;
  row?: unknown;
  /** a values guard's: the rule the example breaks, as the API words it */
  reason?: string;
}

/**
 * `-- guard-values: {"field", "kind", "schema"}` under a guard's message: its SELECT answers every stored value it
 * holds to a field's rule ("row", "value"), and the rule (the JSON Schema a written value passes: a pattern, a
 * length, a format, a json field's schema) is checked here, as the API checks a written value, on both databases
 * alike (a database's regular expressions are not JavaScript's).
 */
export interface ValuesGuard {
  field: string;
  kind: string;
  schema: Record<string, unknown>;
}

export function valuesGuardOf(statement: string): ValuesGuard | undefined {
  const line = /^-- guard-values: (.*)$/m.exec(statement)?.[1];
  return line ? (JSON.parse(line) as ValuesGuard) : undefined;
}

const MAX_EXAMPLE = 60;
const exampleOf = (v: unknown) => {
  const text = typeof v === 'string' ? v : JSON.stringify(v);
  return text.length > MAX_EXAMPLE ? `${text.slice(0, MAX_EXAMPLE)}…` : text;
};

/** a values guard's answer from the rows its SELECT gave: how many break the rule, the first of them and why */
export function valuesGuardRow(spec: ValuesGuard, rows: { row: unknown; value: unknown }[], dialect: 'sqlite' | 'pg'): GuardRow {
  let failing = 0;
  let first: Omit<GuardRow, 'failing'> | undefined;
  for (const r of rows) {
    let value = r.value;
    // SQLite keeps a json field as its text; PostgreSQL's driver reads jsonb as the value
    if (spec.kind === 'json' && dialect === 'sqlite' && typeof value === 'string') {
      try {
        value = JSON.parse(value);
      } catch {
        // not JSON: held to the rule as the text it is
      }
    }
    const cause = valueCause(spec.schema, spec.field, value);
    if (!cause) continue;
    failing++;
    first ??= { example: exampleOf(r.value), row: r.row, reason: cause.message };
  }
  return { failing, ...first };
}

const shown = (file: string) => {
  const r = relative(process.cwd(), file);
  return !r.startsWith('..') && !isAbsolute(r) ? r : file;
};

/**
 * A migration refused by its guards (every guard that found rows, `reasons`), or failed by the database; nothing of
 * it was applied.
 */
export class MigrationError extends Error {
  /** a refused migration: each failing guard's message; a failed one: the database's error alone */
  public reasons: string[];
  constructor(
    public file: string,
    public statementIndex: number,
    public statement: string,
    reason: string | string[],
    public refused: boolean,
  ) {
    const reasons = typeof reason === 'string' ? [reason] : reason;
    super(
      refused
        ? reasons.length === 1
          ? `Migration ${shown(file)} refused: ${reasons[0]}.\nNothing of it was applied; the database is as it was before it.`
          : `Migration ${shown(file)} refused for ${reasons.length} reasons:\n${reasons.map((r) => `- ${r}.`).join('\n')}\nNothing of it was applied; the database is as it was before it.`
        : `Migration ${shown(file)} failed at statement ${statementIndex + 1}:\n` +
            statement.split('\n').filter((l) => !l.trim().startsWith('--')).map((l) => '  ' + l).join('\n') +
            `\n${reasons.join('\n')}\nNothing of it was applied; the database is as it was before it.`,
    );
    this.name = 'MigrationError';
    this.reasons = reasons;
  }

  /** every reason, one per line: what a refused migration found */
  get reason(): string {
    return this.reasons.join('\n');
  }
}

/**
 * Runs a migration's guards as its statements come, collecting the failures: the guards stand together near the
 * start of a migration, so every one of them runs before the migration is refused, and the refusal names each
 * (refused before the first statement after a failed guard that is not a guard, so nothing after them runs).
 */
export class GuardRun {
  private failures: string[] = [];
  private first = -1;
  constructor(
    private file: string,
    private dialect: 'sqlite' | 'pg',
  ) {}
  /** a guard's answer (the rows its SELECT gave); false when it found rows the migration cannot keep */
  record(index: number, statement: string, rows: unknown[]): boolean {
    const message = guardOf(statement)!;
    const values = valuesGuardOf(statement);
    const row = values ? valuesGuardRow(values, rows as { row: unknown; value: unknown }[], this.dialect) : (rows[0] as GuardRow | undefined);
    const failure = guardFailure(message, row);
    if (!failure) return true;
    if (this.first < 0) this.first = index;
    this.failures.push(failure);
    return false;
  }
  /** throws the refusal, naming every failed guard, when any failed */
  check(statements: string[]) {
    if (this.failures.length) throw new MigrationError(this.file, this.first, statements[this.first], this.failures, true);
  }
}

/** the guard's message with its counts filled in, when it fails; undefined when it passes */
export function guardFailure(message: string, row: GuardRow | undefined): string | undefined {
  const failing = Number(row?.failing ?? 0);
  if (!failing) return undefined;
  const example = row?.example === null || row?.example === undefined ? '' : String(row.example);
  return message
    .replace('{failing}', String(failing))
    // a unique guard's list is quoted already: 'x' (2 rows), or ('x', 'y') (2 rows) for a group
    .replace('{example}', /^\(?'/.test(example) ? example : `'${example}'`)
    .replace('{row}', String(row?.row ?? '?'))
    .replace('{reason}', row?.reason ?? '');
}

/** the database's own words for an error: message, and code or detail when it gives them */
export function databaseError(dialect: 'sqlite' | 'pg', e: unknown): string {
  const err = e as { message?: string; code?: string; detail?: string; cause?: unknown };
  const inner = (err.cause as typeof err | undefined)?.message ? (err.cause as typeof err) : err;
  const who = dialect === 'pg' ? 'PostgreSQL' : 'SQLite';
  return `${who} said: ${inner.message}` + (inner.code ? ` (${inner.code})` : '') + (inner.detail ? `\n${inner.detail}` : '');
}
