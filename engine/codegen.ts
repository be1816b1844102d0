import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { checkManifests, locateProblems, ManifestError, type ManifestProblem } from './load.js';
import { entitiesById, type Model } from './model.js';
import { generateDrizzle } from './generate/drizzle.js';
import { generateClient, generateRoutes } from './generate/routes.js';
import type { LastMigration, MigrationUndo, PlannedMigration } from './generate/migrations.js';
import { HEADER } from './generate/header.js';
import type { Dialect } from './fields/index.js';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DIALECTS = ['sqlite', 'pg'] as const;
const CACHE = '.codegen.json';
/**
 * Beside generated/ (not committed): what the files of the last migration replaced while it is unapplied, so that
 * removing it puts migrations/ back byte for byte (docs/MIGRATIONS.md)
 */
const UNDO = '.migration-undo.json';

export interface CodegenOptions {
  schemasDir?: string;
  outDir?: string;
  migrationsDir?: string;
  /** allow a migration that drops tables or columns */
  allowDestructive?: boolean;
  /**
   * Production: never write a migration. generated/ is (re)written from the manifests when it is missing or
   * stale; when the manifests need a migration the committed ones do not have, codegen refuses.
   */
  production?: boolean;
  /**
   * Whether the last migration is still unapplied and may be replaced by the new one instead of being followed
   * by another (scripts/codegen.ts asks the development database and git). Without it, never.
   */
  canReplace?: (last: LastMigration) => boolean | Promise<boolean>;
  /** ignore the cache */
  force?: boolean;
}

export interface MigrationResult {
  file?: string;
  statements: string[];
}

export interface CodegenResult {
  model: Model;
  /** files written (or deleted) */
  written: string[];
  migrations: Record<Dialect, MigrationResult>;
  /** the migration written, if any */
  migration?: PlannedMigration;
  /** nothing had changed since the last run: nothing was generated */
  cached: boolean;
}

/** Thrown in production when the manifests need a migration that is not committed. */
export class MigrationsDisagree extends Error {
  constructor(public changes: string[]) {
    super(
      'The manifests in schemas/ and the committed migrations disagree: the manifests need a migration that migrations/ does not have' +
        (changes.length ? ` (${changes.join('; ')})` : '') +
        '. Production applies committed migrations only and never writes one: run `npm run codegen` in development, ' +
        'commit migrations/, and deploy that.',
    );
    this.name = 'MigrationsDisagree';
  }
}

const sha = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');

function listFiles(dir: string, filter: (name: string) => boolean = () => true): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...listFiles(path, filter));
    else if (filter(name)) out.push(path);
  }
  return out;
}

/** a hash of everything generation reads: the manifests, the generator sources and the migration history */
function inputKey(schemasDir: string, outDir: string, migrationsDir: string) {
  const h = createHash('sha256');
  const add = (base: string, files: string[]) => {
    for (const f of files) h.update(relative(base, f)).update('\0').update(readFileSync(f)).update('\0');
  };
  h.update(`${outDir}\0${migrationsDir}\0`);
  add(schemasDir, listFiles(schemasDir));
  add(ROOT, listFiles(join(ROOT, 'engine'), (n) => n.endsWith('.ts') && !n.endsWith('.test.ts')));
  add(migrationsDir, listFiles(migrationsDir, (n) => n.endsWith('.json')));
  for (const d of DIALECTS) h.update(listFiles(join(migrationsDir, d), (n) => n.endsWith('.sql')).map((f) => relative(migrationsDir, f)).join('\n'));
  return h.digest('hex');
}

function cacheValid(outDir: string, key: string): boolean {
  const path = join(outDir, CACHE);
  if (!existsSync(path)) return false;
  try {
    const cache = JSON.parse(readFileSync(path, 'utf8')) as { key: string; outputs: Record<string, string> };
    if (cache.key !== key) return false;
    return Object.entries(cache.outputs).every(([f, hash]) => existsSync(join(outDir, f)) && sha(readFileSync(join(outDir, f))) === hash);
  } catch {
    return false;
  }
}

/** the record a previous run kept of what the last migration replaced; undefined when there is none or it is unreadable */
function readUndo(path: string): MigrationUndo | undefined {
  try {
    return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as MigrationUndo) : undefined;
  } catch {
    return undefined;
  }
}

function readModel(outDir: string): Model {
  const model = JSON.parse(readFileSync(join(outDir, 'model.json'), 'utf8')) as Model;
  model.byId = entitiesById(model.entities);
  return model;
}

/**
 * Writes a set of files (null deletes) as one step as far as a file system allows: every new content is
 * written beside its target first, and only when all of them are on disk are they renamed into place.
 */
function commit(files: Map<string, string | null>): string[] {
  const staged: [string, string][] = [];
  try {
    for (const [path, content] of files) {
      if (content === null) continue;
      mkdirSync(dirname(path), { recursive: true });
      const tmp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
      writeFileSync(tmp, content);
      staged.push([tmp, path]);
    }
  } catch (e) {
    for (const [tmp] of staged) rmSync(tmp, { force: true });
    throw e;
  }
  for (const [tmp, path] of staged) renameSync(tmp, path);
  const written = staged.map(([, path]) => path);
  for (const [path, content] of files) {
    if (content === null && existsSync(path)) {
      rmSync(path);
      written.push(path);
    }
  }
  return written;
}

