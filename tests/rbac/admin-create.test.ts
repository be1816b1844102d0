import { describe, it, expect } from 'vitest';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../../engine/codegen.js';
import { sqliteDatabase } from '../helpers/databases.js';
import { bootAccounts, ROUTES, type AccountsApp } from '../helpers/accounts.js';

describe('npm run admin:create', () => {
  it('makes the first admin, who can then sign in and write', async () => {
    const db = sqliteDatabase();
    const run = (...args: string[]) =>
      execFileSync(join(ROOT, 'node_modules/.bin/tsx'), ['scripts/admin-create.ts', ...args], { cwd: ROOT, env: { ...process.env, DATABASE_URL: db.url, LOG_LEVEL: 'silent' }, encoding: 'utf8', stdio: 'pipe', timeout: 60_000 });
    // on an empty database it seeds first, as the first start would (which then finds it used and seeds nothing)
    const first = run('--email', 'First@Example.com', '--password', 'admin-password');
    expect(first).toMatch(/^Seeded \d+ demo rows into the empty database\nCreated admin first@example.com/);
    expect(run('--email', 'second@example.com', '--password', 'admin-password')).toMatch(/^Created admin second@example.com/);
    expect(() => run('--email', 'first@example.com', '--password', 'short')).toThrow(/at least 8 characters/);
    const failure = (...args: string[]) => {
      try {
        run(...args);
      } catch (e) {
        return String((e as { stderr: string }).stderr);
      }
      return '';
    };
    // a mistyped option and a bad address are said in a line with the usage, not a stack
    const typo = failure('--emial', 'x@example.com', '--password', 'admin-password');
    expect(typo).toMatch(/^Unknown option '--emial'/);
    expect(typo).not.toContain('    at ');
    expect(failure('--email', 'bad', '--password', 'admin-password')).toContain("--email must be an email address such as admin@example.com, got 'bad'");
    const t = (await bootAccounts(db, { env: { ADMIN_EMAILS: '' } })) as AccountsApp;
    try {
      const session = await t.anon('POST', ROUTES.login, { data: { login: 'first@example.com', password: 'admin-password' } });
      expect(session.status).toBe(200);
      const me = (await t.as(session.body.data.jwt)('GET', ROUTES.me)).body.data;
      expect(me.roles.map((r: { slug: string }) => r.slug)).toContain('admin');
      expect(me.isAdmin).toBe(true);
      // finding 1: the bootstrap names its address on the server, so it counts as verified
      expect(me.identities[0]).toMatchObject({ email: 'first@example.com', emailVerifiedAt: expect.any(String) });
      expect((await t.as(session.body.data.jwt)('POST', '/api/ecommerce/products', { data: {} })).status).toBe(201);
    } finally {
      await t.close();
    }
  });
});
