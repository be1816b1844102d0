import type { Entity } from '../../engine/model.js';

/** One reason a request failed, naming the field and the rule where there is one */
export interface Cause {
  message: string;
  field?: string;
  rule?: string;
}

/**
 * An error the client can act on. Serialized as `{ message, status, cause? }`.
 * @example throw new HttpError(400, 'id is required')
 */
export class HttpError extends Error {
  constructor(
    public status: number,
    message: string,
    public causes?: Cause[],
    /** headers the answer carries, e.g. Retry-After on a 429 */
    public headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string, causes?: Cause[]) => new HttpError(400, message, causes);
export const notFound = (entity: Entity, id: string) => new HttpError(404, `No ${entity.id} with id ${id}`);

interface DbError {
  code?: string;
  message?: string;
  constraint?: string;
  detail?: string;
  /** PostgreSQL: the table the failing statement wrote */
  table?: string;
  cause?: DbError;
}

/** PostgreSQL's detail of a foreign-key violation by an insert or update: `Key (category_id)=(…) is not present in table "…".` */
const MISSING_KEY = /^Key \(([^)]+)\)=\((.*)\) is not present in table /s;
/** an id as this app writes it: the one value a missing-reference answer repeats, as the app's own check does */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Turns a database constraint error into a 409 naming the field (`prefix`: the row's place in a bulk, `data[1]`);
 * anything else stays unknown (500). A reference to a row that does not exist (PostgreSQL's 23503 on an insert or
 * update, when the target was deleted between the app's own check and the write) is the 400 that check gives
 * (`Repository.checkReferences`: rule `reference`); other rows still referencing a deleted one stay a 409.
 * The messages carry field names only, never the stored values of other rows.
 */
export function fromDatabaseError(e: unknown, entity?: Entity, prefix?: string): HttpError | undefined {
  let err = e as DbError;
  while (err && !err.code && err.cause) err = err.cause; // drizzle wraps driver errors
  if (!err?.code) return undefined;
  // named as validation names them: within the row's place in a bulk (`data[1].slug`)
  const fieldOfColumn = (column: string) => `${prefix ? prefix + '.' : ''}${entity?.fields.find((f) => f.column === column)?.name ?? column}`;
  if (err.code === 'SQLITE_CONSTRAINT_UNIQUE' || err.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || err.code === '23505') {
    let columns: string[] = [];
    const sqlite = /UNIQUE constraint failed: (.+)$/.exec(err.message ?? '');
    if (sqlite) columns = sqlite[1].split(', ').map((c) => c.split('.').pop()!);
    const pgDetail = /^Key \(([^)]+)\)=/.exec(err.detail ?? '');
    if (pgDetail) columns = pgDetail[1].split(', ').map((c) => c.replace(/"/g, ''));
    const fields = columns.map(fieldOfColumn);
    const message = fields.length ? `${fields.join(', ')} must be unique: another row already has this value` : 'a unique value is already taken';
    return new HttpError(409, message, fields.map((field) => ({ message: `${field} is already taken`, field, rule: 'unique' })));
  }
  if (err.code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || err.code === '23503') {
    const missing = err.code === '23503' ? MISSING_KEY.exec(err.detail ?? '') : null;
    const column = missing?.[1].replace(/"/g, '');
    const own = column && entity && (!err.table || err.table === entity.table) ? entity.fields.find((f) => f.column === column && f.kind === 'reference') : undefined;
    if (own) {
      // the row being written points at a row that is gone: named as the app's own check names it
      const field = fieldOfColumn(column!);
      const target = own.target ?? 'row';
      const message = UUID.test(missing![2]) ? `${field}: no ${target} with id ${missing![2].toLowerCase()}` : `${field}: no ${target} with this id`;
      return badRequest(message, [{ field, rule: 'reference', message }]);
    }
    return new HttpError(409, 'a referenced row does not exist, or other rows still reference this one');
  }
  if (err.code === 'SQLITE_CONSTRAINT_NOTNULL' || err.code === '23502') {
    const col = /NOT NULL constraint failed: \S+\.(\w+)/.exec(err.message ?? '')?.[1] ?? /column "(\w+)"/.exec(err.message ?? '')?.[1];
    const field = col ? fieldOfColumn(col) : undefined;
    return badRequest(`${field ?? 'a field'} is required`, field ? [{ message: `${field} is required`, field, rule: 'required' }] : undefined);
  }
  return undefined;
}
