import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { codegen } from '../../engine/codegen.js';
import { DIALECTS } from '../helpers/databases.js';
import { bootApp } from '../helpers/app.js';
import { scratchProject } from '../helpers/schemas.js';
import { GENEROUS, ROUTES } from '../helpers/accounts.js';
import { notification } from '../../plugins/notification/server/index.js';
import { createRbacPlugin } from '../../plugins/rbac/server/index.js';
import { expand } from '../../runtime/crud/expand.js';

const ADMIN_ROLE = '8b3e4c60-0000-4000-8000-000000000001';
const MEMBER_ROLE = '8b3e4c60-0000-4000-8000-000000000002';

/**
 * A module dropped in by an integrator, with ownership and field access declared in its manifests and no
 * code: notes are public, owned by their author, with an owner-only field, an admin-only field and a field
 * for the 'editor' role; drafts are private and owned through their author; tags link notes.
 */
const MANIFESTS = {
  'notes/note.json': {
    name: 'note', route: 'notes', title: 'Note', owner: 'authorId',
    fields: {
      text: { kind: 'text' },
      authorId: { kind: 'reference', to: 'rbac/subject', required: true },
      privateRemark: { kind: 'text', access: { read: ['owner', 'admin'] } },
      approved: { kind: 'boolean', default: false, access: { write: ['admin'] } },
      editorial: { kind: 'text', access: { read: ['editor'], write: ['editor'] } },
    },
  },
  'notes/draft.json': {
    name: 'draft', route: 'drafts', title: 'Draft', access: 'private', owner: 'authorId',
    fields: { text: { kind: 'text' }, authorId: { kind: 'reference', to: 'rbac/subject', required: true } },
  },
  'notes/tag.json': { name: 'tag', route: 'tags', title: 'Tag', fields: { label: { kind: 'text' } } },
  'notes/notes-to-tags.json': {
    name: 'notes-to-tags', route: 'notes-to-tags', title: 'Notes to tags', relation: ['noteId', 'tagId'],
    fields: { noteId: { kind: 'reference', to: 'note', required: true }, tagId: { kind: 'reference', to: 'tag', required: true } },
  },
};

const project = scratchProject({ copySchemas: true });
beforeAll(async () => {
  for (const [path, m] of Object.entries(MANIFESTS)) project.write(path, { $schema: '../meta/manifest.schema.json', ...m });
  await codegen({ schemasDir: project.schemasDir, outDir: project.outDir, migrationsDir: project.migrationsDir });
}, 120_000);
afterAll(() => project.remove());

async function boot(make: () => Promise<import('../helpers/databases.js').TestDatabase>) {
  const t = await bootApp(await make(), {
    plugins: [notification, createRbacPlugin({ limits: GENEROUS })],
    generatedDir: project.outDir,
    migrationsDir: project.migrationsDir,
  });
  const as = (token?: string) => (method: string, path: string, body?: unknown) => t.call(method, path, body, token ? { token } : { auth: false });
  async function register(login: string) {
    const r = await as()('POST', ROUTES.register, { data: { login, password: 'password123' } });
    const me = await as(r.body.data.jwt)('GET', ROUTES.me);
    return { jwt: r.body.data.jwt as string, id: me.body.data.id as string, call: as(r.body.data.jwt) };
  }
  /** a role, granted a permission for each [method, route] */
  async function grant(roleId: string, routes: [string, string][]) {
    for (const [method, route] of routes) {
      const perm = (await t.call('POST', '/api/rbac/permissions/find-or-create', { data: { method, route } })).body.data;
      await t.call('POST', '/api/rbac/roles-to-permissions', { data: { roleId, permissionId: perm.id } });
    }
  }
  return { t, anon: as(), register, grant };
}

