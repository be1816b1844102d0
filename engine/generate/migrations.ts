import { existsSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { Entity, Field, Model } from '../model.js';
import { isBackfillMatch, snake } from '../model.js';
import type { Dialect } from '../fields/index.js';
import type { ManifestProblem } from '../load.js';
import { conversion, isIdentity, literal, PG_CASTABLE, quote, shown, storageOf, type Conversion } from './conversions.js';
import { inferState, RULED_KINDS, rulesOf, stateOf, type ColumnState, type ModelState } from './state.js';

/**
 * The next migration, planned in memory for both dialects at once: what changed between the state the committed
 * migrations reached and the manifests, every check that could refuse it, and the files to write. Nothing is
 * written here; codegen writes the files together with generated/, or nothing.
 *
 * A migration runs, in this order: column renames (`renamedFrom`); guards, which count the rows a change cannot
 * keep (values that do not convert, duplicates under a new unique, rows a required reference finds no target
 * for) and refuse the migration naming how many and an example; drops; additions (a new required column that
 * needs a backfill is added nullable first); backfills; then the changes drizzle-kit diffs (types, NOT NULL,
 * defaults, indexes), with the explicit conversion of every changed column (PostgreSQL's `USING`, SQLite's
 * table rebuild selecting the converted value).
 */

export const DIALECTS = ['sqlite', 'pg'] as const;

type Column = { name: string; type: string; notNull?: boolean; default?: unknown; primaryKey?: boolean };
type Table = {
  name: string;
  columns: Record<string, Column>;
  indexes: Record<string, { name: string; columns: (string | { expression: string })[]; isUnique?: boolean }>;
  foreignKeys: Record<string, { name: string; tableTo: string; columnsFrom: string[] }>;
} & Record<string, unknown>;
export type Snapshot = { id: string; prevId: string; tables: Record<string, Table> } & Record<string, unknown>;
export interface JournalEntry {
  idx: number;
  version: string;
  when: number;
  tag: string;
  breakpoints: boolean;
}
export interface Journal {
  version: string;
  dialect: string;
  entries: JournalEntry[];
}
/** migrations/model.json: the state the last migration reached, and the one before it */
export interface ModelStateFile {
  $comment?: string;
  migration: string;
  tables: ModelState['tables'];
  previous: ModelState['tables'] | null;
}

type Kit = {
  snapshot(tables: Record<string, unknown>, prev?: string): Promise<Snapshot>;
  diff(a: Snapshot, b: Snapshot): Promise<string[]>;
  version: string;
  name: string;
};

let api: typeof import('drizzle-kit/api') | undefined;
export async function kit(dialect: Dialect): Promise<Kit> {
  api ??= await import('drizzle-kit/api');
  const a = api;
  return dialect === 'pg'
    ? { snapshot: async (t, prev) => a.generateDrizzleJson(t, prev) as unknown as Snapshot, diff: (x, y) => a.generateMigration(x as never, y as never), version: '7', name: 'postgresql' }
    : { snapshot: async (t, prev) => (await a.generateSQLiteDrizzleJson(t, prev)) as unknown as Snapshot, diff: (x, y) => a.generateSQLiteMigration(x as never, y as never), version: '6', name: 'sqlite' };
}

const bare = (name: string) => name.replace(/^public\./, '');
const tableKey = (d: Dialect, table: string) => (d === 'pg' ? `public.${table}` : table);
const comparable = (s: Snapshot) => JSON.stringify({ ...s, id: '', prevId: '' });
const q = (name: string) => `"${name.replace(/"/g, '""')}"`;
const colName = (x: string | { expression: string }) => (typeof x === 'string' ? x : x.expression);

/** What a diff would drop: whole tables and columns of kept tables */
function drops(prev: Snapshot, cur: Snapshot) {
  const tables = Object.keys(prev.tables).filter((t) => !cur.tables[t]);
  const columns: [string, string][] = [];
  for (const [t, table] of Object.entries(prev.tables)) {
    if (!cur.tables[t]) continue;
    for (const c of Object.keys(table.columns)) if (!cur.tables[t].columns[c]) columns.push([t, c]);
  }
  return { tables, columns };
}

/** prev with the dropped tables and columns (and the indexes and keys on them) taken out */
function withoutDrops(prev: Snapshot, d: ReturnType<typeof drops>): Snapshot {
  const next: Snapshot = structuredClone(prev);
  for (const t of d.tables) delete next.tables[t];
  for (const [t, c] of d.columns) {
    const table = next.tables[t];
    const name = table.columns[c].name;
    delete table.columns[c];
    for (const [k, i] of Object.entries(table.indexes)) if (i.columns.some((x) => colName(x) === name)) delete table.indexes[k];
    for (const [k, f] of Object.entries(table.foreignKeys)) if (f.columnsFrom.includes(name)) delete table.foreignKeys[k];
  }
  for (const table of Object.values(next.tables))
    for (const [k, f] of Object.entries(table.foreignKeys))
      if (d.tables.some((t) => bare(t) === bare(f.tableTo))) delete table.foreignKeys[k];
  return next;
}

/** base plus the tables and the columns that cur adds, and nothing else of cur's changes; `staged` columns come nullable */
function withAdditions(base: Snapshot, cur: Snapshot, staged: Set<string>): Snapshot {
  const next: Snapshot = structuredClone(base);
  for (const [t, table] of Object.entries(cur.tables)) {
    if (!next.tables[t]) next.tables[t] = structuredClone(table);
    else {
      for (const [c, col] of Object.entries(table.columns)) {
        if (next.tables[t].columns[c]) continue;
        const copy = structuredClone(col);
        if (staged.has(`${bare(t)}.${c}`)) {
          copy.notNull = false;
          delete copy.default;
        }
        next.tables[t].columns[c] = copy;
      }
    }
  }
  return next;
}

/** the snapshot as if a column had always had its new name (the rename itself is a statement of its own) */
function renameInSnapshot(s: Snapshot, table: string, from: string, to: string) {
  const t = s.tables[table];
  if (!t?.columns[from]) return;
  const col = t.columns[from];
  delete t.columns[from];
  t.columns[to] = { ...col, name: to };
  for (const i of Object.values(t.indexes)) i.columns = i.columns.map((x) => (typeof x === 'string' ? (x === from ? to : x) : x.expression === from ? { ...x, expression: to } : x));
  for (const f of Object.values(t.foreignKeys)) f.columnsFrom = f.columnsFrom.map((x) => (x === from ? to : x));
}

/**
 * the snapshot as if a table had always had its new name, the foreign keys of other tables pointing at it included
 * (the rename itself is a statement of its own; what is named after the table, its indexes and keys, drizzle-kit
 * then renames as any other change)
 */
function renameTableInSnapshot(s: Snapshot, d: Dialect, from: string, to: string) {
  const t = s.tables[tableKey(d, from)];
  if (!t) return;
  delete s.tables[tableKey(d, from)];
  s.tables[tableKey(d, to)] = { ...t, name: to };
  for (const table of Object.values(s.tables)) for (const f of Object.values(table.foreignKeys)) if (bare(f.tableTo) === from) f.tableTo = to;
}

/**
 * PostgreSQL keeps a renamed table's primary key (and its index) under the old table's name, `<old>_pkey`, which a
 * fresh database built from the manifests would not have, and which holds the name a new table on the old route
 * would take. So a rename is followed by this: the key takes the name PostgreSQL gives a new table's key (the table's
 * name cut to fit 63 bytes with `_pkey`), whatever it was called (a table renamed before this, twice), unless that
 * name is taken. The other constraints and indexes are named in drizzle-kit's snapshot, and its diff remakes them
 * under the new names.
 */
function pgPrimaryKeyRename(table: string): string {
  const key = `${table.slice(0, 63 - '_pkey'.length)}_pkey`;
  return `DO $$ DECLARE k text; BEGIN
  SELECT conname INTO k FROM pg_constraint WHERE conrelid = '"${table}"'::regclass AND contype = 'p';
  IF k <> '${key}' AND to_regclass('"${key}"') IS NULL THEN EXECUTE format('ALTER TABLE %I RENAME CONSTRAINT %I TO %I', '${table}', k, '${key}'); END IF;
END $$;`;
}

function readJson<T>(path: string): T | undefined {
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as T) : undefined;
}

