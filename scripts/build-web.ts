import { build } from 'vite';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../engine/codegen.js';
import { firstLoads, gzipBytes, kb, overBudget, precompress, type Budget, type Manifest } from './web-budget.js';

/**
 * Builds both web apps, compresses their assets once (.br and .gz next to each), prints each app's first-load
 * JavaScript (gzip) and fails when one is over its budget in web/budget.json.
 */
const dist = join(ROOT, 'web', 'dist');
await build({ configFile: join(ROOT, 'web', 'vite.config.ts'), logLevel: 'warn' });
const written = precompress(join(dist, 'assets'));
const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8')) as Manifest;
const budget = JSON.parse(readFileSync(join(ROOT, 'web', 'budget.json'), 'utf8')) as Budget;
const loads = firstLoads(manifest, (file) => gzipBytes(readFileSync(join(dist, file))));
console.log(`\nweb: ${written} compressed files written (.br, .gz)\nfirst-load JS (entry + static imports, gzip; budget in web/budget.json):`);
for (const l of loads) {
  const limit = budget.firstLoadJsGzipKB[l.app];
  console.log(`  ${l.app.padEnd(12)} ${kb(l.gzipBytes).padStart(10)}  of ${limit === undefined ? '(no budget)' : `${limit} kB`}  in ${l.files.length} files`);
}
const problems = overBudget(loads, budget);
if (problems.length) {
  console.error(`\nweb bundles over budget:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