for (const d of DIALECTS) {
  describe(`access declared in the manifests, on ${d.name}`, () => {
    let s: Awaited<ReturnType<typeof boot>>;
    let a: Awaited<ReturnType<Awaited<ReturnType<typeof boot>>['register']>>;
    let b: typeof a;
    let admin: typeof a;
    let editor: typeof a;
    const sys = (method: string, path: string, body?: unknown) => s.t.call(method, path, body);

    beforeAll(async () => {
      s = await boot(d.make);
      a = await s.register('a@example.com');
      b = await s.register('b@example.com');
      admin = await s.register('admin-by-role@example.com');
      editor = await s.register('editor@example.com');
      await sys('POST', '/api/rbac/subjects-to-roles', { data: { subjectId: admin.id, roleId: ADMIN_ROLE } });
      const role = (await sys('POST', '/api/rbac/roles', { data: { slug: 'editor', title: 'Editor' } })).body.data;
      await sys('POST', '/api/rbac/subjects-to-roles', { data: { subjectId: editor.id, roleId: role.id } });
      await s.grant(MEMBER_ROLE, [['*', '/api/notes/**']]);
      await s.grant(role.id, [['*', '/api/notes/**']]);
    });
    afterAll(async () => s?.t.close());

    it('a subject creating an owned row becomes its owner with no code; naming another subject is refused', async () => {
      const made = await a.call('POST', '/api/notes/drafts', { data: { text: 'mine' } });
      expect(made.status).toBe(201);
      expect(made.body.data.authorId).toBe(a.id);
      const before = (await sys('GET', '/api/notes/drafts/count')).body.data;
      const forged = await a.call('POST', '/api/notes/drafts', { data: { text: 'theirs', authorId: b.id } });
      expect(forged.status).toBe(403);
      expect((await sys('GET', '/api/notes/drafts/count')).body.data).toBe(before);
    });

    it('lists and counts of a private owned entity hold only the caller\'s rows; another\'s row is 403 to read, change or delete', async () => {
      const mine = (await a.call('POST', '/api/notes/drafts', { data: { text: 'a-1' } })).body.data;
      const theirs = (await b.call('POST', '/api/notes/drafts', { data: { text: 'b-1' } })).body.data;
      const list = await a.call('GET', '/api/notes/drafts?limit=1000');
      expect(list.status).toBe(200);
      expect(list.body.data.every((r: { authorId: string }) => r.authorId === a.id)).toBe(true);
      expect(list.body.data.map((r: { id: string }) => r.id)).toContain(mine.id);
      expect((await a.call('GET', '/api/notes/drafts/count')).body.data).toBe(list.body.data.length);
      expect((await a.call('GET', `/api/notes/drafts/${theirs.id}`)).status).toBe(403);
      expect((await a.call('PATCH', `/api/notes/drafts/${theirs.id}`, { data: { text: 'stolen' } })).status).toBe(403);
      expect((await a.call('DELETE', `/api/notes/drafts/${theirs.id}`)).status).toBe(403);
      expect((await sys('GET', `/api/notes/drafts/${theirs.id}`)).body.data.text).toBe('b-1');
      // moving one's own row to another subject is judged on the row after the write
      expect((await a.call('PATCH', `/api/notes/drafts/${mine.id}`, { data: { authorId: b.id } })).status).toBe(403);
      expect((await sys('GET', `/api/notes/drafts/${mine.id}`)).body.data.authorId).toBe(a.id);
    });

    it('find-or-create finds only the caller\'s own rows, and checks a body without an id like any other', async () => {
      const theirs = (await b.call('POST', '/api/notes/drafts', { data: { text: 'same text' } })).body.data;
      const r = await a.call('POST', '/api/notes/drafts/find-or-create', { data: { text: 'same text' } });
      expect(r.status).toBe(201);
      expect(r.body.data.id).not.toBe(theirs.id);
      expect(r.body.data.authorId).toBe(a.id);
      const again = await a.call('POST', '/api/notes/drafts/find-or-create', { data: { text: 'same text' } });
      expect(again.status).toBe(200);
      expect(again.body.data.id).toBe(r.body.data.id);
      expect((await a.call('POST', '/api/notes/drafts/find-or-create', { data: { text: 'same text', authorId: b.id } })).status).toBe(403);
    });

    it('a field the caller may not write is refused with 403 naming it, on create, update, bulk and find-or-create — never dropped', async () => {
      const count = async () => (await sys('GET', '/api/notes/notes/count')).body.data as number;
      const before = await count();
      const r = await a.call('POST', '/api/notes/notes', { data: { text: 'hi', approved: true } });
      expect(r.status).toBe(403);
      expect(r.body.cause).toEqual([expect.objectContaining({ field: 'approved', rule: 'access' })]);
      expect(r.body.message).toContain('approved');
      const bulk = await a.call('POST', '/api/notes/notes/bulk', { data: [{ text: 'ok' }, { text: 'no', editorial: 'x' }] });
      expect(bulk.status).toBe(403);
      expect(bulk.body.cause[0].field).toBe('editorial');
      expect((await a.call('POST', '/api/notes/notes/find-or-create', { data: { text: 'x', approved: true } })).status).toBe(403);
      expect(await count()).toBe(before);
      const note = (await a.call('POST', '/api/notes/notes', { data: { text: 'hi' } })).body.data;
      expect((await a.call('PATCH', `/api/notes/notes/${note.id}`, { data: { approved: true } })).status).toBe(403);
      expect((await a.call('PATCH', '/api/notes/notes/bulk', { data: [{ id: note.id, approved: true }] })).status).toBe(403);
      expect((await sys('GET', `/api/notes/notes/${note.id}`)).body.data.approved).toBe(false);
      expect((await admin.call('PATCH', `/api/notes/notes/${note.id}`, { data: { approved: true } })).body.data.approved).toBe(true);
      // a role slug: the editor writes the editorial field of a note it does not own? No: the row is not its own
      expect((await editor.call('PATCH', `/api/notes/notes/${note.id}`, { data: { editorial: 'by editor' } })).status).toBe(403);
      const own = (await editor.call('POST', '/api/notes/notes', { data: { text: 'editor note', editorial: 'by editor' } }));
      expect(own.status).toBe(201);
      expect(own.body.data.editorial).toBe('by editor');
    });

    it('a read leaves out the fields the caller may not read: lists, single reads, find-or-create and expansions', async () => {
      const note = (await a.call('POST', '/api/notes/notes', { data: { text: 'remark', privateRemark: 'only me' } })).body.data;
      await sys('PATCH', `/api/notes/notes/${note.id}`, { data: { editorial: 'desk' } });
      const field = (rows: Record<string, unknown>[], name: string) => rows.find((r) => r.id === note.id)?.[name];
      expect(note.privateRemark).toBe('only me');
      const anonymous = await s.anon('GET', `/api/notes/notes/${note.id}`);
      expect(anonymous.status).toBe(200);
      expect(anonymous.body.data).not.toHaveProperty('privateRemark');
      expect(anonymous.body.data).not.toHaveProperty('editorial');
      expect(anonymous.body.data.text).toBe('remark');
      expect(field((await b.call('GET', '/api/notes/notes?limit=1000')).body.data, 'privateRemark')).toBeUndefined();
      expect(field((await a.call('GET', '/api/notes/notes?limit=1000')).body.data, 'privateRemark')).toBe('only me');
      expect(field((await a.call('GET', '/api/notes/notes?limit=1000')).body.data, 'editorial')).toBeUndefined();
      expect(field((await editor.call('GET', '/api/notes/notes?limit=1000')).body.data, 'editorial')).toBe('desk');
      expect((await admin.call('GET', `/api/notes/notes/${note.id}`)).body.data).toMatchObject({ privateRemark: 'only me', editorial: 'desk' });
      // find-or-create never hands another subject's row (with its owner-only field) to the caller
      const found = await b.call('POST', '/api/notes/notes/find-or-create', { data: { text: 'remark' } });
      expect(found.status).toBe(201);
      expect(found.body.data.id).not.toBe(note.id);
      expect(found.body.data).toMatchObject({ authorId: b.id, privateRemark: null });
      // expansions (and so page data) carry only what everyone may read
      const tag = (await sys('POST', '/api/notes/tags', { data: { label: 't' } })).body.data;
      await sys('POST', '/api/notes/notes-to-tags', { data: { noteId: note.id, tagId: tag.id } });
      const [row] = await expand(s.t.repo, s.t.database.db, s.t.model.byId['notes/note'], [(await sys('GET', `/api/notes/notes/${note.id}`)).body.data], 2);
      expect(row.notesToTags).toHaveLength(1);
      const [viaTag] = await expand(s.t.repo, s.t.database.db, s.t.model.byId['notes/tag'], [tag], 2);
      expect(viaTag).toBeDefined();
      const rows = await s.t.database.db.select(s.t.repo.publicColumns(s.t.model.byId['notes/note'])).from(s.t.database.tables['notes/note']);
      expect(Object.keys(rows[0])).not.toContain('privateRemark');
      expect(Object.keys(rows[0])).not.toContain('editorial');
    });

    it('a field the caller may not read on every row cannot be filtered or ordered on', async () => {
      const q = (column: string) => `/api/notes/notes?filters[and][0][column]=${column}&filters[and][0][method]=ilike&filters[and][0][value]=only`;
      for (const call of [s.anon, b.call, a.call]) {
        const r = await call('GET', q('privateRemark'));
        expect(r.status).toBe(400);
        expect(r.body.cause[0]).toMatchObject({ rule: 'column' });
        expect(r.body.message.split('columns of')[1]).not.toContain('privateRemark'); // not among the columns it lists
      }
      expect((await s.anon('GET', '/api/notes/notes?orderBy[and][0][column]=editorial&orderBy[and][0][method]=asc')).status).toBe(400);
      expect((await editor.call('GET', q('editorial'))).status).toBe(200); // the editor role reads it on every row
      expect((await admin.call('GET', q('privateRemark'))).status).toBe(200);
    });

    it('a relation row needs the right to write both ends: linking another subject\'s note is refused', async () => {
      const tag = (await sys('POST', '/api/notes/tags', { data: { label: 'mine' } })).body.data;
      const mine = (await a.call('POST', '/api/notes/notes', { data: { text: 'a note' } })).body.data;
      const theirs = (await b.call('POST', '/api/notes/notes', { data: { text: 'b note' } })).body.data;
      // the tag is nobody's: a member may link to it only if the route permissions let it update tags (they do here)
      expect((await a.call('POST', '/api/notes/notes-to-tags', { data: { noteId: mine.id, tagId: tag.id } })).status).toBe(201);
      const before = (await sys('GET', '/api/notes/notes-to-tags/count')).body.data;
      const r = await a.call('POST', '/api/notes/notes-to-tags', { data: { noteId: theirs.id, tagId: tag.id } });
      expect(r.status).toBe(403);
      expect(r.body.cause[0]).toMatchObject({ field: 'noteId', rule: 'access' });
      expect((await sys('GET', '/api/notes/notes-to-tags/count')).body.data).toBe(before);
    });

    it('an anonymous caller with a public permission still cannot write an owned entity', async () => {
      await s.grant(MEMBER_ROLE, []);
      const perm = (await sys('POST', '/api/rbac/permissions', { data: { method: 'POST', route: '/api/notes/drafts' } })).body.data;
      expect(perm.id).toBeDefined();
      const r = await s.anon('POST', '/api/notes/drafts', { data: { text: 'anon', authorId: a.id } });
      expect(r.status).toBe(403);
    });
  });
}

