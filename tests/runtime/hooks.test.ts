import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { Hono } from 'hono';
import { DIALECTS } from '../helpers/databases.js';
import { bootApp, type TestApp } from '../helpers/app.js';
import { HttpError } from '../../runtime/http/errors.js';
import type { Plugin, PluginContext } from '../../runtime/plugin.js';
import type { CommitEvent } from '../../runtime/crud/hooks.js';
import { seed } from '../../runtime/seed.js';

const CATEGORIES = '/api/blog/categories';

/**
 * A plugin's typed hooks on blog/category: every write path — generic CRUD, bulk, find-or-create, a plugin
 * route writing through the repository, and seeding — runs them.
 */
function hookPlugin(log: { commits: CommitEvent[]; seenInTx: string[]; committedRows: unknown[] }): Plugin {
  return {
    name: 'hook-test',
    hooks: (ctx: PluginContext) => ({
      'blog/category': {
        beforeCreate(data) {
          if (data.adminTitle === 'forbidden') throw new HttpError(422, 'Forbidden categories are refused by a hook');
          if (data.adminTitle === 'shout') return { ...data, adminTitle: 'SHOUT' };
        },
        beforeUpdate(data, { previous }) {
          if (previous.adminTitle === 'frozen') throw new HttpError(409, 'This category is frozen');
          if (data.slug === 'from-hook') data.adminTitle = `was ${previous.adminTitle}`;
        },
        beforeDelete(previous) {
          if (previous.adminTitle === 'keep me') throw new HttpError(403, 'This category stays');
        },
        async afterCreate(row, { tx, entity }) {
          // inside the transaction: the row is there for the transaction, and a throw undoes it
          const t = ctx.database.tables[entity.id];
          const found = await tx.select({ id: t.id }).from(t);
          log.seenInTx.push(...found.filter((r: { id: string }) => r.id === row.id).map((r: { id: string }) => r.id));
          if (row.adminTitle === 'undo after') throw new HttpError(400, 'Undone after the insert');
        },
        async afterCommit(event) {
          log.commits.push(event as unknown as CommitEvent);
          // once committed, a new read (another connection on SQLite) sees the row
          log.committedRows.push(await ctx.repo.get(event.entity, event.row.id));
          if (event.row.adminTitle === 'commit fails') throw new Error('mail server down');
        },
      },
    }),
    routes: (app: Hono, ctx: PluginContext) => {
      app.post('/api/test/categories', async (c) => {
        const row = await ctx.repo.create(ctx.model.byId['blog/category'], { adminTitle: (await c.req.json()).adminTitle });
        return c.json({ data: row }, 201);
      });
    },
  };
}

