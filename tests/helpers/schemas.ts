import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, expect } from 'vitest';
import { codegen, ROOT } from '../../engine/codegen.js';
import { appliedMigrations, MigrationError } from '../../runtime/db/index.js';
import type { TestDatabase } from './databases.js';
import { bootApp } from './app.js';

/**
 * A scratch project under .tmp/ (inside the repo, so generated code resolves node_modules):
 * a copy of schemas/ (or only the meta-schema), plus its own generated/ and migrations/.
 */
export function scratchProject(opts: { copySchemas?: boolean } = {}) {
  const dir = join(ROOT, '.tmp', 'project-' + randomBytes(6).toString('hex'));
  const schemasDir = join(dir, 'schemas');
  mkdirSync(schemasDir, { recursive: true });
  if (opts.copySchemas) cpSync(join(ROOT, 'schemas'), schemasDir, { recursive: true });
  else cpSync(join(ROOT, 'schemas', 'meta'), join(schemasDir, 'meta'), { recursive: true });
  return {
    dir,
    schemasDir,
    outDir: join(dir, 'generated'),
    migrationsDir: join(dir, 'migrations'),
    write(path: string, manifest: unknown) {
      mkdirSync(join(schemasDir, path, '..'), { recursive: true });
      writeFileSync(join(schemasDir, path), typeof manifest === 'string' ? manifest : JSON.stringify(manifest, null, 2));
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** every file under the given folders of `dir`, as path → SHA-256 of its content: to show that nothing was written */
export function snapshotFiles(dir: string, folders: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    if (!existsSync(d)) return;
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else out[relative(dir, path)] = createHash('sha256').update(readFileSync(path)).digest('hex');
    }
  };
  for (const f of folders) walk(join(dir, f));
  return out;
}

/**
 * A scratch project migrated on one database: `gen` runs codegen (the last migration is replaced while that database
 * has not applied it, as scripts/codegen.ts does; `canReplace: false` never), `boot` starts the app on the project's
 * generated code and migrations, and `refusal` is the MigrationError booting throws.
 */
export function migrating(p: ReturnType<typeof scratchProject>, db: () => TestDatabase) {
  const gen = (extra: { allowDestructive?: boolean; canReplace?: boolean } = {}) =>
    codegen({
      schemasDir: p.schemasDir, outDir: p.outDir, migrationsDir: p.migrationsDir, allowDestructive: extra.allowDestructive,
      canReplace: async (last) => extra.canReplace !== false && !(await appliedMigrations(db().url))?.some((a) => a.createdAt >= last.when),
    });
  const boot = () => bootApp(db(), { generatedDir: p.outDir, migrationsDir: p.migrationsDir });
  const refusal = async () => {
    const e = await boot().then(async (t) => (await t.database.close(), undefined), (err) => err);
    expect(e).toBeInstanceOf(MigrationError);
    return e as MigrationError;
  };
  return { gen, boot, refusal };
}

/**
 * A suite's scratch projects: each call makes a project and a database of its own, migrated by `migrating`; the
 * suite drops them all when it ends.
 */
export function scratchMigrations(dialect: { make(): Promise<TestDatabase> }) {
  const made: { p: ReturnType<typeof scratchProject>; db: TestDatabase }[] = [];
  afterAll(async () => {
    for (const { db } of made) await db.drop();
    for (const { p } of made) p.remove();
  });
  return async () => {
    const p = scratchProject();
    const db = await dialect.make();
    made.push({ p, db });
    return { p, db, ...migrating(p, () => db) };
  };
}
