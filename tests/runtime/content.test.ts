import { describe, it, expect, afterAll } from 'vitest';
import { execFileSync } from 'node:child_process';
import BetterSqlite3 from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../engine/codegen.js';
import { loadConfig } from '../../runtime/config.js';
import { prepare } from '../../runtime/server.js';
import { openDatabase } from '../../runtime/db/index.js';
import { loadGenerated } from '../../runtime/generated.js';
import { Repository } from '../../runtime/crud/repository.js';
import { ContentError, exportContent, importContent, type ContentSnapshot } from '../../runtime/content.js';
import { plugins } from '../../plugins/index.js';
import { pgDatabase, sqliteDatabase, type TestDatabase } from '../helpers/databases.js';

/** a migrated, empty database of the given kind, with a repository (no defaults, no seed) */
async function empty(db: TestDatabase) {
  const generated = await loadGenerated(join(ROOT, 'generated'));
  const database = openDatabase(db.url, generated.tables);
  await database.migrate(join(ROOT, 'migrations'));
  return { repo: new Repository(database, generated.model), close: async () => { await database.close(); await db.drop(); } };
}

const rowsOf = (s: ContentSnapshot) => s.entities;

describe('content snapshots: the demo site from SQLite to PostgreSQL and back', { timeout: 300_000 }, () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanup.reverse()) await c();
  });

  it.runIf(process.env.TEST_DATABASE_URL)('moves every row, ids, references and timestamps kept, and never a secret', async () => {
    const source = sqliteDatabase();
    const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: source.url, RBAC_SECRET_KEY: 'content-secret-0123456789', RBAC_JWT_SECRET: 'content-jwt-0123456789', LOG_LEVEL: 'silent' });
    const seeded = await prepare({ config, root: ROOT, plugins, seed: true });
    cleanup.push(async () => { await seeded.database.close(); await source.drop(); });
    expect(seeded.seeded).toBeGreaterThan(100);
    const reg = await seeded.app.request('/api/rbac/subjects/authentication/email-and-password/registration', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data: { login: 'mover@example.com', password: 'password123' } }) });
    expect(reg.status).toBe(201);

    const first = await exportContent(seeded.repo);
    const total = Object.values(first.entities).reduce((n, r) => n + r.length, 0);
    expect(total).toBeGreaterThan(seeded.seeded);
    expect(first.entities['rbac/session']).toBeUndefined(); // sessions need their secret: everyone signs in again
    const text = JSON.stringify(first);
    for (const secret of ['"password"', '"salt"', '"refreshHash"', '"previousRefreshHash"', '"code"']) expect(text).not.toContain(secret);
    expect(first.entities['rbac/identity'].some((r) => r.email === 'mover@example.com')).toBe(true);

    const pg = await empty(await pgDatabase());
    cleanup.push(pg.close);
    const progress: number[] = [];
    expect(await importContent(pg.repo, first, (done) => progress.push(done))).toBe(total);
    expect(progress.at(-1)).toBe(total);
    const onPg = await exportContent(pg.repo);
    expect(onPg.from).toBe('pg');
    expect(rowsOf(onPg)).toEqual(rowsOf(first));

    const back = await empty(sqliteDatabase());
    cleanup.push(back.close);
    await importContent(back.repo, onPg);
    expect(rowsOf(await exportContent(back.repo))).toEqual(rowsOf(first));

    // into a database that holds rows: refused, nothing written
    await expect(importContent(back.repo, first)).rejects.toThrow('the database is not empty');
    expect(rowsOf(await exportContent(back.repo))).toEqual(rowsOf(first));
  });

  it('refuses a file that is not a snapshot, or names what this model lacks, before writing anything', async () => {
    const target = await empty(sqliteDatabase());
    cleanup.push(target.close);
    await expect(importContent(target.repo, { hello: 'world' })).rejects.toThrow('not a content snapshot');
    const snap = { format: 'manifest-platform-content', version: 1, exportedAt: '', from: 'sqlite', entities: { 'blog/category': [{ id: '00000000-0000-4000-8000-000000000001', adminTitle: 'a', slug: 'a', title: {}, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', variant: 'default' }], 'gizmo/gadget': [{ id: 'x' }] } };
    await expect(importContent(target.repo, snap)).rejects.toThrow("'gizmo/gadget'");
    const badField = { ...snap, entities: { 'blog/category': [{ ...snap.entities['blog/category'][0], colour: 'red' }] } };
    await expect(importContent(target.repo, badField)).rejects.toThrow("no field 'colour'");
    const secret = { ...snap, entities: { 'rbac/identity': [{ id: '00000000-0000-4000-8000-000000000002', provider: 'email_and_password', password: 'x' }] } };
    await expect(importContent(target.repo, secret)).rejects.toThrow("no field 'password'");
    // a hand-edited file is held to the manifests' rules, and the database's refusals are said without the statement
    const category = snap.entities['blog/category'][0];
    const withRow = (row: Record<string, unknown>, more: Record<string, unknown[]> = {}) => ({ ...snap, entities: { 'blog/category': [{ ...category, ...row }], ...more } });
    await expect(importContent(target.repo, withRow({ slug: 'BAD SLUG' }))).rejects.toThrow(`blog/category row ${category.id}: slug breaks its rule 'pattern': slug must be lowercase letters, digits and dashes`);
    await expect(importContent(target.repo, withRow({ title: { xx: 'Not a language' } }))).rejects.toThrow(`blog/category row ${category.id}: title breaks its rule`);
    // a required field the API would generate (adminTitle) left out: the database names its column
    await expect(importContent(target.repo, withRow({ adminTitle: undefined }))).rejects.toThrow(/^blog\/category: rows 1 to 1 were refused by the database \(.*admin_title.*\); nothing was imported$/);
    const link = { id: '00000000-0000-4000-8000-000000000009', categoryId: '00000000-0000-4000-8000-0000000000ff', articleId: '00000000-0000-4000-8000-0000000000fe', variant: 'default', orderIndex: 0, createdAt: category.createdAt, updatedAt: category.updatedAt };
    const dangling = await importContent(target.repo, withRow({}, { 'blog/categories-to-articles': [link] })).catch((e: Error) => e);
    expect(dangling).toBeInstanceOf(ContentError);
    expect((dangling as Error).message).toMatch(/^blog\/categories-to-articles: rows 1 to 1 were refused by the database \(.*\); nothing was imported$/);
    expect((dangling as Error).message).not.toContain(link.id);
    expect(Object.keys((await exportContent(target.repo)).entities)).toEqual([]);
  });

  it('npm run content:export and content:import work from the command line', () => {
    const source = sqliteDatabase();
    const target = sqliteDatabase();
    cleanup.push(source.drop, target.drop);
    const out = join(ROOT, '.tmp', `content-${Date.now()}.json`);
    const env = { ...process.env, NODE_ENV: 'development', LOG_LEVEL: 'silent' };
    execFileSync('npx', ['tsx', 'scripts/seed.ts'], { cwd: ROOT, env: { ...env, DATABASE_URL: source.url }, stdio: 'pipe' });
    const exported = execFileSync('npx', ['tsx', 'scripts/content.ts', 'export', '--out', out], { cwd: ROOT, env: { ...env, DATABASE_URL: source.url } }).toString();
    expect(exported).toMatch(/exported \d+ rows of \d+ entities/);
    const imported = execFileSync('npx', ['tsx', 'scripts/content.ts', 'import', out], { cwd: ROOT, env: { ...env, DATABASE_URL: target.url } }).toString();
    expect(imported).toMatch(/imported \d+ rows .* in one transaction/);
    expect(JSON.parse(readFileSync(out, 'utf8')).format).toBe('manifest-platform-content');
    let failed = '';
    try {
      execFileSync('npx', ['tsx', 'scripts/content.ts', 'import', out], { cwd: ROOT, env: { ...env, DATABASE_URL: target.url }, stdio: 'pipe' });
    } catch (e) {
      failed = String((e as { stderr: Buffer }).stderr);
    }
    expect(failed).toContain('the database is not empty');

    // an export only reads: a database with migrations not applied is refused and left as it was (it was migrated
    // first, so a pending drop ran before the 'backup' was taken)
    const behind = sqliteDatabase();
    cleanup.push(behind.drop);
    let refused = '';
    try {
      execFileSync('npx', ['tsx', 'scripts/content.ts', 'export', '--out', out + '.behind'], { cwd: ROOT, env: { ...env, DATABASE_URL: behind.url }, stdio: 'pipe' });
    } catch (e) {
      refused = String((e as { stderr: Buffer }).stderr);
    }
    expect(refused).toMatch(/has \d+ migration\(s\) not applied \(0000_init, .*\): nothing was exported or changed/);
    const file = new BetterSqlite3(behind.url.replace(/^file:/, ''), { readonly: true });
    const tables = file.prepare("select name from sqlite_master where type = 'table' and name not like '%drizzle%'").all();
    file.close();
    expect(tables).toEqual([]);
  });
});