/** the last migration, when codegen may still replace it */
export interface LastMigration {
  tag: string;
  when: number;
  /** its SQL files, one per dialect */
  files: string[];
}

export interface PlannedMigration {
  /** '0002_gizmo_gadget_add_colour'; for a removal, the tag removed */
  tag: string;
  /** one line per entity: what changes */
  changes: string[];
  statements: Record<Dialect, string[]>;
  /** the unapplied migration this one replaces */
  replaced?: string;
  /** the manifests are back where they were before the unapplied last migration, which is removed */
  removed?: boolean;
  /** path → content, or null to delete */
  files: Map<string, string | null>;
  /**
   * what to keep beside it (codegen keeps it in generated/, which is not committed) so that removing it while it is
   * unapplied puts back every file it changed as it was; null: nothing to keep (it was removed, or what it replaced
   * is not known)
   */
  undo: MigrationUndo | null;
  /** a removal: whether the files were put back as they were before it (false: no record of them was kept) */
  restored?: boolean;
}

/**
 * The files a migration changed, as they were before it: path (under the migrations folder) → content, or null
 * where there was none. A new migration overwrites meta/previous.json and model.json's `previous` (what the
 * migration before it started from); removing it while it is unapplied puts them back byte for byte from this.
 */
export interface MigrationUndo {
  /** the migrations folder (absolute) */
  dir: string;
  tag: string;
  when: number;
  files: Record<string, string | null>;
}

interface Change {
  table: string;
  entity: string;
  verb: 'create' | 'drop' | 'add' | 'rename' | 'change';
  field?: string;
  detail?: string;
}

interface Guard {
  message: string;
  sql: Record<Dialect, string>;
  castable?: boolean;
  /** a values guard (runtime/db/migrator.ts ValuesGuard): its SELECT gives each value, held to this rule as it is read */
  values?: { field: string; kind: string; schema: Record<string, unknown> };
}

interface Backfill {
  table: string;
  column: string;
  /** SQL of the value, per dialect */
  value: Record<Dialect, string>;
  /** a text that refuses "" (required, not allowEmpty): the rows holding "" are without a value too */
  empty?: boolean;
}

/**
 * A text field that holds "" only as "no value": made required, it refuses "" (the JSON Schema's minLength 1) unless
 * the manifest allows empty, so the stored rows holding "" get its backfill or default as those holding null do.
 */
const refusesEmpty = (f: Field) => f.kind === 'text' && f.format !== 'uuid' && (!f.allowEmpty || (f.minLength ?? 0) >= 1);

/** the rows a field made required fills: null, and "" for a text that refuses it (`value` is the value as converted) */
const withoutValue = (c: string, value: string, empty: boolean | undefined) => (empty ? `(${c} IS NULL OR ${value} = '')` : `${c} IS NULL`);

/**
 * Plans the next migration from the tables codegen generated for each dialect. Returns undefined when the
 * manifests describe what the migrations already reach; otherwise the migration and its files. Problems that
 * refuse it (drops without `allowDestructive`, a required field without a value for the stored rows, a kind
 * change that cannot convert) are pushed to `problems`, all of them.
 */
