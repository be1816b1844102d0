import { describe, it, expect, afterAll } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { codegen, MigrationsDisagree, ROOT } from '../../engine/codegen.js';
import { loadConfig } from '../../runtime/config.js';
import { prepare } from '../../runtime/server.js';
import { DIALECTS, type TestDatabase } from '../helpers/databases.js';
import { scratchProject, snapshotFiles } from '../helpers/schemas.js';
import { execute } from '../helpers/raw.js';

/** npm run migrate -- --status / --dry-run, and production starts that only ever apply committed migrations */

const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');
const gadget = (fields: Record<string, unknown>) => ({ name: 'gadget', route: 'gadgets', title: 'Gadget', fields });

function run(script: string, args: string[], env: Record<string, string>) {
  const r = spawnSync(TSX, [join(ROOT, 'scripts', script), ...args], {
    cwd: ROOT, encoding: 'utf8', env: { ...process.env, NODE_ENV: 'development', LOG_LEVEL: 'silent', ...env },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** a scratch project with its own database (made by a test: `t.db = await d.make()`), both gone after the block */
function migrationProject() {
  const p = scratchProject();
  const t = {
    p,
    db: undefined as unknown as TestDatabase,
    env: () => ({ DATABASE_URL: t.db.url, MIGRATIONS_DIR: p.migrationsDir, GENERATED_DIR: p.outDir }),
    gen: () => codegen({ schemasDir: p.schemasDir, outDir: p.outDir, migrationsDir: p.migrationsDir }),
  };
  afterAll(async () => {
    await t.db?.drop();
    p.remove();
  });
  return t;
}

for (const d of DIALECTS) {
  describe(`npm run codegen on ${d.name}`, { timeout: 300_000 }, () => {
    it('npm run codegen replaces the last migration while the development database has not applied it', async () => {
      const p = scratchProject();
      const db = await d.make();
      const env = () => ({ DATABASE_URL: db.url, MIGRATIONS_DIR: p.migrationsDir, GENERATED_DIR: p.outDir });
      const cli = () => run('codegen.ts', [], { ...env(), SCHEMAS_DIR: p.schemasDir });
      try {
      p.write('gizmo/gadget.json', gadget({ size: { kind: 'integer' } }));
      expect(cli().out).toContain('new migration 0000_init');
      expect(run('migrate.ts', [], env()).code).toBe(0);
      const before = snapshotFiles(p.dir, ['migrations']);
      p.write('gizmo/gadget.json', gadget({ size: { kind: 'integer' }, colour: { kind: 'text' } }));
      expect(cli().out).toContain('new migration 0001_gizmo_gadget_add_colour:\n  gizmo/gadget: add colour');
      // not applied yet: another try replaces it instead of piling up a second file
      p.write('gizmo/gadget.json', gadget({ size: { kind: 'integer' }, color: { kind: 'text' } }));
      expect(cli().out).toContain('migration 0001_gizmo_gadget_add_color (replaces the unapplied 0001_gizmo_gadget_add_colour)');
      p.write('gizmo/gadget.json', gadget({ size: { kind: 'integer' } }));
      expect(cli().out).toContain('removed the unapplied migration 0001_gizmo_gadget_add_color: the manifests are back where the migrations before it left them; migrations/ is as it was before it');
      expect(snapshotFiles(p.dir, ['migrations'])).toEqual(before);
      p.write('gizmo/gadget.json', gadget({ size: { kind: 'integer' }, capacity: { kind: 'integer', default: 3 } }));
      expect(cli().out).toContain('new migration 0001_gizmo_gadget_add_capacity');
      expect(cli().out).toContain('nothing changed (cached)');
      // once applied, the next change is a migration of its own
      expect(run('migrate.ts', [], env()).out).toContain('applied 0001_gizmo_gadget_add_capacity');
      p.write('gizmo/gadget.json', gadget({ size: { kind: 'integer' }, capacity: { kind: 'integer', default: 4 } }));
      expect(cli().out).toContain('new migration 0002_gizmo_gadget_change_capacity');
      } finally {
        await db.drop();
        p.remove();
      }
    });

  });

  describe(`migration tooling on ${d.name}`, { timeout: 300_000 }, () => {
    const t = migrationProject();
    const { p, env, gen } = t;

    it('--status lists applied and pending migrations, --dry-run prints their SQL and applies nothing, migrate applies them', async () => {
      t.db = await d.make();
      p.write('gizmo/gadget.json', gadget({ size: { kind: 'integer' } }));
      await gen();
      p.write('gizmo/gadget.json', gadget({ size: { kind: 'integer' }, capacity: { kind: 'integer', default: 3 } }));
      expect((await gen()).migration!.tag).toBe('0001_gizmo_gadget_add_capacity');

      let status = run('migrate.ts', ['--status'], env());
      expect(status.code).toBe(0);
      expect(status.out).toContain('  pending  0000_init\n  pending  0001_gizmo_gadget_add_capacity\n0 applied, 2 pending');

      const dry = run('migrate.ts', ['--dry-run'], env());
      expect(dry.code).toBe(0);
      expect(dry.out).toContain('0001_gizmo_gadget_add_capacity.sql (not applied: dry run)');
      expect(dry.out).toMatch(d.name === 'pg' ? /ALTER TABLE "gizmo_gadgets" ADD COLUMN "capacity" integer DEFAULT 3/ : /ALTER TABLE `gizmo_gadgets` ADD `capacity` integer DEFAULT 3/);
      expect(run('migrate.ts', ['--status'], env()).out).toContain('0 applied, 2 pending');
      // asking about a SQLite file that is not there yet does not make it
      if (d.name === 'sqlite') expect(existsSync(t.db.url.replace(/^file:/, ''))).toBe(false);
      // a mistyped option is refused before anything is applied (it used to fall through to applying everything)
      for (const typo of ['--dryrun', '--stat', '-n']) {
        const r = run('migrate.ts', [typo], env());
        expect(r.code, typo).toBe(1);
        expect(r.err).toContain(`unknown argument '${typo}'; nothing was applied`);
      }
      expect(run('migrate.ts', ['--status'], env()).out).toContain('0 applied, 2 pending');

      const applied = run('migrate.ts', [], env());
      expect(applied.code).toBe(0);
      expect(applied.out).toContain('applied 0000_init\napplied 0001_gizmo_gadget_add_capacity\n');
      status = run('migrate.ts', ['--status'], env());
      expect(status.out).toContain('  applied  0000_init\n  applied  0001_gizmo_gadget_add_capacity\n2 applied, 0 pending');
      expect(run('migrate.ts', [], env()).out).toContain('up to date, nothing to apply');
    });

    it('a refused migration is reported without a stack, naming its file and why', async () => {
      p.write('gizmo/gadget.json', gadget({ size: { kind: 'integer' }, capacity: { kind: 'integer', default: 3 }, code: { kind: 'text' } }));
      await gen();
      run('migrate.ts', [], env());
      // a unique over duplicates: refused by the migration's guard
      const now = d.name === 'pg' ? 'now()' : '1';
      await execute(t.db, `INSERT INTO gizmo_gadgets (id, created_at, updated_at, variant, code) VALUES ('00000000-0000-4000-8000-000000000001', ${now}, ${now}, 'default', 'x'), ('00000000-0000-4000-8000-000000000002', ${now}, ${now}, 'default', 'x')`);
      p.write('gizmo/gadget.json', gadget({ size: { kind: 'integer' }, capacity: { kind: 'integer', default: 3 }, code: { kind: 'text', unique: true } }));
      await gen();
      const r = run('migrate.ts', [], env());
      expect(r.code).toBe(1);
      expect(r.err).toContain("0003_gizmo_gadget_change_code.sql refused: gizmo/gadget.code is to be unique, but 1 value(s) occur more than once: 'x' (2 rows)");
      expect(r.err).not.toMatch(/\n\s+at /); // no stack
    });

    it('in production nothing is generated: a start applies committed migrations only, and refuses when the manifests need one that is not committed', async () => {
      const config = loadConfig({ NODE_ENV: 'production', DATABASE_URL: t.db.url, RBAC_SECRET_KEY: 'production-secret-0123456789', RBAC_JWT_SECRET: 'production-jwt-0123456789', LOG_LEVEL: 'silent' });
      const opts = { root: ROOT, schemasDir: p.schemasDir, generatedDir: p.outDir, migrationsDir: p.migrationsDir, config, plugins: [], seed: false };
      const before = snapshotFiles(p.dir, ['migrations']);
      // a manifest changed but no migration committed for it
      p.write('gizmo/gadget.json', gadget({ size: { kind: 'integer' }, capacity: { kind: 'integer', default: 3 }, code: { kind: 'text', unique: true }, weight: { kind: 'number' } }));
      const refused = await prepare(opts).catch((e) => e);
      expect(refused).toBeInstanceOf(MigrationsDisagree);
      expect(refused.message).toContain('the manifests need a migration that migrations/ does not have (gizmo/gadget: add weight)');
      expect(refused.message).toContain('run `npm run codegen` in development, commit migrations/, and deploy that');
      await expect(codegen({ schemasDir: p.schemasDir, outDir: p.outDir, migrationsDir: p.migrationsDir, production: true })).rejects.toThrow(MigrationsDisagree);
      expect(snapshotFiles(p.dir, ['migrations'])).toEqual(before);
      // the manifests as committed: the pending migration is applied, and nothing is written
      p.write('gizmo/gadget.json', gadget({ size: { kind: 'integer' }, capacity: { kind: 'integer', default: 3 }, code: { kind: 'text', unique: true } }));
      await execute(t.db, "DELETE FROM gizmo_gadgets WHERE id = '00000000-0000-4000-8000-000000000002'");
      const started = await prepare(opts);
      expect(started.migrated).toEqual(['0003_gizmo_gadget_change_code']);
      await started.database.close();
      expect(snapshotFiles(p.dir, ['migrations'])).toEqual(before);
    });
  });
}

for (const d of DIALECTS) {
  describe(`npm run migrate -- --dry-run runs the guards on ${d.name}`, { timeout: 300_000 }, () => {
    const t = migrationProject();
    const { p, env, gen } = t;

    it('says what the real run would refuse, with its message, and writes nothing; also for a guard that reads what an earlier pending migration adds', async () => {
      t.db = await d.make();
      p.write('gizmo/gadget.json', gadget({ size: { kind: 'integer' } }));
      await gen();
      expect(run('migrate.ts', [], env()).code).toBe(0);
      const now = d.name === 'pg' ? 'now()' : '1';
      await execute(t.db, `INSERT INTO gizmo_gadgets (id, created_at, updated_at, variant, size) VALUES ('00000000-0000-4000-8000-000000000001', ${now}, ${now}, 'default', 1), ('00000000-0000-4000-8000-000000000002', ${now}, ${now}, 'default', 2)`);
      // 0001 adds code with one default for every row; 0002 makes it unique: its guard reads a column 0001 adds
      p.write('gizmo/gadget.json', gadget({ size: { kind: 'integer' }, code: { kind: 'text', default: 'x' } }));
      await gen();
      p.write('gizmo/gadget.json', gadget({ size: { kind: 'integer' }, code: { kind: 'text', default: 'x', unique: true } }));
      expect((await gen()).migration!.tag).toBe('0002_gizmo_gadget_change_code');
      const dry = run('migrate.ts', ['--dry-run'], env());
      expect(dry.code).toBe(1);
      expect(dry.out).toContain('0002_gizmo_gadget_change_code.sql (not applied: dry run)');
      const message = "0002_gizmo_gadget_change_code.sql refused: gizmo/gadget.code is to be unique, but 1 value(s) occur more than once: 'x' (2 rows)";
      expect(dry.err).toContain('Dry run: npm run migrate would stop here');
      expect(dry.err).toContain(message);
      expect(dry.err).not.toMatch(/\n\s+at /);
      // nothing was written: both still pending, no column added
      expect(run('migrate.ts', ['--status'], env()).out).toContain('  pending  0001_gizmo_gadget_add_code\n  pending  0002_gizmo_gadget_change_code\n1 applied, 2 pending');
      expect(Object.keys((await execute(t.db, 'SELECT * FROM gizmo_gadgets'))[0]).sort()).toEqual(['class_name', 'created_at', 'id', 'size', 'updated_at', 'variant']);
      // the rows fixed: the dry run passes, and still applies nothing
      await execute(t.db, "DELETE FROM gizmo_gadgets WHERE id = '00000000-0000-4000-8000-000000000002'");
      const passing = run('migrate.ts', ['--dry-run'], env());
      expect(passing.code).toBe(0);
      expect(passing.out).toContain('the guards of 2 pending migration(s) pass on the stored rows (nothing was applied)');
      expect(run('migrate.ts', ['--status'], env()).out).toContain('1 applied, 2 pending');
      // broken again: the real run refuses with the message the dry run gave (after applying 0001 in its own transaction)
      await execute(t.db, `INSERT INTO gizmo_gadgets (id, created_at, updated_at, variant, size) VALUES ('00000000-0000-4000-8000-000000000002', ${now}, ${now}, 'default', 2)`);
      const real = run('migrate.ts', [], env());
      expect(real.code).toBe(1);
      expect(real.err).toContain(message);
    });
  });
}

describe('npm run codegen in production', { timeout: 300_000 }, () => {
  it('writes no migration, and passes when the committed migrations reach the manifests', () => {
    const before = execFileSync('git', ['status', '--porcelain', '--', 'migrations'], { cwd: ROOT }).toString();
    const r = run('codegen.ts', [], { NODE_ENV: 'production' });
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/codegen: \d+ entities in \d+ modules; (nothing changed \(cached\)|\d+ file\(s\) updated; schema unchanged)/);
    expect(execFileSync('git', ['status', '--porcelain', '--', 'migrations'], { cwd: ROOT }).toString()).toBe(before);
  });
});
