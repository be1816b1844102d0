import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import cliProgress from 'cli-progress';
import { ROOT } from '../engine/codegen.js';
import { loadConfig } from '../runtime/config.js';
import { openDatabase } from '../runtime/db/index.js';
import { loadGenerated } from '../runtime/generated.js';
import { Repository } from '../runtime/crud/repository.js';
import { ContentError, exportContent, importContent } from '../runtime/content.js';

/**
 * npm run content:export -- --out site.json   every row of every entity of DATABASE_URL (secrets never)
 * npm run content:import -- site.json         into the empty database at DATABASE_URL, migrated first
 * Moving from the embedded database to PostgreSQL is one of each (README, "Moving to PostgreSQL").
 */
const [command, ...args] = process.argv.slice(2);
const config = loadConfig();
const generated = await loadGenerated(join(ROOT, 'generated'));
const database = openDatabase(config.databaseUrl, generated.tables);
const where = config.databaseUrl.replace(/\/\/[^@/]*@/, '//…@');
try {
  const migrations = join(ROOT, 'migrations');
  // an export only reads: a database behind the manifests is refused, never migrated (a pending migration may drop
  // the very column the export was to keep); an import fills a new database, so it is migrated first
  if (command === 'export') {
    const { pending } = await database.migrationStatus(migrations);
    if (pending.length) {
      throw new ContentError(
        `${where} has ${pending.length} migration(s) not applied (${pending.map((m) => m.tag).join(', ')}): nothing was exported or changed. Export with the code that matches the database (before the manifest change), or apply them first (npm run migrate) if their changes are wanted in the export.`,
      );
    }
  } else await database.migrate(migrations);
  const repo = new Repository(database, generated.model);
  if (command === 'export') {
    const i = args.indexOf('--out');
    const out = i >= 0 ? args[i + 1] : args.find((a) => !a.startsWith('--'));
    if (!out) throw new ContentError('usage: npm run content:export -- --out site.json');
    const snapshot = await exportContent(repo);
    writeFileSync(out, JSON.stringify(snapshot, null, 1) + '\n');
    const rows = Object.values(snapshot.entities).reduce((n, r) => n + r.length, 0);
    console.log(`exported ${rows} rows of ${Object.keys(snapshot.entities).length} entities from ${where} to ${out}`);
  } else if (command === 'import') {
    const file = args.find((a) => !a.startsWith('--'));
    if (!file) throw new ContentError('usage: npm run content:import -- site.json');
    let snapshot: unknown;
    try {
      snapshot = JSON.parse(readFileSync(file, 'utf8'));
    } catch (e) {
      throw new ContentError(`${file}: ${(e as Error).message}`);
    }
    // a progress bar on a terminal; nothing but the summary otherwise (CI, pipes)
    const bar = process.stderr.isTTY ? new cliProgress.SingleBar({ format: 'importing [{bar}] {percentage}% {value}/{total} rows {entity}', stream: process.stderr }, cliProgress.Presets.shades_classic) : undefined;
    let started = false;
    const n = await importContent(repo, snapshot, (done, total, entity) => {
      if (!bar) return;
      if (!started) bar.start(total, 0, { entity });
      started = true;
      bar.update(done, { entity });
    });
    bar?.stop();
    console.log(`imported ${n} rows into ${where} in one transaction`);
  } else {
    throw new ContentError('usage: npm run content:export -- --out site.json | npm run content:import -- site.json');
  }
} catch (e) {
  console.error(e instanceof ContentError ? e.message : e);
  process.exitCode = 1;
} finally {
  await database.close();
}
