import type { Field, FieldKind, Model } from '../model.js';
import { snake } from '../model.js';
import { notNull } from './drizzle.js';
import { handlerOf } from '../fields/index.js';

/**
 * What the database holds, per table and column, in the manifests' terms: the kind of each column (SQLite
 * stores several kinds in one SQL type, so the drizzle snapshots alone cannot tell a boolean from an integer),
 * whether it is NOT NULL, unique, its default and its target. Kept beside the migrations as
 * migrations/model.json so that the next codegen knows what a change converts from.
 */
export interface ColumnState {
  field: string;
  kind: FieldKind;
  /** text stored as a uuid (format uuid) */
  uuid?: boolean;
  notNull: boolean;
  unique: boolean;
  /** indexed on its own (manifest `index`) */
  index?: boolean;
  default?: unknown;
  /** a reference's target table */
  target?: string;
  values?: string[];
  /**
   * The rule a stored value keeps, as the JSON Schema a written value must pass (pattern, length, format, minimum
   * and maximum, a json field's schema), for the kinds whose stored values read as written (RULED_KINDS); `{}` for
   * the others. Absent in a state written before rules were kept: then a rule's change is not known.
   */
  rules?: Record<string, unknown>;
}

/** the kinds whose stored values a guard can hold to their JSON Schema as they are read */
export const RULED_KINDS: readonly FieldKind[] = ['text', 'integer', 'number', 'json'];

/** a field's rule as ColumnState keeps it */
export function rulesOf(f: Field, model: Model): Record<string, unknown> {
  return RULED_KINDS.includes(f.kind) ? handlerOf(f).jsonSchema(f, model) : {};
}

export interface TableState {
  entity: string;
  file: string;
  columns: Record<string, ColumnState>;
  /** composite unique groups, as column names */
  unique: string[][];
}

export interface ModelState {
  tables: Record<string, TableState>;
}

export function stateOf(model: Model): ModelState {
  const tables: Record<string, TableState> = {};
  for (const e of model.entities) {
    const columns: Record<string, ColumnState> = {};
    for (const f of e.fields) {
      columns[f.column] = {
        field: f.name,
        kind: f.kind,
        ...(f.kind === 'text' && f.format === 'uuid' && { uuid: true }),
        notNull: notNull(f),
        unique: !!f.unique,
        ...(f.index && { index: true }),
        ...(f.default !== undefined && { default: f.default }),
        ...(f.target && { target: model.byId[f.target]?.table ?? snake(f.target.replace('/', '_')) }),
        ...(f.kind === 'enum' && { values: f.values }),
        rules: rulesOf(f, model),
      };
    }
    tables[e.table] = {
      entity: e.id,
      file: e.file,
      columns,
      unique: e.unique.map((g) => g.map((n) => e.fields.find((f) => f.name === n)!.column)),
    };
  }
  return { tables };
}

type PgSnapshot = {
  tables: Record<string, {
    name: string;
    columns: Record<string, { name: string; type: string; notNull?: boolean; default?: unknown }>;
    indexes: Record<string, { columns: { expression: string }[]; isUnique: boolean }>;
    foreignKeys: Record<string, { tableTo: string; columnsFrom: string[] }>;
  }>;
};

const PG_KINDS: Record<string, FieldKind> = {
  text: 'text', integer: 'integer', 'double precision': 'number', boolean: 'boolean', jsonb: 'json',
  'timestamp (3) with time zone': 'datetime', date: 'date', uuid: 'text',
};

/**
 * The state a project's migrations reached before migrations/model.json existed, read from the PostgreSQL
 * snapshot (the one whose SQL types tell most kinds apart). A column whose type still fits the manifest's kind
 * is taken to have that kind; any other gets the kind its SQL type stores.
 */
export function inferState(pg: PgSnapshot, model: Model, pgType: (table: string, column: string) => string | undefined): ModelState {
  const byTable = new Map(model.entities.map((e) => [e.table, e]));
  const current = stateOf(model);
  const tables: Record<string, TableState> = {};
  for (const t of Object.values(pg.tables)) {
    const e = byTable.get(t.name);
    const columns: Record<string, ColumnState> = {};
    for (const c of Object.values(t.columns)) {
      const now = current.tables[t.name]?.columns[c.name];
      const fk = Object.values(t.foreignKeys).find((k) => k.columnsFrom.length === 1 && k.columnsFrom[0] === c.name);
      const unique = Object.values(t.indexes).some((i) => i.isUnique && i.columns.length === 1 && i.columns[0].expression === c.name);
      const fits = now && pgType(t.name, c.name) === c.type;
      columns[c.name] = fits
        ? { ...now, notNull: !!c.notNull, unique }
        : {
            field: now?.field ?? c.name.replace(/_([a-z0-9])/g, (_, x: string) => x.toUpperCase()),
            kind: fk ? 'reference' : PG_KINDS[c.type] ?? 'text',
            ...(c.type === 'uuid' && !fk && { uuid: true }),
            notNull: !!c.notNull,
            unique,
            ...(fk && { target: fk.tableTo.replace(/^public\./, '') }),
          };
    }
    tables[t.name] = {
      entity: e?.id ?? t.name,
      file: e?.file ?? t.name,
      columns,
      unique: Object.values(t.indexes).filter((i) => i.isUnique && i.columns.length > 1).map((i) => i.columns.map((c) => c.expression)),
    };
  }
  return { tables };
}