export async function planMigration(opts: {
  model: Model;
  tables: Record<Dialect, Record<string, unknown>>;
  /** migrations root: <dir>/sqlite, <dir>/pg, <dir>/model.json */
  dir: string;
  allowDestructive?: boolean;
  /** whether the last migration is unapplied and may be replaced (codegen's caller decides, see docs/MIGRATIONS.md) */
  canReplace?: (last: LastMigration) => boolean | Promise<boolean>;
  /** what the unapplied last migration's files replaced (PlannedMigration.undo, as codegen kept it) */
  undo?: MigrationUndo;
  problems: ManifestProblem[];
}): Promise<PlannedMigration | undefined> {
  const { model, dir, problems } = opts;
  const kits = { sqlite: await kit('sqlite'), pg: await kit('pg') };
  const paths = (d: Dialect) => ({
    dir: join(dir, d),
    journal: join(dir, d, 'meta', '_journal.json'),
    snapshot: join(dir, d, 'meta', 'snapshot.json'),
    previous: join(dir, d, 'meta', 'previous.json'),
  });
  const modelPath = join(dir, 'model.json');
  const stateFile = readJson<ModelStateFile>(modelPath);
  const journals = {} as Record<Dialect, Journal>;
  const snaps = {} as Record<Dialect, Snapshot>;
  const previous = {} as Record<Dialect, Snapshot | undefined>;
  for (const d of DIALECTS) {
    journals[d] = readJson<Journal>(paths(d).journal) ?? { version: kits[d].version, dialect: kits[d].name, entries: [] };
    snaps[d] = readJson<Snapshot>(paths(d).snapshot) ?? (await kits[d].snapshot({}));
    previous[d] = readJson<Snapshot>(paths(d).previous);
  }
  const curState = stateOf(model);
  const current = async (base: Record<Dialect, Snapshot>) => {
    const out = {} as Record<Dialect, Snapshot>;
    for (const d of DIALECTS) out[d] = await kits[d].snapshot(opts.tables[d], base[d].id);
    return out;
  };
  let base = { snaps, state: undefined as ModelState | undefined, journals };
  let cur = await current(snaps);
  const knownState = (s: typeof base) => s.state ?? (stateFile && stateFile.migration === s.journals.pg.entries.at(-1)?.tag ? { tables: stateFile.tables } : undefined);
  const stateNow = (s: typeof base, c: Record<Dialect, Snapshot>): { state: ModelState; exact: boolean } => {
    const known = knownState(s);
    if (known) return { state: known, exact: true };
    const pgType = (t: string, col: string) => c.pg.tables[`public.${t}`]?.columns[col]?.type;
    return { state: inferState(s.snaps.pg as never, model, pgType), exact: false };
  };
  const differs = (s: typeof base, c: Record<Dialect, Snapshot>) => {
    if (DIALECTS.some((d) => comparable(s.snaps[d]) !== comparable(c[d]))) return true;
    const { state, exact } = stateNow(s, c);
    return exact && semanticChanges(state, curState).length > 0;
  };
  const changed = differs(base, cur);

  // the last migration, still unapplied, is replaced rather than followed by another; it is also planned again
  // when the manifests did not change the schema, since what it runs may have (a backfill rule, a rename)
  let replaced: JournalEntry | undefined;
  const last = journals.pg.entries.at(-1);
  const candidate = !!last && !!opts.canReplace && journals.sqlite.entries.at(-1)?.tag === last.tag && !!previous.sqlite && !!previous.pg && stateFile?.migration === last.tag;
  if (!changed && !candidate) return undefined;
  if (
    candidate &&
    (await opts.canReplace!({ tag: last!.tag, when: last!.when, files: DIALECTS.map((d) => join(paths(d).dir, `${last!.tag}.sql`)) }))
  ) {
    const lastEntry = last!;
    replaced = lastEntry;
    base = {
      snaps: { sqlite: previous.sqlite!, pg: previous.pg! },
      state: stateFile.previous ? { tables: stateFile.previous } : undefined,
      journals: Object.fromEntries(DIALECTS.map((d) => [d, { ...journals[d], entries: journals[d].entries.slice(0, -1) }])) as Record<Dialect, Journal>,
    };
    cur = await current(base.snaps);
    if (!differs(base, cur)) {
      // back to where the migrations were before the unapplied one: it goes, and every file it changed is as it was
      const files = new Map<string, string | null>();
      const kept = undoOf(opts.undo, dir, lastEntry, base);
      if (kept) {
        for (const [path, content] of Object.entries(kept.files)) files.set(join(dir, path), content);
        return { tag: lastEntry.tag, changes: [], statements: { sqlite: [], pg: [] }, replaced: lastEntry.tag, removed: true, files, undo: null, restored: true };
      }
      // no record of them: what the migrations reach is put back; what the one before started from is not known
      for (const d of DIALECTS) {
        files.set(join(paths(d).dir, `${lastEntry.tag}.sql`), null);
        files.set(paths(d).journal, JSON.stringify(base.journals[d], null, 2) + '\n');
        files.set(paths(d).snapshot, JSON.stringify(base.snaps[d], null, 2) + '\n');
        files.set(paths(d).previous, null);
      }
      const before = base.journals.pg.entries.at(-1)?.tag;
      files.set(modelPath, before && base.state ? stateJson(before, base.state, null) : null);
      return { tag: lastEntry.tag, changes: [], statements: { sqlite: [], pg: [] }, replaced: lastEntry.tag, removed: true, files, undo: null, restored: false };
    }
  } else if (!changed) return undefined;

  const { state: baseState } = stateNow(base, cur);
  const prevState: ModelState = structuredClone(baseState);
  const prev = structuredClone(base.snaps);
  const byTable = new Map(model.entities.map((e) => [e.table, e]));
  const fieldOf = (table: string, column: string) => byTable.get(table)?.fields.find((f) => f.column === column);
  const changes: Change[] = [];
  const firstProblem = problems.length;

  // tables renamed first (an entity's `renamedFrom`): from then on the old table has its new name
  const tableRenames: { from: string; to: string }[] = [];
  for (const e of model.entities) {
    const from = e.renamedFromTable;
    if (!from || !prevState.tables[from]) continue; // applied already, or never stored
    if (prevState.tables[e.table]) {
      problems.push({ file: e.file, path: '/renamedFrom', rule: 'rename', message: `cannot rename table ${from} to ${e.table}: both tables are stored; drop one first` });
      continue;
    }
    tableRenames.push({ from, to: e.table });
    prevState.tables[e.table] = { ...prevState.tables[from], entity: e.id, file: e.file };
    delete prevState.tables[from];
    for (const t of Object.values(prevState.tables)) for (const c of Object.values(t.columns)) if (c.target === from) c.target = e.table;
    for (const d of DIALECTS) renameTableInSnapshot(prev[d], d, from, e.table);
    changes.push({ table: e.table, entity: e.id, verb: 'rename', detail: `rename table ${from} to ${e.table}` });
  }

  // renames first: from then on the old column has its new name
  const renames: { table: string; from: string; to: string }[] = [];
  for (const e of model.entities) {
    const pt = prevState.tables[e.table];
    if (!pt) continue;
    for (const f of e.fields) {
      if (!f.renamedFrom) continue;
      const from = snake(f.renamedFrom);
      if (!pt.columns[from]) continue; // applied already, or never stored
      if (pt.columns[f.column]) {
        problems.push({ file: e.file, path: `/fields/${f.name}/renamedFrom`, rule: 'rename', message: `cannot rename ${e.table}.${from} to ${f.column}: both columns are stored; drop one first` });
        continue;
      }
      renames.push({ table: e.table, from, to: f.column });
      pt.columns[f.column] = { ...pt.columns[from], field: f.name };
      delete pt.columns[from];
      pt.unique = pt.unique.map((g) => g.map((c) => (c === from ? f.column : c)));
      for (const d of DIALECTS) renameInSnapshot(prev[d], tableKey(d, e.table), from, f.column);
      changes.push({ table: e.table, entity: e.id, verb: 'rename', field: f.name, detail: `rename ${f.renamedFrom} to ${f.name}` });
    }
  }

  // drops
  const dropped = drops(prev.pg, cur.pg);
  for (const t of dropped.tables) {
    const was = prevState.tables[bare(t)];
    changes.push({ table: bare(t), entity: was?.entity ?? bare(t), verb: 'drop' });
    if (!opts.allowDestructive) {
      // its manifest moved to another module's folder: the same name there, on a table not stored yet
      const [module, name] = (was?.entity ?? '').split('/');
      const moved = model.entities.find((e) => e.name === name && e.module !== module && !prevState.tables[e.table]);
      const renamedFrom = `${module}/${bare(t).slice(snake(module).length + 1).replaceAll('_', '-')}`;
      problems.push(moved
        ? {
            file: moved.file, path: '', rule: 'drop',
            message: `${was!.entity} (table ${bare(t)}) is no longer declared, and ${moved.id} is new: if its manifest moved here, add "renamedFrom": "${renamedFrom}" ` +
              `to keep its rows (its table is renamed to ${moved.table}); if ${was!.entity} is to go with its rows, run: npm run codegen -- --allow-destructive`,
          }
        : {
            file: was?.file ?? bare(t), path: '', rule: 'drop',
            message: `${was?.entity ?? 'the entity'} (table ${bare(t)}) is no longer declared: dropping it deletes its rows. If that is intended, run: npm run codegen -- --allow-destructive`,
          });
    }
  }
  for (const [t, c] of dropped.columns) {
    const e = byTable.get(bare(t));
    const was = prevState.tables[bare(t)]?.columns[c]?.field ?? c;
    changes.push({ table: bare(t), entity: e?.id ?? bare(t), verb: 'drop', field: was });
    if (!opts.allowDestructive) {
      problems.push({
        file: e?.file ?? bare(t), path: '/fields', rule: 'drop',
        message: `field '${was}' (column ${bare(t)}.${c}) is no longer declared: dropping it deletes its values. ` +
          `If it was renamed, add "renamedFrom": "${was}" to the new field; if it is to go, run: npm run codegen -- --allow-destructive`,
      });
    }
  }

  const guards: Guard[] = [];
  const conversions = new Map<string, Conversion>();
  const backfills = new Map<string, Backfill>();
  const staged = new Set<string>();
  const newTables = new Set(Object.keys(curState.tables).filter((t) => !prevState.tables[t]));
  const targetRows = (target: string | undefined) => (d: Dialect, value: string) =>
    !target || newTables.has(target) ? 'false' : `EXISTS (SELECT 1 FROM ${q(target)} WHERE ${q(target)}."id" = ${value})`;

  for (const e of model.entities) {
    const ct = curState.tables[e.table];
    const pt = prevState.tables[e.table];
    if (!pt) {
      changes.push({ table: e.table, entity: e.id, verb: 'create' });
      continue;
    }
    for (const f of e.fields) {
      const cc = ct.columns[f.column];
      const pc = pt.columns[f.column];
      const at = `/fields/${f.name}`;
      if (!pc) {
        changes.push({ table: e.table, entity: e.id, verb: 'add', field: f.name });
        if (!cc.notNull || f.common) continue;
        const value = f.backfill ?? f.default;
        if (value === undefined) {
          problems.push({ file: e.file, path: at, rule: 'migration', message: 'a new required field on an existing entity needs a "default" or a "backfill", so that the rows already stored get a value' });
          continue;
        }
        if (f.backfill !== undefined || f.kind === 'reference') {
          staged.add(`${e.table}.${f.column}`);
          backfills.set(`${e.table}.${f.column}`, backfillOf(e, f, model, guards, targetRows, true));
        }
        if (cc.unique) guards.push(sameValueGuard(e, f, true));
        continue;
      }
      const detail: string[] = [];
      const kindChanged = storageOf(pc) !== storageOf(cc) || pc.kind !== cc.kind;
      const narrowed = cc.kind === 'enum' && pc.kind === 'enum' && (pc.values ?? []).some((v) => !cc.values!.includes(v));
      const retargeted = cc.kind === 'reference' && pc.kind === 'reference' && pc.target !== cc.target;
      if (kindChanged || narrowed || retargeted) {
        const conv = conversion(pc, cc, { language: model.defaultLanguage, targetRows: targetRows(cc.target) });
        if (conv && 'refuse' in conv) {
          problems.push({ file: e.file, path: `${at}/kind`, rule: 'type-change', message: conv.refuse });
        } else if (conv) {
          conversions.set(`${e.table}.${f.column}`, conv);
          if (conv.fails) guards.push(conversionGuard(e, f, pc, cc, conv));
        }
        if (kindChanged) detail.push(`${pc.kind} → ${cc.kind}`);
        if (narrowed) detail.push(`values ${cc.values!.join(', ')}`);
        if (retargeted) detail.push(`to ${f.target}`);
      }
      // a conversion that leaves some rows of a required column without a value (a language map with no text in
      // the default language): the field's backfill or default fills them, or a guard refuses naming them
      const emptying = conversions.get(`${e.table}.${f.column}`);
      if (emptying?.empty && cc.notNull) {
        const fill = f.backfill ?? f.default;
        if (fill !== undefined) conversions.set(`${e.table}.${f.column}`, filledConversion(emptying, f, fill));
        else guards.push(emptyGuard(e, f, pc, cc, emptying));
      }
      if (cc.notNull && !pc.notNull) {
        const value = f.backfill ?? f.default;
        if (value === undefined) {
          problems.push({ file: e.file, path: `${at}/required`, rule: 'migration', message: `making '${f.name}' required needs a "default" or a "backfill" for the rows already stored without a value` });
        } else {
          const b = backfillOf(e, f, model, guards, targetRows, false);
          b.empty = refusesEmpty(f);
          backfills.set(`${e.table}.${f.column}`, b);
          if (cc.unique) guards.push(sameValueGuard(e, f, false, b.empty ? conversions.get(`${e.table}.${f.column}`) ?? null : undefined));
        }
        detail.push('now required');
      } else if (!cc.notNull && pc.notNull) detail.push('now optional');
      // a required text that no longer takes "": the rows holding it get the backfill (or default), as rows do when
      // a text is made required; without one, the rule's guard below names them
      const key = `${e.table}.${f.column}`;
      // (only when the rule itself changes so: a column that is not null for its default, and takes "", keeps its "")
      const refusedNow = Number(cc.rules?.minLength ?? 0) >= 1;
      if (cc.notNull && pc.notNull && !kindChanged && cc.kind === 'text' && !backfills.has(key) && refusedNow && pc.rules && !(Number(pc.rules.minLength ?? 0) >= 1) && (f.backfill ?? f.default) !== undefined) {
        backfills.set(key, { ...backfillOf(e, f, model, guards, targetRows, false), empty: true });
      }
      // a rule that changes (a pattern, a length, a format, a range, a json field's schema), or a kind whose rule the
      // stored values never kept: every stored value is held to the new rule, and the migration refused naming those
      // that break it (they are kept as they are until the rule allows them or they are changed)
      const rulesChanged = pc.rules !== undefined && JSON.stringify(pc.rules) !== JSON.stringify(cc.rules);
      if (RULED_KINDS.includes(cc.kind) && (kindChanged ? !isPlainRule(f, cc, model) : rulesChanged)) {
        guards.push(rulesGuard(e, f, pc, cc, conversions.get(key), backfills.get(key)));
      }
      if (rulesChanged && !kindChanged) detail.push(`rule ${ruleChange(pc.rules!, cc.rules ?? {})}`);
      // a new unique, or a unique whose values a conversion changes (' 7 ' and '7' both become 7)
      const conv = conversions.get(`${e.table}.${f.column}`);
      if (cc.unique && (!pc.unique || (conv && !(isIdentity('sqlite', conv) && isIdentity('pg', conv))))) {
        guards.push(uniqueGuard(e, [f], { isNew: !pc.unique, conversions, from: pt.columns, to: ct.columns }));
      }
      if (cc.unique && !pc.unique) detail.push('now unique');
      if (!!cc.index !== !!pc.index) detail.push(cc.index ? 'indexed' : 'not indexed');
      if (JSON.stringify(cc.default) !== JSON.stringify(pc.default)) detail.push(cc.default === undefined ? 'no default' : `default ${JSON.stringify(cc.default)}`);
      if (detail.length) changes.push({ table: e.table, entity: e.id, verb: 'change', field: f.name, detail: `${f.name} (${detail.join(', ')})` });
    }
    for (const group of ct.unique) {
      if (group.some((c) => !pt.columns[c])) continue; // a new column: no stored value repeats yet
      const isNew = !pt.unique.some((g) => g.join() === group.join());
      const converts = group.some((c) => {
        const conv = conversions.get(`${e.table}.${c}`);
        return conv && !(isIdentity('sqlite', conv) && isIdentity('pg', conv));
      });
      if (!isNew && !converts) continue;
      guards.push(uniqueGuard(e, group.map((c) => e.fields.find((f) => f.column === c)!), { isNew, conversions, from: pt.columns, to: ct.columns }));
      if (isNew) changes.push({ table: e.table, entity: e.id, verb: 'change', field: 'unique', detail: `unique (${group.join(', ')})` });
    }
  }
  if (problems.length > firstProblem) return undefined;

  const statements = {} as Record<Dialect, string[]>;
  for (const d of DIALECTS) {
    const k = kits[d];
    const p = prev[d];
    const c = cur[d];
    const dr = drops(p, c);
    const withoutDropped = withoutDrops(p, dr);
    const added = withAdditions(withoutDropped, c, staged);
    const s1 = await k.diff(p, withoutDropped);
    const s2 = await k.diff(withoutDropped, added);
    const s3 = await k.diff(added, c);
    const patched = d === 'pg' ? patchPg(s2, s3, p, c, conversions, backfills) : patchSqlite(s2, s3, conversions, backfills);
    const castable = guards.some((g) => g.castable) && d === 'pg';
    statements[d] = [
      ...tableRenames.flatMap((r) => (d === 'pg' ? [`ALTER TABLE "${r.from}" RENAME TO "${r.to}";`, pgPrimaryKeyRename(r.to)] : [`ALTER TABLE \`${r.from}\` RENAME TO \`${r.to}\`;`])),
      ...renames.map((r) => (d === 'pg' ? `ALTER TABLE "${r.table}" RENAME COLUMN "${r.from}" TO "${r.to}";` : `ALTER TABLE \`${r.table}\` RENAME COLUMN \`${r.from}\` TO \`${r.to}\`;`)),
      ...(castable ? [PG_CASTABLE[0]] : []),
      ...guards.map((g) => `-- guard: ${g.message}\n${g.values ? `-- guard-values: ${JSON.stringify(g.values)}\n` : ''}${g.sql[d]}`),
      ...(castable ? [PG_CASTABLE[1]] : []),
      ...s1,
      ...patched,
    ];
  }

  // the file names and the summary
  const journalBase = base.journals;
  const idx = Math.max(journalBase.sqlite.entries.length, journalBase.pg.entries.length);
  const name = idx === 0 && Object.keys(prevState.tables).length === 0 ? 'init' : migrationName(changes);
  const tag = `${String(idx).padStart(4, '0')}_${name}`;
  const summary = summarize(changes);
  const files = new Map<string, string | null>();
  const lastWhen = Math.max(0, ...DIALECTS.map((d) => journals[d].entries.at(-1)?.when ?? 0));
  const when = Math.max(Date.now(), lastWhen + 1);
  for (const d of DIALECTS) {
    const header =
      '-- GENERATED by `npm run codegen` from the manifests in schemas/. Applied in order on start; never edit an applied migration.\n' +
      summary.map((l) => `-- ${l}\n`).join('') +
      (statements[d].length ? '' : `-- nothing to run on ${d === 'pg' ? 'PostgreSQL' : 'SQLite'}: it stores both kinds alike\n`);
    if (replaced && replaced.tag !== tag) files.set(join(paths(d).dir, `${replaced.tag}.sql`), null);
    files.set(join(paths(d).dir, `${tag}.sql`), header + statements[d].join('\n--> statement-breakpoint\n') + '\n');
    const journal: Journal = { ...journalBase[d], entries: [...journalBase[d].entries, { idx, version: kits[d].version, when, tag, breakpoints: true }] };
    files.set(paths(d).journal, JSON.stringify(journal, null, 2) + '\n');
    files.set(paths(d).snapshot, JSON.stringify(cur[d], null, 2) + '\n');
    files.set(paths(d).previous, JSON.stringify(base.snaps[d], null, 2) + '\n');
  }
  files.set(modelPath, stateJson(tag, curState, baseState));
  // planned again without a change of schema, and it runs the same: nothing to write
  if (!changed && replaced?.tag === tag && DIALECTS.every((d) => sqlOf(join(paths(d).dir, `${tag}.sql`)) === files.get(join(paths(d).dir, `${tag}.sql`)))) return undefined;

  // what its files replace: the files as they are now, or, replacing an unapplied one, as they were before that one
  let undo: MigrationUndo | null = null;
  const before = replaced ? undoOf(opts.undo, dir, replaced, base) : { files: {} as Record<string, string | null> };
  if (before) {
    const kept = { ...before.files };
    for (const path of files.keys()) {
      const rel = relative(dir, path);
      if (!(rel in kept)) kept[rel] = existsSync(path) ? readFileSync(path, 'utf8') : null;
    }
    undo = { dir: resolve(dir), tag, when, files: kept };
  }
  return { tag, changes: summary, statements, replaced: replaced?.tag, files, undo };
}

