import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { ROOT } from '../engine/codegen.js';
import { loadConfig } from '../runtime/config.js';
import { MigrationError, openDatabase } from '../runtime/db/index.js';
import { maskedUrl } from '../runtime/db/database.js';
import { loadGenerated } from '../runtime/generated.js';
import { readMigrations } from '../runtime/db/migrator.js';

/**
 * npm run migrate                 applies the pending migrations to DATABASE_URL (start does this too)
 * npm run migrate -- --status     lists the applied and the pending migrations
 * npm run migrate -- --dry-run    prints the SQL the pending migrations would run and runs their guards on the stored
 *                                 rows in a transaction it rolls back: what the real run would refuse (exit 1), applying nothing
 */
const args = process.argv.slice(2);
// anything else is refused before the database is opened: a mistyped --dryrun must not apply what it meant to preview
const OPTIONS = ['--status', '--dry-run'];
const unknown = args.filter((a) => !OPTIONS.includes(a));
if (unknown.length || args.length > 1) {
  console.error(`migrate: ${unknown.length ? `unknown argument '${unknown[0]}'` : 'one option at a time'}; nothing was applied.\nUsage: npm run migrate [-- --status | -- --dry-run]`);
  process.exit(1);
}
const migrationsDir = process.env.MIGRATIONS_DIR ?? join(ROOT, 'migrations');
const generatedDir = process.env.GENERATED_DIR ?? join(ROOT, 'generated');
let code = 0;
try {
  const config = loadConfig();
  // --status and --dry-run only read: a SQLite file that does not exist yet is not made by asking about it
  const file = config.databaseUrl.startsWith('file:') ? resolve(config.databaseUrl.replace(/^file:(\/\/)?/, '')) : undefined;
  if (file && !existsSync(file) && args.length) {
    const pending = readMigrations(join(migrationsDir, 'sqlite'));
    console.log(`SQLite database ${config.databaseUrl}: no such file yet (nothing was created)`);
    for (const m of pending) {
      if (args.includes('--status')) console.log(`  pending  ${m.tag}`);
      else console.log(`-- ${relative(process.cwd(), m.file)} (not applied: dry run)\n${m.statements.map((x) => x.trim()).join('\n\n')}\n`);
    }
    if (args.includes('--status')) console.log(`0 applied, ${pending.length} pending`);
    process.exit(0);
  }
  const { tables } = await loadGenerated(generatedDir);
  const database = openDatabase(config.databaseUrl, tables);
  const where = `${database.dialect === 'pg' ? 'PostgreSQL' : 'SQLite'} database ${maskedUrl(config.databaseUrl)}`;
  try {
    if (args.includes('--status')) {
      const status = await database.migrationStatus(migrationsDir);
      console.log(`${where}:`);
      for (const m of status.applied) console.log(`  applied  ${m.tag}`);
      for (const m of status.pending) console.log(`  pending  ${m.tag}`);
      console.log(`${status.applied.length} applied, ${status.pending.length} pending`);
    } else if (args.includes('--dry-run')) {
      const { pending, refusal } = await database.migrate(migrationsDir, { dryRun: true });
      if (!pending.length) console.log(`${where}: nothing to apply`);
      for (const m of pending) {
        console.log(`-- ${relative(process.cwd(), m.file)} (not applied: dry run)`);
        console.log(m.statements.map((s) => s.trim()).join('\n\n') + '\n');
      }
      // the guards ran on the rows as they are, in a transaction rolled back: what the real run would say
      if (refusal) {
        console.error(`Dry run: npm run migrate would stop here (nothing was applied by this dry run).\n${refusal.message}`);
        code = 1;
      } else if (pending.length) console.log(`${where}: the guards of ${pending.length} pending migration(s) pass on the stored rows (nothing was applied)`);
    } else {
      const { applied } = await database.migrate(migrationsDir, { onApplied: (m) => console.log(`applied ${m.tag}`) });
      console.log(applied.length ? `${where}: applied ${applied.length} migration(s)` : `${where}: up to date, nothing to apply`);
    }
  } finally {
    await database.close();
  }
} catch (e) {
  console.error(e instanceof MigrationError ? e.message : `migrate failed: ${(e as Error).message}`);
  code = 1;
}
process.exit(code);
