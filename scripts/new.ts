import { execFileSync } from 'node:child_process';
import { relative } from 'node:path';
import { ROOT } from '../engine/codegen.js';
import { newEntity, newModule } from './scaffold.js';

/**
 * npm run new -- <module>/<entity>   a manifest skeleton with a comment on every option
 * npm run new -- <module>            a module: widget entity, empty plugin, widget stub and its test, wired in
 * Both end with codegen and a test run (--no-test skips the tests).
 */
const args = process.argv.slice(2);
const spec = args.find((a) => !a.startsWith('--'));
if (!spec) {
  console.error('usage: npm run new -- <module>/<entity> | <module>   (e.g. npm run new -- events/event)');
  process.exit(2);
}
const run = (cmd: string, argv: string[]) => execFileSync(cmd, argv, { cwd: ROOT, stdio: 'inherit', env: process.env });
try {
  const written = spec.includes('/') ? newEntity(spec, { root: ROOT }) : newModule(spec, { root: ROOT });
  for (const f of written) console.log(`wrote ${relative(ROOT, f)}`);
  run('npx', ['tsx', 'scripts/codegen.ts']);
  if (!args.includes('--no-test')) {
    // the new entity through the generic API (every entity's CRUD suite), or the new module's own tests
    run('npx', ['vitest', 'run', ...(spec.includes('/') ? ['tests/api/crud.test.ts'] : [`plugins/${spec}`, 'tests/api/crud.test.ts'])]);
  }
  console.log(spec.includes('/') ? `\nNext: edit schemas/${spec}.json, then npm start (the migration is applied on start).` : `\nNext: add manifests under schemas/${spec}/, routes and hooks in plugins/${spec}/server/index.ts.`);
} catch (e) {
  console.error((e as Error).message);
  process.exit(1);
}
