import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadModel } from './load.js';
import type { Model } from './model.js';
import { generateDrizzle } from './generate/drizzle.js';
import { generateTypes } from './generate/types.js';
import { generateClient, generateRoutes } from './generate/routes.js';
import { generateMigration, type MigrationResult } from './generate/migrations.js';
import { HEADER } from './generate/header.js';
import type { Dialect } from './fields/index.js';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export interface CodegenOptions {
  schemasDir?: string;
  outDir?: string;
  migrationsDir?: string;
  allowDestructive?: boolean;
}

export interface CodegenResult {
  model: Model;
  written: string[];
  migrations: Record<Dialect, MigrationResult>;
}

function writeIfChanged(path: string, content: string, written: string[]) {
  if (existsSync(path) && readFileSync(path, 'utf8') === content) return;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  written.push(path);
}

/**
 * Manifests → model graph → generated/ (model.json, types, drizzle tables, route table, client)
 * and the next SQL migration per dialect under migrations/.
 */
export async function codegen(opts: CodegenOptions = {}): Promise<CodegenResult> {
  const schemasDir = resolve(opts.schemasDir ?? join(ROOT, 'schemas'));
  const outDir = resolve(opts.outDir ?? join(ROOT, 'generated'));
  const migrationsDir = resolve(opts.migrationsDir ?? join(ROOT, 'migrations'));
  const model = loadModel(schemasDir);
  const written: string[] = [];
  let clientImport = relative(outDir, join(ROOT, 'runtime', 'client', 'index.js')).split('\\').join('/');
  if (!clientImport.startsWith('.')) clientImport = './' + clientImport;

  writeIfChanged(join(outDir, 'model.json'), JSON.stringify(model, null, 1) + '\n', written);
  writeIfChanged(join(outDir, 'types.ts'), await generateTypes(model), written);
  writeIfChanged(join(outDir, 'routes.ts'), generateRoutes(model), written);
  writeIfChanged(join(outDir, 'client.ts'), generateClient(model, clientImport), written);
  writeIfChanged(join(outDir, 'README.md'), HEADER('<!--').replace(/\n$/, ' -->\n') + 'Everything here is derived from schemas/ by `npm run codegen` and is not committed.\n', written);
  const migrations = {} as Record<Dialect, MigrationResult>;
  for (const dialect of ['sqlite', 'pg'] as const) {
    const file = join(outDir, 'db', `${dialect}.ts`);
    writeIfChanged(file, generateDrizzle(model, dialect), written);
    // a fresh URL each run: the module may have changed since an earlier import in this process
    const mod = (await import(pathToFileURL(file).href + `?v=${Date.now()}`)) as { tables: Record<string, unknown> };
    migrations[dialect] = await generateMigration({
      dialect, tables: mod.tables, dir: join(migrationsDir, dialect), model, allowDestructive: opts.allowDestructive,
    });
  }
  return { model, written, migrations };
}