for (const d of DIALECTS) {
  describe(`entity hooks on ${d.name}`, () => {
    let t: TestApp;
    const log = { commits: [] as CommitEvent[], seenInTx: [] as string[], committedRows: [] as unknown[] };
    const count = async () => (await t.call('GET', `${CATEGORIES}/count`)).body.data as number;
    beforeAll(async () => {
      t = await bootApp(await d.make(), { plugins: [hookPlugin(log)] });
    });
    afterAll(async () => t?.close());

    it('a refusing before-hook answers its status and message, and nothing is written', async () => {
      const before = await count();
      const r = await t.call('POST', CATEGORIES, { data: { adminTitle: 'forbidden' } });
      expect(r.status).toBe(422);
      expect(r.body).toMatchObject({ message: 'Forbidden categories are refused by a hook', status: 422 });
      expect(await count()).toBe(before);
    });

    it('a refusing before-hook in a bulk writes nothing at all', async () => {
      const before = await count();
      const r = await t.call('POST', `${CATEGORIES}/bulk`, { data: [{ adminTitle: 'one' }, { adminTitle: 'two' }, { adminTitle: 'forbidden' }] });
      expect(r.status).toBe(422);
      expect(await count()).toBe(before);
    });

    it('a before-hook changes the data written', async () => {
      const r = await t.call('POST', CATEGORIES, { data: { adminTitle: 'shout' } });
      expect(r.status).toBe(201);
      expect(r.body.data.adminTitle).toBe('SHOUT');
      expect((await t.call('GET', `${CATEGORIES}/${r.body.data.id}`)).body.data.adminTitle).toBe('SHOUT');
      const u = await t.call('PATCH', `${CATEGORIES}/${r.body.data.id}`, { data: { slug: 'from-hook' } });
      expect(u.body.data).toMatchObject({ slug: 'from-hook', adminTitle: 'was SHOUT' });
    });

    it('beforeUpdate sees the previous row and may refuse; beforeDelete may refuse', async () => {
      const frozen = (await t.call('POST', CATEGORIES, { data: { adminTitle: 'frozen' } })).body.data;
      const u = await t.call('PATCH', `${CATEGORIES}/${frozen.id}`, { data: { adminTitle: 'thawed' } });
      expect(u.status).toBe(409);
      expect((await t.call('GET', `${CATEGORIES}/${frozen.id}`)).body.data.adminTitle).toBe('frozen');
      const keep = (await t.call('POST', CATEGORIES, { data: { adminTitle: 'keep me' } })).body.data;
      expect((await t.call('DELETE', `${CATEGORIES}/${keep.id}`)).status).toBe(403);
      expect((await t.call('GET', `${CATEGORIES}/${keep.id}`)).status).toBe(200);
    });

    it('after-hooks run inside the transaction: they see the row, and a throw there undoes the write', async () => {
      const before = await count();
      const r = await t.call('POST', CATEGORIES, { data: { adminTitle: 'undo after' } });
      expect(r.status).toBe(400);
      expect(await count()).toBe(before);
      const ok = (await t.call('POST', CATEGORIES, { data: { adminTitle: 'seen in tx' } })).body.data;
      expect(log.seenInTx).toContain(ok.id);
      expect(log.commits.some((e) => e.row.adminTitle === 'undo after')).toBe(false);
    });

    it('afterCommit sees the committed row, once per write, with the operation and the previous row', async () => {
      log.commits.length = 0;
      log.committedRows.length = 0;
      const made = (await t.call('POST', CATEGORIES, { data: { adminTitle: 'committed' } })).body.data;
      expect(log.commits).toHaveLength(1);
      expect(log.commits[0]).toMatchObject({ operation: 'create', row: { id: made.id, adminTitle: 'committed' } });
      expect(log.committedRows[0]).toMatchObject({ id: made.id, adminTitle: 'committed' });
      await t.call('PATCH', `${CATEGORIES}/${made.id}`, { data: { adminTitle: 'renamed' } });
      expect(log.commits[1]).toMatchObject({ operation: 'update', row: { adminTitle: 'renamed' }, previous: { adminTitle: 'committed' } });
      await t.call('DELETE', `${CATEGORIES}/${made.id}`);
      expect(log.commits[2]).toMatchObject({ operation: 'delete', row: { id: made.id } });
      expect(log.committedRows[2]).toBeUndefined();
    });

    it("an afterCommit failure is logged and never undoes the write", async () => {
      const r = await t.call('POST', CATEGORIES, { data: { adminTitle: 'commit fails' } });
      expect(r.status).toBe(201);
      expect((await t.call('GET', `${CATEGORIES}/${r.body.data.id}`)).body.data.adminTitle).toBe('commit fails');
    });

    it('find-or-create, bulk update, a plugin route and seeding go through the same hooks', async () => {
      expect((await t.call('POST', `${CATEGORIES}/find-or-create`, { data: { adminTitle: 'forbidden' } })).status).toBe(422);
      const a = (await t.call('POST', CATEGORIES, { data: { adminTitle: 'frozen' } })).body.data;
      expect((await t.call('PATCH', `${CATEGORIES}/bulk`, { data: [{ id: a.id, adminTitle: 'x' }] })).status).toBe(409);
      const before = await count();
      expect((await t.call('POST', '/api/test/categories', { adminTitle: 'forbidden' })).status).toBe(422);
      expect((await t.call('POST', '/api/test/categories', { adminTitle: 'shout' })).body.data.adminTitle).toBe('SHOUT');
      await expect(seed(t.repo, [{ 'blog/category': [{ adminTitle: 'ok' }, { adminTitle: 'forbidden' }] }])).rejects.toThrow('Forbidden categories');
      expect(await count()).toBe(before + 1);
      log.commits.length = 0;
      await seed(t.repo, [{ 'blog/category': [{ adminTitle: 'seeded' }] }]);
      expect(log.commits.map((e) => e.row.adminTitle)).toEqual(['seeded']);
    });
  });
}
