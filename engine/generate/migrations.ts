import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Model } from '../model.js';
import type { Dialect } from '../fields/index.js';
import { ManifestError, type ManifestProblem } from '../load.js';

type Snapshot = { id: string; prevId: string; tables: Record<string, Table> } & Record<string, unknown>;
type Table = {
  name: string;
  columns: Record<string, { name: string; notNull?: boolean; default?: unknown; primaryKey?: boolean }>;
  indexes: Record<string, { columns: (string | { expression: string })[] }>;
  foreignKeys: Record<string, { tableTo: string; columnsFrom: string[] }>;
} & Record<string, unknown>;
interface Journal {
  version: string;
  dialect: string;
  entries: { idx: number; version: string; when: number; tag: string; breakpoints: boolean }[];
}

async function kit(dialect: Dialect) {
  const api = await import('drizzle-kit/api');
  return dialect === 'pg'
    ? { snapshot: async (t: Record<string, unknown>, prev?: string) => api.generateDrizzleJson(t, prev) as unknown as Snapshot, diff: (a: Snapshot, b: Snapshot) => api.generateMigration(a as never, b as never), version: '7', name: 'postgresql' }
    : { snapshot: async (t: Record<string, unknown>, prev?: string) => (await api.generateSQLiteDrizzleJson(t, prev)) as unknown as Snapshot, diff: (a: Snapshot, b: Snapshot) => api.generateSQLiteMigration(a as never, b as never), version: '6', name: 'sqlite' };
}

const bare = (name: string) => name.replace(/^public\./, '');
const comparable = (s: Snapshot) => JSON.stringify({ ...s, id: '', prevId: '' });

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
    const colName = table.columns[c].name;
    delete table.columns[c];
    for (const [k, i] of Object.entries(table.indexes))
      if (i.columns.some((x) => (typeof x === 'string' ? x : x.expression) === colName)) delete table.indexes[k];
    for (const [k, f] of Object.entries(table.foreignKeys)) if (f.columnsFrom.includes(colName)) delete table.foreignKeys[k];
  }
  for (const table of Object.values(next.tables))
    for (const [k, f] of Object.entries(table.foreignKeys))
      if (d.tables.some((t) => bare(t) === bare(f.tableTo))) delete table.foreignKeys[k];
  return next;
}

/** base plus the tables and the columns that cur adds, and nothing else of cur's changes */
function withAdditions(base: Snapshot, cur: Snapshot): Snapshot {
  const next: Snapshot = structuredClone(base);
  for (const [t, table] of Object.entries(cur.tables)) {
    if (!next.tables[t]) next.tables[t] = structuredClone(table);
    else for (const [c, col] of Object.entries(table.columns)) next.tables[t].columns[c] ??= structuredClone(col);
  }
  return next;
}

export interface MigrationResult {
  file?: string;
  statements: string[];
}

/**
 * Diffs the tables against the snapshot kept in `dir/meta/snapshot.json` with drizzle-kit and,
 * when they differ, writes the next migration in drizzle's migrator format (journal + SQL).
 * Dropping a table or column needs `allowDestructive`; a new required column on an existing
 * table needs a default, so that existing rows are kept.
 */
export async function generateMigration(opts: {
  dialect: Dialect;
  tables: Record<string, unknown>;
  dir: string;
  model: Model;
  allowDestructive?: boolean;
}): Promise<MigrationResult> {
  const { dialect, dir, model } = opts;
  const k = await kit(dialect);
  const snapPath = join(dir, 'meta', 'snapshot.json');
  const journalPath = join(dir, 'meta', '_journal.json');
  const prev: Snapshot = existsSync(snapPath) ? JSON.parse(readFileSync(snapPath, 'utf8')) : await k.snapshot({});
  const cur = await k.snapshot(opts.tables, prev.id);
  if (comparable(prev) === comparable({ ...cur })) return { statements: [] };

  const byTable = new Map(model.entities.map((e) => [e.table, e]));
  const problems: ManifestProblem[] = [];
  const d = drops(prev, cur);
  if ((d.tables.length || d.columns.length) && !opts.allowDestructive) {
    const what = [...d.tables.map((t) => `table ${bare(t)}`), ...d.columns.map(([t, c]) => `column ${bare(t)}.${c}`)];
    throw new Error(
      `The manifests no longer declare ${what.join(', ')}. Dropping would delete stored data, so codegen stopped. ` +
        `If that is intended (a rename is a drop plus an add), run: npm run codegen -- --allow-destructive`,
    );
  }
  for (const [t, table] of Object.entries(cur.tables)) {
    const before = prev.tables[t];
    if (!before) continue;
    for (const [c, col] of Object.entries(table.columns)) {
      if (before.columns[c] || !col.notNull || col.default !== undefined || col.primaryKey) continue;
      const e = byTable.get(bare(t));
      const f = e?.fields.find((x) => x.column === c);
      problems.push({
        file: e?.file ?? bare(t), path: `/fields/${f?.name ?? c}`, rule: 'migration',
        message: 'a new required field on an existing entity needs a "default", so that the rows already stored keep a value',
      });
    }
  }
  if (problems.length) throw new ManifestError(problems);

  // three steps, each of one kind, so that drizzle-kit never has to guess at a rename, and a SQLite
  // table rebuild (INSERT … SELECT) never selects a column the old table does not have yet
  const dropped = withoutDrops(prev, d);
  const added = withAdditions(dropped, cur);
  const statements = [...(await k.diff(prev, dropped)), ...(await k.diff(dropped, added)), ...(await k.diff(added, cur))];

  mkdirSync(join(dir, 'meta'), { recursive: true });
  const journal: Journal = existsSync(journalPath)
    ? JSON.parse(readFileSync(journalPath, 'utf8'))
    : { version: k.version, dialect: k.name, entries: [] };
  const idx = journal.entries.length;
  const last = journal.entries.at(-1)?.when ?? 0;
  const tag = `${String(idx).padStart(4, '0')}_${idx === 0 ? 'init' : 'schema_change'}`;
  journal.entries.push({ idx, version: k.version, when: Math.max(Date.now(), last + 1), tag, breakpoints: true });
  const file = join(dir, `${tag}.sql`);
  const header = `-- GENERATED by \`npm run codegen\` from the manifests in schemas/. Applied in order on start; never edit an applied migration.\n`;
  writeFileSync(file, header + statements.join('\n--> statement-breakpoint\n') + '\n');
  writeFileSync(journalPath, JSON.stringify(journal, null, 2) + '\n');
  writeFileSync(snapPath, JSON.stringify(cur, null, 2) + '\n');
  return { file, statements };
}