/**
 * The record of what the unapplied last migration replaced, when it is that migration's and describes the state
 * the migrations before it reach (its journal and snapshot are `base`'s); else undefined.
 */
function undoOf(
  undo: MigrationUndo | undefined, dir: string, last: JournalEntry,
  base: { snaps: Record<Dialect, Snapshot>; journals: Record<Dialect, Journal> },
): MigrationUndo | undefined {
  if (!undo || resolve(undo.dir) !== resolve(dir) || undo.tag !== last.tag || undo.when !== last.when) return undefined;
  for (const d of DIALECTS) {
    const journal = undo.files[join(d, 'meta', '_journal.json')];
    const snapshot = undo.files[join(d, 'meta', 'snapshot.json')];
    if (journal === undefined || snapshot === undefined) return undefined;
    const entries = journal === null ? [] : (JSON.parse(journal) as Journal).entries;
    if (JSON.stringify(entries) !== JSON.stringify(base.journals[d].entries)) return undefined;
    if (snapshot === null ? entries.length > 0 : comparable(JSON.parse(snapshot) as Snapshot) !== comparable(base.snaps[d])) return undefined;
  }
  return undo;
}

const sqlOf = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : undefined);

function stateJson(tag: string, state: ModelState, previousState: ModelState | null) {
  const file: ModelStateFile = {
    $comment: 'GENERATED by `npm run codegen`: what the migrations reach, in the manifests\' terms (kinds SQLite cannot tell apart), and what the last one started from. Committed with the migrations.',
    migration: tag,
    tables: state.tables,
    previous: previousState?.tables ?? null,
  };
  return JSON.stringify(file, null, 1) + '\n';
}