describe('GET /api/admin/model tells the admin what the account may read and write', () => {
  it('per field, from the manifest and the caller\'s roles; admins may everything', async () => {
    const s = await boot(DIALECTS[0].make);
    try {
      const editor = await s.register('model-editor@example.com');
      const role = (await s.t.call('POST', '/api/rbac/roles', { data: { slug: 'editor', title: 'Editor' } })).body.data;
      await s.t.call('POST', '/api/rbac/subjects-to-roles', { data: { subjectId: editor.id, roleId: role.id } });
      const member = await s.register('model-member@example.com');
      expect((await member.call('GET', '/api/admin/model')).status).toBe(403);
      await s.grant(role.id, [['GET', '/api/admin/model']]);
      const model = (await editor.call('GET', '/api/admin/model')).body.data;
      const note = model.entities.find((e: { id: string }) => e.id === 'notes/note');
      const f = (name: string) => note.fields.find((x: { name: string }) => x.name === name);
      expect(f('approved')).toMatchObject({ access: { write: ['admin'] }, readable: true, writable: false });
      expect(f('editorial')).toMatchObject({ readable: true, writable: true });
      expect(f('privateRemark')).toMatchObject({ readable: true }); // owner: decided per row by the server
      expect(f('text')).toMatchObject({ readable: true, writable: true });
      const order = model.entities.find((e: { id: string }) => e.id === 'ecommerce/order');
      expect(order.fields.find((x: { name: string }) => x.name === 'status')).toMatchObject({ writable: false });
      const asSystem = (await s.t.call('GET', '/api/admin/model')).body.data;
      expect(asSystem.entities.find((e: { id: string }) => e.id === 'notes/note').fields.find((x: { name: string }) => x.name === 'approved').writable).toBeUndefined();
    } finally {
      await s.t.close();
    }
  });
});
