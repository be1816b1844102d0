import { ROOT } from '../engine/codegen.js';
import { loadConfig } from '../runtime/config.js';
import { prepare } from '../runtime/server.js';
import { plugins } from '../plugins/index.js';

/** migrates DATABASE_URL and seeds the plugins' demo rows when the database is empty (start does this too) */
const prepared = await prepare({ config: loadConfig(), root: ROOT, plugins });
console.log(prepared.seeded ? `seeded ${prepared.seeded} demo rows` : 'the database is not empty: nothing seeded');
await prepared.database.close();
process.exit(0);