/**
 * Manifests → model graph → generated/ (model.json, types, drizzle tables, route table, client) and the next SQL
 * migration per dialect under migrations/. Everything is computed and checked first — every manifest, every
 * migration check — and then written together, or nothing is written. When neither the manifests, the
 * generators nor the migrations changed since the last run, nothing is done (the cache in generated/.codegen.json).
 */
export async function codegen(opts: CodegenOptions = {}): Promise<CodegenResult> {
  const schemasDir = resolve(opts.schemasDir ?? join(ROOT, 'schemas'));
  const outDir = resolve(opts.outDir ?? join(ROOT, 'generated'));
  const migrationsDir = resolve(opts.migrationsDir ?? join(ROOT, 'migrations'));
  const key = inputKey(schemasDir, outDir, migrationsDir);
  const none = { sqlite: { statements: [] }, pg: { statements: [] } };
  if (!opts.force && cacheValid(outDir, key)) return { model: readModel(outDir), written: [], migrations: none, cached: true };

  // the manifests' problems, and the model of those without one: the change they make is still checked below, so
  // that every problem (a manifest's, a migration's) is reported in one batch
  const { model, problems: manifestProblems } = checkManifests(schemasDir);
  let clientImport = relative(outDir, join(ROOT, 'runtime', 'client', 'index.js')).split('\\').join('/');
  if (!clientImport.startsWith('.')) clientImport = './' + clientImport;
  const { generateTypes } = await import('./generate/types.js');
  const outputs = new Map<string, string>(manifestProblems.length ? [] : [
    ['model.json', JSON.stringify(model, null, 1) + '\n'],
    ['types.ts', await generateTypes(model)],
    ['routes.ts', generateRoutes(model)],
    ['client.ts', generateClient(model, clientImport)],
    ['README.md', HEADER('<!--').replace(/\n$/, ' -->\n') + 'Everything here is derived from schemas/ by `npm run codegen` and is not committed.\n'],
  ]);
  for (const d of DIALECTS) outputs.set(`db/${d}.ts`, generateDrizzle(model, d));

  // the drizzle tables, imported from a staging copy: generated/ is not touched before every check passed
  const staging = join(ROOT, '.tmp', `codegen-${randomBytes(6).toString('hex')}`);
  const tables = {} as Record<Dialect, Record<string, unknown>>;
  const problems: ManifestProblem[] = [];
  let migration: PlannedMigration | undefined;
  try {
    for (const d of DIALECTS) {
      const file = join(staging, 'db', `${d}.ts`);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, outputs.get(`db/${d}.ts`)!);
      tables[d] = ((await import(pathToFileURL(file).href)) as { tables: Record<string, unknown> }).tables;
    }
    const { planMigration } = await import('./generate/migrations.js');
    migration = await planMigration({
      model, tables, dir: migrationsDir, allowDestructive: opts.allowDestructive, problems,
      canReplace: opts.production ? undefined : opts.canReplace,
      undo: opts.production ? undefined : readUndo(join(outDir, UNDO)),
    });
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  if (manifestProblems.length || problems.length) {
    // with manifests left out of the model (a problem of their own), a table missing from it is not taken for a drop:
    // one of them may declare it, rename it or move it
    const change = locateProblems(problems, schemasDir).filter((p) => !(manifestProblems.length && p.rule === 'drop' && p.path === ''));
    throw new ManifestError([...manifestProblems, ...change]);
  }
  if (migration && opts.production) throw new MigrationsDisagree(migration.changes);

  const files = new Map<string, string | null>();
  for (const [name, content] of outputs) {
    const path = join(outDir, name);
    if (!existsSync(path) || readFileSync(path, 'utf8') !== content) files.set(path, content);
  }
  if (migration) {
    for (const [path, content] of migration.files) files.set(path, content);
    files.set(join(outDir, UNDO), migration.undo ? JSON.stringify(migration.undo) + '\n' : null);
  }
  const written = commit(files).filter((path) => path !== join(outDir, UNDO));

  // the cache is keyed by the inputs as they are now (the migration just written included)
  const cache = { key: inputKey(schemasDir, outDir, migrationsDir), outputs: Object.fromEntries([...outputs].map(([n, c]) => [n, sha(c)])) };
  writeFileSync(join(outDir, CACHE), JSON.stringify(cache, null, 1) + '\n');

  const migrations = { sqlite: { statements: [] as string[] }, pg: { statements: [] as string[] } } as Record<Dialect, MigrationResult>;
  if (migration && !migration.removed) {
    for (const d of DIALECTS) migrations[d] = { file: join(migrationsDir, d, `${migration.tag}.sql`), statements: migration.statements[d] };
  }
  return { model, written, migrations, migration, cached: false };
}

export { ManifestError };
