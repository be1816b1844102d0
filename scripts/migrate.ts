import { join } from 'node:path';
import { ROOT } from '../engine/codegen.js';
import { loadConfig } from '../runtime/config.js';
import { openDatabase } from '../runtime/db/index.js';
import { loadGenerated } from '../runtime/generated.js';

/** applies pending migrations to DATABASE_URL (start does this too) */
const config = loadConfig();
const { tables } = await loadGenerated(join(ROOT, 'generated'));
const database = openDatabase(config.databaseUrl, tables);
try {
  await database.migrate(join(ROOT, 'migrations'));
  console.log(`migrated ${database.dialect} database`);
} finally {
  await database.close();
}
