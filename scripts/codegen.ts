import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { codegen, MigrationsDisagree, ROOT } from '../engine/codegen.js';
import { ManifestError } from '../engine/load.js';
import type { LastMigration } from '../engine/generate/migrations.js';

/**
 * npm run codegen [-- --allow-destructive] [--force]
 *
 * Development: writes generated/ and, when the manifests changed the schema, the next migration. The last
 * migration is replaced instead of followed when it is unapplied: not applied on the development database
 * (DATABASE_URL, default file:./data/app.db) and not committed to git. With NODE_ENV=production it never writes a
 * migration: it refuses when the manifests need one (see docs/MIGRATIONS.md).
 */

/** true when git knows the file from a commit; false outside a repository or for a new file */
function committed(file: string): boolean {
  try {
    return execFileSync('git', ['log', '-1', '--format=%H', '--', relative(ROOT, file)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim() !== '';
  } catch {
    return false;
  }
}

/** whether the last migration may be replaced: not committed, and not applied on the development database (DATABASE_URL) */
export async function unapplied(last: LastMigration): Promise<boolean> {
  if (last.files.some(committed)) return false;
  const { appliedMigrations } = await import('../runtime/db/index.js');
  const url = process.env.DATABASE_URL || 'file:./data/app.db';
  // no DATABASE_URL and no default database file: the database that applied it may be another (PostgreSQL, a file
  // elsewhere), so nothing proves it unapplied: it is kept, and the change becomes a migration of its own
  if (!process.env.DATABASE_URL && !existsSync(resolve('data', 'app.db'))) return false;
  const applied = await appliedMigrations(url);
  if (!applied) return false; // the development database cannot be asked: keep the migration
  return !applied.some((a) => a.createdAt >= last.when);
}

/** runs codegen as the CLI does, printing what it did; false (after printing why) when it failed and wrote nothing */
export async function runCodegen(args: string[] = [], production = process.env.NODE_ENV === 'production'): Promise<boolean> {
  const started = Date.now();
  try {
    const { model, written, migration, cached } = await codegen({
      // another project's folders (tests use scratch projects); the platform's own by default
      schemasDir: process.env.SCHEMAS_DIR,
      outDir: process.env.GENERATED_DIR,
      migrationsDir: process.env.MIGRATIONS_DIR,
      allowDestructive: args.includes('--allow-destructive'),
      force: args.includes('--force'),
      production,
      canReplace: unapplied,
    });
    const ms = Date.now() - started;
    const counts = `${model.entities.length} entities in ${model.modules.length} modules`;
    if (cached) console.log(`codegen: ${counts}; nothing changed (cached) in ${ms} ms`);
    else {
      const what = !migration
        ? 'schema unchanged'
        : migration.removed
          ? `removed the unapplied migration ${migration.tag}: the manifests are back where the migrations before it left them` +
            (migration.restored
              ? '; migrations/ is as it was before it'
              : `\n  (no record was kept of what it replaced, generated/.migration-undo.json: meta/previous.json and model.json's "previous" ` +
                'describe nothing now; `git checkout migrations/` restores the committed ones)')
          : `${migration.replaced ? `migration ${migration.tag} (replaces the unapplied ${migration.replaced})` : `new migration ${migration.tag}`}:\n` +
            migration.changes.map((c) => `  ${c}`).join('\n');
      console.log(`codegen: ${counts}; ${written.length} file(s) updated; ${what}\n  in ${ms} ms`);
    }
  } catch (e) {
    if (e instanceof ManifestError) console.error(e.message);
    else if (e instanceof MigrationsDisagree) console.error(`codegen (production): ${e.message}`);
    else console.error(`codegen failed: ${(e as Error).message}`);
    console.error('Nothing was written.');
    return false;
  }
  return true;
}

// run as a script (npm run codegen); npm start imports runCodegen and runs it in its own process, before listening
if (process.argv[1] && /codegen\.[jt]s$/.test(process.argv[1])) {
  if (!(await runCodegen(process.argv.slice(2)))) process.exit(1);
}