/** changes the SQL types do not show: a kind stored alike (text → enum, localized → json), fewer enum values */
function semanticChanges(prev: ModelState, cur: ModelState) {
  const out: string[] = [];
  for (const [t, ct] of Object.entries(cur.tables)) {
    const pt = prev.tables[t];
    if (!pt) continue;
    for (const [c, cc] of Object.entries(ct.columns)) {
      const pc = pt.columns[c];
      if (!pc) continue;
      if (pc.kind !== cc.kind || !!pc.uuid !== !!cc.uuid) out.push(`${t}.${c}`);
      else if (cc.kind === 'enum' && (pc.values ?? []).some((v) => !cc.values!.includes(v))) out.push(`${t}.${c}`);
      // a rule's change: a tighter one is guarded, a looser one recorded (else a later tightening back would pass unseen)
      else if (pc.rules !== undefined && JSON.stringify(pc.rules) !== JSON.stringify(cc.rules)) out.push(`${t}.${c}`);
    }
  }
  return out;
}

const entityLabel = (e: Entity, f: Field) => `${e.id}.${f.name}`;

function guardSelect(d: Dialect, table: string, cond: string, example: (c: string) => string, column: string) {
  const t = q(table);
  const c = `${t}.${q(column)}`;
  return (
    `SELECT (SELECT count(*) FROM ${t} WHERE ${cond}) AS failing, ` +
    `(SELECT ${example(c)} FROM ${t} WHERE ${cond} ORDER BY ${t}."id" LIMIT 1) AS example, ` +
    `(SELECT ${d === 'pg' ? `${t}."id"::text` : `${t}."id"`} FROM ${t} WHERE ${cond} ORDER BY ${t}."id" LIMIT 1) AS "row";`
  );
}

