import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { eq } from 'drizzle-orm';
import { DIALECTS } from '../helpers/databases.js';
import { bootApp, type TestApp } from '../helpers/app.js';
import { FILTER_METHODS } from '../../runtime/crud/query.js';

const I = '/api/rbac/identities';
const SECRETS = ['password', 'salt', 'code', 'codeExpiresAt'];

/** Secret fields (identity password, salt, code) never leave the server and cannot be probed by any query method. */
for (const d of DIALECTS) {
  describe(`secret fields on ${d.name}`, () => {
    let t: TestApp;
    let id: string;
    const secretValues = { password: 'hash-of-hunter2', salt: 'pepper', code: '123456', codeExpiresAt: '2030-01-01T00:00:00.000Z' };
    beforeAll(async () => {
      t = await bootApp(await d.make());
      const r = await t.call('POST', I, { data: { email: 'a@example.com' } });
      expect(r.status).toBe(201);
      id = r.body.data.id;
      // the server writes secrets itself (the accounts module's routes); the API never does
      const table = t.database.tables['rbac/identity'];
      await t.database.transaction((tx) => tx.update(table).set({ ...secretValues, codeExpiresAt: new Date(secretValues.codeExpiresAt) }).where(eq(table.id, id)));
    });
    afterAll(async () => t?.close());

    it('no response carries them: get, list, update, find-or-create, bulk, delete', async () => {
      const table = t.database.tables['rbac/identity'];
      const [stored] = await t.database.db.select().from(table).where(eq(table.id, id));
      expect(stored.password).toBe('hash-of-hunter2');
      const responses = [
        await t.call('GET', `${I}/${id}`),
        await t.call('GET', I),
        await t.call('PATCH', `${I}/${id}`, { data: { account: 'a@example.com' } }),
        await t.call('POST', `${I}/find-or-create`, { data: { email: 'a@example.com' } }),
        await t.call('POST', `${I}/bulk`, { data: [{ email: 'b@example.com' }] }),
        await t.call('PATCH', `${I}/bulk`, { data: [{ id, account: 'a@example.com' }] }),
      ];
      const other = await t.call('POST', I, { data: { email: 'c@example.com' } });
      responses.push(other, await t.call('DELETE', `${I}/${other.body.data.id}`));
      for (const r of responses) {
        expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
        const text = JSON.stringify(r.body);
        for (const s of SECRETS) expect(text).not.toContain(`"${s}"`);
        for (const v of ['hash-of-hunter2', 'pepper', '123456']) expect(text).not.toContain(v);
      }
    });

    it('are never written through the API, by any write, and a refusal echoes no value', async () => {
      const refused = [
        await t.call('POST', I, { data: { email: 'd@example.com', ...secretValues } }),
        await t.call('PATCH', `${I}/${id}`, { data: { code: '654321' } }),
        await t.call('POST', `${I}/find-or-create`, { data: { email: 'a@example.com', password: 'x' } }),
        await t.call('POST', `${I}/bulk`, { data: [{ email: 'b@example.com', ...secretValues }] }),
        await t.call('PATCH', `${I}/bulk`, { data: [{ id, salt: 'other' }] }),
      ];
      for (const r of refused) {
        expect(r.status, JSON.stringify(r.body)).toBe(400);
        expect(r.body.cause.every((c: { rule: string }) => c.rule === 'secret')).toBe(true);
        for (const v of ['hash-of-hunter2', 'pepper', '654321', 'other']) expect(JSON.stringify(r.body)).not.toContain(v);
      }
      const table = t.database.tables['rbac/identity'];
      const [stored] = await t.database.db.select().from(table).where(eq(table.id, id));
      expect([stored.password, stored.salt, stored.code]).toEqual(['hash-of-hunter2', 'pepper', '123456']);
    });

    it('find-or-create never matches on a secret: it cannot be used to test a guess', async () => {
      const right = await t.call('POST', `${I}/find-or-create`, { data: { email: 'a@example.com', password: 'hash-of-hunter2' } });
      const wrong = await t.call('POST', `${I}/find-or-create`, { data: { email: 'a@example.com', password: 'wrong' } });
      expect(right.status).toBe(wrong.status);
      expect(right.body).toEqual(wrong.body);
    });

    it('cannot be filtered by any method, in any group, on list or count, directly or with a prefix or path', async () => {
      const unknown = (await t.call('GET', `${I}?filters[and][0][column]=nope&filters[and][0][method]=eq&filters[and][0][value]=x`)).body.message as string;
      expect(unknown).toMatch(/^Unknown column 'nope'/);
      for (const column of [...SECRETS, 'password.en', 't1.password', 'identity.password', 'PASSWORD', ' password']) {
        for (const method of FILTER_METHODS) {
          for (const route of [I, `${I}/count`]) {
            for (const group of ['and', 'or']) {
              const r = await t.call('GET', `${route}?filters[${group}][0][column]=${encodeURIComponent(column)}&filters[${group}][0][method]=${method}&filters[${group}][0][value]=h%25`);
              expect(r.status, `${column} ${method}`).toBe(400);
              // the same answer as a column that does not exist: nothing tells a secret apart
              expect(r.body.message).toBe(unknown.replace("'nope'", `'${column}'`).replace('filters[and]', `filters[${group}]`));
            }
          }
        }
      }
    });

    it('cannot be ordered by', async () => {
      for (const column of SECRETS) {
        for (const method of ['asc', 'desc']) {
          const r = await t.call('GET', `${I}?orderBy[and][0][column]=${column}&orderBy[and][0][method]=${method}`);
          expect(r.status).toBe(400);
          expect(r.body.message).toMatch(new RegExp(`^Unknown column '${column}' in orderBy`));
        }
      }
    });

    it('the error listing allowed columns does not name them', async () => {
      const r = await t.call('GET', `${I}?filters[and][0][column]=nope&filters[and][0][method]=eq&filters[and][0][value]=x`);
      for (const s of SECRETS) expect(r.body.message).not.toMatch(new RegExp(`\\b${s}\\b`));
    });
  });
}
