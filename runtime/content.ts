import { asc } from 'drizzle-orm';
import type { Entity, Model } from '../engine/model.js';
import type { Repository } from './crud/repository.js';
import { isEmpty } from './seed.js';
import { validateBody } from './crud/validate.js';
import { HttpError } from './http/errors.js';

type Row = Record<string, unknown>;

export const CONTENT_FORMAT = 'manifest-platform-content';

/** a snapshot of every row of every entity: ids, references and timestamps kept; secrets never */
export interface ContentSnapshot {
  format: typeof CONTENT_FORMAT;
  version: 1;
  exportedAt: string;
  /** the dialect it was read from, for the record */
  from: 'sqlite' | 'pg';
  /** rows per entity id, in an order where every row's references come before it */
  entities: Record<string, Row[]>;
}

/** entity ids ordered so that every reference points at an entity earlier in the list */
export function dependencyOrder(model: Model): string[] {
  const out: string[] = [];
  const visit = (id: string, path: Set<string>) => {
    if (out.includes(id) || path.has(id)) return;
    path.add(id);
    for (const f of model.byId[id].fields) if (f.kind === 'reference' && f.target !== id) visit(f.target!, path);
    out.push(id);
  };
  for (const e of model.entities) visit(e.id, new Set());
  return out;
}

/**
 * An entity whose rows cannot exist without a secret (a session is its refresh-token hash) is not content:
 * it is left out, and after a move everyone signs in again. Other rows travel without their secret fields
 * (identities without their passwords: a moved account sets a new one through 'forgot password').
 */
export const isContent = (entity: Entity) => !entity.fields.some((f) => f.secret && f.required);

const toJson = (row: Row): Row => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v instanceof Date ? v.toISOString() : v]));

/**
 * Every row of every entity, through the repository's columns: secret fields (passwords, salts, codes, token
 * hashes) are never selected. Files are exported by reference (their url or stored name), not their bytes.
 */
export async function exportContent(repo: Repository): Promise<ContentSnapshot> {
  const entities: Record<string, Row[]> = {};
  for (const id of dependencyOrder(repo.model)) {
    const entity = repo.model.byId[id];
    if (!isContent(entity)) continue;
    const t = repo.table(entity);
    const rows: Row[] = await repo.database.db.select(repo.columns(entity)).from(t).orderBy(asc(t.createdAt), asc(t.id));
    if (rows.length) entities[id] = rows.map(toJson);
  }
  return { format: CONTENT_FORMAT, version: 1, exportedAt: new Date().toISOString(), from: repo.database.dialect, entities };
}

export class ContentError extends Error {}

/**
 * Loads a snapshot into an empty database (migrated, nothing else), in one transaction: ids, references and
 * timestamps as they were. A restore is not a write by a user: rows go in as they are, without entity hooks
 * (no mail for old CRM requests) and without generating anything. Refused, with nothing written, when the
 * database holds rows, the file is not a snapshot, or it names an entity or field this model lacks.
 */
export async function importContent(repo: Repository, snapshot: unknown, onProgress?: (done: number, total: number, entity: string) => void): Promise<number> {
  const s = snapshot as ContentSnapshot;
  if (!s || s.format !== CONTENT_FORMAT || s.version !== 1 || typeof s.entities !== 'object') throw new ContentError(`not a content snapshot (expected "format": "${CONTENT_FORMAT}", "version": 1)`);
  const model = repo.model;
  for (const [id, rows] of Object.entries(s.entities)) {
    const entity = model.byId[id];
    if (!entity) throw new ContentError(`the snapshot holds rows of '${id}', which this model has no manifest for`);
    if (!isContent(entity)) throw new ContentError(`'${id}' is not content (its rows need a secret) and cannot be imported`);
    const names = new Set(entity.fields.map((f) => f.name));
    const secrets = new Set(entity.fields.filter((f) => f.secret).map((f) => f.name));
    for (const row of rows) for (const k of Object.keys(row)) if (!names.has(k) || secrets.has(k)) throw new ContentError(`'${id}' has no field '${k}' to import (row ${String(row.id)})`);
    // each row held to its manifest's rules, as the API holds a write (a hand-edited file could store what no
    // write may: a negative count, a slug with spaces, a required field missing)
    for (const [i, row] of rows.entries()) {
      const { id: rowId, createdAt: _c, updatedAt: _u, ...fields } = row;
      try {
        validateBody(entity, model, 'create', fields);
      } catch (e) {
        if (!(e instanceof HttpError)) throw e;
        const cause = e.causes?.[0];
        throw new ContentError(`${id} row ${String(rowId ?? `#${i + 1}`)}: ${cause ? `${cause.field} breaks its rule '${cause.rule}': ${cause.message}` : e.message}`);
      }
    }
  }
  if (!(await isEmpty(repo))) throw new ContentError('the database is not empty: import into a new database (it is migrated first), then start the server');
  const total = Object.values(s.entities).reduce((n, rows) => n + rows.length, 0);
  let done = 0;
  await repo.database.transaction(async (tx) => {
    for (const id of dependencyOrder(model)) {
      const rows = s.entities[id];
      if (!rows?.length) continue;
      const entity = model.byId[id];
      const dates = entity.fields.filter((f) => f.kind === 'datetime').map((f) => f.name);
      const values = rows.map((r) => {
        const v: Row = { ...r };
        for (const d of dates) if (typeof v[d] === 'string') v[d] = new Date(v[d] as string);
        return v;
      });
      // in chunks: SQLite binds at most 32766 parameters per statement
      const chunk = Math.max(1, Math.floor(2000 / entity.fields.length));
      for (let i = 0; i < values.length; i += chunk) {
        try {
          await tx.insert(repo.table(entity)).values(values.slice(i, i + chunk));
        } catch (e) {
          // the database's own words (a reference to a row the file lacks, a duplicate), never the statement and
          // its parameters (every value of the chunk: emails among them)
          const reason = ((e as { cause?: Error }).cause?.message ?? (e as Error).message).split('\n')[0];
          throw new ContentError(`${id}: rows ${i + 1} to ${Math.min(i + chunk, values.length)} were refused by the database (${reason}); nothing was imported`);
        }
        done += Math.min(chunk, values.length - i);
        onProgress?.(done, total, id);
      }
    }
  });
  return total;
}