function conversionGuard(e: Entity, f: Field, from: ColumnState, to: ColumnState, conv: Conversion): Guard {
  const c = `${q(e.table)}.${q(f.column)}`;
  const sql = {} as Record<Dialect, string>;
  for (const d of DIALECTS) {
    const cond = `${c} IS NOT NULL AND (${conv.fails![d](c)})`;
    sql[d] = guardSelect(d, e.table, cond, (x) => shown(d, storageOf(from), x), f.column);
  }
  return {
    message: `${entityLabel(e, f)} changes from ${from.kind} to ${to.kind}, but {failing} row(s) hold a value that ${conv.failure}, e.g. {example} (row {row})`,
    sql,
    castable: conv.castable,
  };
}

/**
 * Values that repeat under a unique (one field or a group): as stored, or, for a field whose kind changes, as the
 * conversion will make them (' 7 ' and '7' both become 7). Values that do not convert are left to the conversion's
 * own guard. The duplicates are named, most frequent first.
 */
function uniqueGuard(
  e: Entity, fields: Field[],
  opts: { isNew: boolean; conversions?: Map<string, Conversion>; from?: Record<string, ColumnState>; to?: Record<string, ColumnState> },
): Guard {
  const sql = {} as Record<Dialect, string>;
  const convOf = (f: Field) => {
    const conv = opts.conversions?.get(`${e.table}.${f.column}`);
    return conv && !(isIdentity('sqlite', conv) && isIdentity('pg', conv)) ? conv : undefined;
  };
  const converted = fields.filter((f) => convOf(f));
  for (const d of DIALECTS) {
    // the value each row will hold: NULL when it holds none, or one that does not convert
    const key = (f: Field) => {
      const c = q(f.column);
      const conv = convOf(f);
      if (!conv) return c;
      return `CASE WHEN ${c} IS NULL THEN NULL${conv.fails ? ` WHEN ${conv.fails[d](c)} THEN NULL` : ''} ELSE ${conv.to[d](c)} END`;
    };
    const text = (f: Field, i: number) => {
      const state = opts.to?.[f.column];
      return shown(d, state ? storageOf(state) : 'text', `k${i}`);
    };
    const keys = fields.map((f, i) => `${key(f)} AS k${i}`).join(', ');
    const value = fields.length === 1
      ? `'''' || ${text(fields[0], 0)} || ''''`
      : `'(' || ${fields.map((f, i) => `'''' || ${text(f, i)} || ''''`).join(` || ', ' || `)} || ')'`;
    const agg = `${d === 'pg' ? 'string_agg' : 'group_concat'}(v || ' (' || n || ' rows)', ', ')`;
    sql[d] =
      `WITH k AS (SELECT ${keys} FROM ${q(e.table)}), ` +
      `d AS (SELECT ${value} AS v, count(*) AS n FROM k WHERE ${fields.map((_, i) => `k${i} IS NOT NULL`).join(' AND ')} ` +
      `GROUP BY ${fields.map((_, i) => `k${i}`).join(', ')} HAVING count(*) > 1) ` +
      `SELECT (SELECT count(*) FROM d) AS failing, (SELECT ${agg} FROM (SELECT v, n FROM d ORDER BY n DESC, v LIMIT 5) x) AS example, NULL AS "row";`;
  }
  const what = fields.length === 1 ? entityLabel(e, fields[0]) : `${e.id} (${fields.map((f) => f.name).join(', ')})`;
  const change = converted
    .map((f) => `${fields.length > 1 ? `${f.name} ` : ''}from ${opts.from?.[f.column]?.kind} to ${opts.to?.[f.column]?.kind ?? f.kind}`)
    .join(' and ');
  const message = converted.length
    ? `${what} ${opts.isNew ? 'is to be' : 'is'} unique, but converted ${change}, {failing} value(s) would occur more than once: {example}`
    : `${what} is to be unique, but {failing} value(s) occur more than once: {example}`;
  return { message, sql, castable: converted.some((f) => convOf(f)!.castable) };
}

/**
 * a unique field filled from one value: more than one stored row would share it. `empty`: the rows holding "" are
 * filled too (its value as the field's conversion, if any, makes it; null: no conversion)
 */
function sameValueGuard(e: Entity, f: Field, isNew: boolean, empty?: Conversion | null): Guard {
  const c = q(f.column);
  const sql = {} as Record<Dialect, string>;
  for (const d of DIALECTS) {
    const need = isNew ? '1 = 1' : withoutValue(c, empty ? empty.to[d](c) : c, empty !== undefined);
    sql[d] = `SELECT CASE WHEN count(*) > 1 THEN count(*) ELSE 0 END AS failing, NULL AS example, NULL AS "row" FROM ${q(e.table)} WHERE ${need};`;
  }
  return {
    message: `${entityLabel(e, f)} is unique, but {failing} stored rows would all get the same value from its ${f.backfill !== undefined ? 'backfill' : 'default'}: add it as optional, give each row its own value, then make it required`,
    sql,
  };
}

