import { relative } from 'node:path';
import { codegen, ROOT } from '../engine/codegen.js';
import { ManifestError } from '../engine/load.js';

const started = Date.now();
try {
  const { model, written, migrations } = await codegen({ allowDestructive: process.argv.includes('--allow-destructive') });
  const made = Object.entries(migrations).filter(([, m]) => m.file).map(([d, m]) => `${d}: ${relative(ROOT, m.file!)} (${m.statements.length} statements)`);
  console.log(
    `codegen: ${model.entities.length} entities in ${model.modules.length} modules; ${written.length} file(s) updated` +
      (made.length ? `; new migration ${made.join(', ')}` : '; schema unchanged') + ` in ${Date.now() - started} ms`,
  );
} catch (e) {
  console.error(e instanceof ManifestError ? e.message : `codegen failed: ${(e as Error).message}`);
  process.exit(1);
}