/** the value rows without one get, per dialect; for a reference, a guard that the target row exists */
function backfillOf(
  e: Entity, f: Field, model: Model, guards: Guard[],
  targetRows: (target: string | undefined) => (d: Dialect, value: string) => string, isNew: boolean,
): Backfill {
  const raw = f.backfill ?? f.default;
  const value = {} as Record<Dialect, string>;
  if (f.kind === 'reference') {
    const target = model.byId[f.target!];
    const need = isNew ? '1 = 1' : `${q(f.column)} IS NULL`;
    const exists = {} as Record<Dialect, string>;
    for (const d of DIALECTS) {
      if (isBackfillMatch(raw)) {
        const where = Object.entries(raw.match)
          .map(([name, v]) => {
            const tf = target.fields.find((x) => x.name === name)!;
            return `${q(tf.column)} = ${literal(v, tf, d)}`;
          })
          .join(' AND ');
        value[d] = `(SELECT "id" FROM ${q(target.table)} WHERE ${where} ORDER BY "created_at", "id" LIMIT 1)`;
        exists[d] = `EXISTS (SELECT 1 FROM ${q(target.table)} WHERE ${where})`;
      } else {
        value[d] = literal(raw, f, d);
        exists[d] = targetRows(target.table)(d, d === 'pg' ? `${literal(raw, f, d)}::uuid` : literal(raw, f, d));
      }
    }
    const described = isBackfillMatch(raw) ? Object.entries(raw.match).map(([k, v]) => `${k} = ${JSON.stringify(v)}`).join(' and ') : `id ${raw}`;
    const sql = {} as Record<Dialect, string>;
    for (const d of DIALECTS) {
      sql[d] = `SELECT CASE WHEN ${exists[d]} THEN 0 ELSE (SELECT count(*) FROM ${q(e.table)} WHERE ${need}) END AS failing, NULL AS example, NULL AS "row";`;
    }
    guards.push({ message: `${entityLabel(e, f)} is required, but {failing} stored row(s) need a ${target.id} with ${described}, and there is none`, sql });
  } else {
    for (const d of DIALECTS) value[d] = literal(raw, f, d);
  }
  return { table: e.table, column: f.column, value };
}

/** a conversion whose rows left without a value (Conversion.empty) get `fill` ("" too, for a text that refuses it) */
function filledConversion(conv: Conversion, f: Field, fill: unknown): Conversion {
  const to = {} as Conversion['to'];
  for (const d of DIALECTS) {
    const value = (c: string) => (refusesEmpty(f) ? `nullif(${conv.to[d](c)}, '')` : conv.to[d](c));
    to[d] = (c: string) => `coalesce(${value(c)}, ${literal(fill, f, d)})`;
  }
  return { ...conv, to, empty: undefined };
}

/** the rows a conversion leaves without a value (Conversion.empty), on a required column with nothing to fill them */
function emptyGuard(e: Entity, f: Field, from: ColumnState, to: ColumnState, conv: Conversion): Guard {
  const c = `${q(e.table)}.${q(f.column)}`;
  const sql = {} as Record<Dialect, string>;
  for (const d of DIALECTS) sql[d] = guardSelect(d, e.table, `${c} IS NOT NULL AND (${conv.empty![d](c)})`, (x) => shown(d, storageOf(from), x), f.column);
  return {
    message: `${entityLabel(e, f)} changes from ${from.kind} to ${to.kind} and is required, but {failing} row(s) ${conv.emptiness}, e.g. {example} (row {row}): give the field a "backfill" (or a "default") for them`,
    sql,
  };
}

/** whether a kind's rule is only its kind's own (no pattern, length, format or range of the field's): nothing to hold stored values to */
const isPlainRule = (f: Field, c: ColumnState, model: Model) =>
  JSON.stringify(c.rules) === JSON.stringify(rulesOf({ name: f.name, column: f.column, kind: c.kind } as Field, model));

/** a rule's change in a few words: "maxLength 10", "pattern ^[a-z]+$", "no minimum" */
function ruleChange(from: Record<string, unknown>, to: Record<string, unknown>): string {
  const short = (v: unknown) => {
    const text = typeof v === 'string' ? v : JSON.stringify(v);
    return text.length > 40 ? `${text.slice(0, 40)}…` : text;
  };
  const keys = [...new Set([...Object.keys(from), ...Object.keys(to)])].filter((k) => JSON.stringify(from[k]) !== JSON.stringify(to[k]));
  return keys.map((k) => (k in to ? `${k} ${short(to[k])}` : `no ${k}`)).join(', ');
}

/**
 * Every stored value of a field held to its new rule (the JSON Schema a written value passes), as the values will
 * be after the migration: converted, rows filled by a backfill left out. The rule is checked by the migrator in
 * JavaScript (a values guard), so a pattern means on each database what it means to the API.
 */
function rulesGuard(e: Entity, f: Field, from: ColumnState, to: ColumnState, conv: Conversion | undefined, fill: Backfill | undefined): Guard {
  const t = q(e.table);
  const c = `${t}.${q(f.column)}`;
  const sql = {} as Record<Dialect, string>;
  for (const d of DIALECTS) {
    // the value as converted; none for a row whose value does not convert (its conversion's guard names it), and
    // the CASE keeps the conversion from running on it (PostgreSQL orders a WHERE's conditions as it likes)
    const value = conv ? `CASE WHEN ${c} IS NULL THEN NULL${conv.fails ? ` WHEN ${conv.fails[d](c)} THEN NULL` : ''} ELSE ${conv.to[d](c)} END` : c;
    sql[d] =
      `SELECT "row", "value" FROM (SELECT ${d === 'pg' ? `${t}."id"::text` : `${t}."id"`} AS "row", ${value} AS "value" FROM ${t}) k ` +
      `WHERE "value" IS NOT NULL${fill?.empty ? ` AND "value" <> ''` : ''} ORDER BY "row";`;
  }
  const what = from.kind !== to.kind ? `changes from ${from.kind} to ${to.kind}` : `gets a new rule (${ruleChange(from.rules ?? {}, to.rules ?? {})})`;
  const hint = to.notNull && refusesEmpty(f) ? ', or give the field a "backfill" for the rows holding ""' : '';
  return {
    message: `${entityLabel(e, f)} ${what}, but {failing} stored row(s) break it, e.g. {example} (row {row}): {reason}. Change those rows first, or keep the old rule${hint}`,
    sql,
    values: { field: f.name, kind: to.kind, schema: to.rules ?? {} },
  };
}

const nullSafe = (c: string, expr: string, fill?: string) => `CASE WHEN ${c} IS NULL THEN ${fill ?? 'NULL'} ELSE ${expr} END`;

function patchPg(s2: string[], s3: string[], prev: Snapshot, cur: Snapshot, conversions: Map<string, Conversion>, backfills: Map<string, Backfill>): string[] {
  const out: string[] = [];
  const converted = new Set<string>();
  const filled = new Set<string>();
  const dropNotNull = new Set<string>();
  for (const stmt of s3) {
    if (dropNotNull.has(stmt)) continue;
    const type = /^ALTER TABLE "([^"]+)" ALTER COLUMN "([^"]+)" SET DATA TYPE (.+);$/s.exec(stmt);
    if (type) {
      const [, t, c, sqlType] = type;
      const key = `${t}.${c}`;
      const conv = conversions.get(key);
      const before = prev.tables[`public.${t}`]?.columns[c];
      const after = cur.tables[`public.${t}`]?.columns[c];
      // an old default may not cast to the new type: drop it, convert, then set the new one
      if (before?.default !== undefined) out.push(`ALTER TABLE "${t}" ALTER COLUMN "${c}" DROP DEFAULT;`);
      // a column that becomes optional may take the nulls a conversion gives ({} → text) only once it is
      if (before?.notNull && !after?.notNull) {
        out.push(`ALTER TABLE "${t}" ALTER COLUMN "${c}" DROP NOT NULL;`);
        dropNotNull.add(`ALTER TABLE "${t}" ALTER COLUMN "${c}" DROP NOT NULL;`);
      }
      const using = conv ? conv.to.pg(`"${c}"`) : `"${c}"::${sqlType}`;
      out.push(`ALTER TABLE "${t}" ALTER COLUMN "${c}" SET DATA TYPE ${sqlType} USING ${nullSafe(`"${c}"`, using)};`);
      if (after?.default !== undefined && !s3.some((s) => s.startsWith(`ALTER TABLE "${t}" ALTER COLUMN "${c}" SET DEFAULT`))) {
        out.push(`ALTER TABLE "${t}" ALTER COLUMN "${c}" SET DEFAULT ${after.default};`);
      }
      converted.add(key);
      continue;
    }
    const nn = /^ALTER TABLE "([^"]+)" ALTER COLUMN "([^"]+)" SET NOT NULL;$/.exec(stmt);
    if (nn && backfills.has(`${nn[1]}.${nn[2]}`)) {
      const b = backfills.get(`${nn[1]}.${nn[2]}`)!;
      out.push(`UPDATE "${b.table}" SET "${b.column}" = ${b.value.pg} WHERE ${withoutValue(`"${b.column}"`, `"${b.column}"`, b.empty)};`);
      filled.add(`${nn[1]}.${nn[2]}`);
    }
    out.push(stmt);
  }
  const before: string[] = [];
  for (const [key, conv] of conversions) {
    if (converted.has(key) || isIdentity('pg', conv)) continue;
    const [t, c] = key.split('.');
    before.push(`UPDATE "${t}" SET "${c}" = ${conv.to.pg(`"${c}"`)} WHERE "${c}" IS NOT NULL;`);
  }
  const after2: string[] = [];
  for (const [key, b] of backfills) {
    if (filled.has(key)) continue;
    after2.push(`UPDATE "${b.table}" SET "${b.column}" = ${b.value.pg} WHERE ${withoutValue(`"${b.column}"`, `"${b.column}"`, b.empty)};`);
  }
  return [...s2, ...after2, ...before, ...out];
}

function patchSqlite(s2: string[], s3: string[], conversions: Map<string, Conversion>, backfills: Map<string, Backfill>): string[] {
  const handled = new Set<string>();
  const out = s3.map((stmt) => {
    const m = /^INSERT INTO `__new_([^`]+)`\((.*?)\) SELECT (.*) FROM `([^`]+)`;$/s.exec(stmt);
    if (!m) return stmt;
    const [, t, cols, select, from] = m;
    const items = select.split(', ').map((item) => {
      const c = item.replace(/^"|"$/g, '');
      const key = `${t}.${c}`;
      const conv = conversions.get(key);
      const fill = backfills.get(key);
      if (!conv && !fill) return item;
      handled.add(key);
      const value = conv ? conv.to.sqlite(item) : item;
      // a text that refuses "": "" (stored, or what the conversion makes) is filled as null is
      if (fill?.empty) return nullSafe(item, `coalesce(nullif(${value}, ''), ${fill.value.sqlite})`, fill.value.sqlite);
      return nullSafe(item, value, fill?.value.sqlite);
    });
    return `INSERT INTO \`__new_${t}\`(${cols}) SELECT ${items.join(', ')} FROM \`${from}\`;`;
  });
  const before: string[] = [];
  for (const [key, conv] of conversions) {
    if (handled.has(key) || isIdentity('sqlite', conv)) continue;
    const [t, c] = key.split('.');
    before.push(`UPDATE \`${t}\` SET "${c}" = ${conv.to.sqlite(`"${c}"`)} WHERE "${c}" IS NOT NULL;`);
  }
  const fills: string[] = [];
  for (const [key, b] of backfills) {
    if (handled.has(key)) continue;
    fills.push(`UPDATE \`${b.table}\` SET "${b.column}" = ${b.value.sqlite} WHERE ${withoutValue(`"${b.column}"`, `"${b.column}"`, b.empty)};`);
  }
  return [...s2, ...fills, ...before, ...out];
}

/** '<module>_<entity>_<verb>[_<fields>]', joined by '_and_' across entities, at most about 60 characters */
export function migrationName(changes: Change[]): string {
  const byEntity = new Map<string, Change[]>();
  for (const c of changes) byEntity.set(c.entity, [...(byEntity.get(c.entity) ?? []), c]);
  const parts = [...byEntity].map(([entity, list]) => {
    const verbs = new Map<string, string[]>();
    for (const c of list) verbs.set(c.verb, [...(verbs.get(c.verb) ?? []), ...(c.field ? [c.field] : [])]);
    const head = snake(entity.replace('/', '_'));
    return [head, ...[...verbs].map(([verb, fields]) => [verb, ...fields.map(snake)].join('_'))].join('_');
  });
  const clean = (s: string) => s.replace(/[^a-z0-9_]+/g, '_').replace(/_+/g, '_').replace(/^_|_$/g, '');
  if (!parts.length) return 'schema_change';
  let name = clean(parts.join('_and_'));
  if (name.length > 60) {
    const rest = parts.length - 1;
    const max = rest ? 44 : 60;
    let head = clean(parts[0]);
    if (head.length > max) head = head.slice(0, max + 1).replace(/_[^_]*$/, '');
    name = head + (rest ? `_and_${rest}_more` : '');
  }
  return name;
}

function summarize(changes: Change[]): string[] {
  const byEntity = new Map<string, string[]>();
  for (const c of changes) {
    const text = c.verb === 'create' || (c.verb === 'drop' && !c.field) ? c.verb : c.detail ?? `${c.verb} ${c.field}`;
    const words = c.verb === 'change' || c.verb === 'rename' ? text : c.field ? `${c.verb} ${c.field}` : text;
    byEntity.set(c.entity, [...(byEntity.get(c.entity) ?? []), c.verb === 'change' ? `change ${words}` : words]);
  }
  return [...byEntity].map(([entity, list]) => `${entity}: ${list.join('; ')}`);
}
