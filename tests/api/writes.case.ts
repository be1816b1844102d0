import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { bootApp, type TestApp } from '../helpers/app.js';
import type { TestDatabase } from '../helpers/databases.js';

const P = '/api/ecommerce/products';
const PA = '/api/ecommerce/products-to-attributes';
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/** create, update, delete, find-or-create and bulk: their rules and errors, on each database */
export function runWriteSuite(name: string, makeDb: () => Promise<TestDatabase>) {
  describe(`writes on ${name}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await bootApp(await makeDb());
    });
    afterAll(async () => t?.close());
    const count = async (path = P) => (await t.call('GET', `${path}/count`)).body.data as number;

    it('an integer is what both databases hold (PostgreSQL integer): outside it a 400 naming the field, never a 500 or a rounded value', async () => {
      const M = '/api/analytic/metrics';
      const edge = await t.call('POST', M, { data: { name: 'edge', count: 2147483647 } });
      expect(edge.status, JSON.stringify(edge.body)).toBe(201);
      expect((await t.call('GET', `${M}/${edge.body.data.id}`)).body.data.count).toBe(2147483647);
      const before = await count(M);
      for (const [value, rule] of [[2147483648, 'maximum'], [9007199254740993, 'maximum'], [-1, 'minimum'], [-2147483649, 'minimum']] as const) {
        const r = await t.call('POST', M, { data: { name: `over-${value}`, count: value } });
        expect(r.status, `${value}`).toBe(400);
        expect(r.body.cause).toEqual([expect.objectContaining({ field: 'count', rule })]);
        const patched = await t.call('PATCH', `${M}/${edge.body.data.id}`, { data: { count: value } });
        expect(patched.status).toBe(400);
        expect(patched.body.cause[0]).toMatchObject({ field: 'count', rule });
      }
      // a filter value outside it is the filter's 400, not the database's error
      for (const value of [2147483648, -2147483649, 9007199254740993]) {
        const filtered = await t.call('GET', `${M}?filters[and][0][column]=count&filters[and][0][method]=gt&filters[and][0][value]=${value}`);
        expect(filtered.status, `filter ${value}`).toBe(400);
        expect(filtered.body.message).toContain('must be an integer from -2147483648 to 2147483647');
      }
      expect(await count(M)).toBe(before);
      expect((await t.call('GET', `${M}/${edge.body.data.id}`)).body.data.count).toBe(2147483647);
    });

    it('generates slug and adminTitle when blank, from random words, and keeps slugs unique', async () => {
      const made = [];
      for (const data of [{}, { slug: '', adminTitle: '' }, { slug: null, adminTitle: null }]) {
        const r = await t.call('POST', P, { data });
        expect(r.status, JSON.stringify(r.body)).toBe(201);
        expect(r.body.data.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+){2,}$/);
        expect(r.body.data.adminTitle).toMatch(/^[a-z0-9]+( [a-z0-9]+){2,}$/);
        expect(r.body.data.variant).toBe('default');
        expect(r.body.data.type).toBe('one_off');
        expect(r.body.data.title).toEqual({});
        made.push(r.body.data.slug);
      }
      expect(new Set(made).size).toBe(3);
      // blanking a generated field on update makes a new value instead of storing a blank
      const r = await t.call('PATCH', `${P}/${(await t.call('GET', P)).body.data[0].id}`, { data: { slug: '' } });
      expect(r.body.data.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+){2,}$/);
    });

    it('a taken slug is a 409 naming the field, and nothing is stored', async () => {
      expect((await t.call('POST', P, { data: { slug: 'taken' } })).status).toBe(201);
      const before = await count();
      const r = await t.call('POST', P, { data: { slug: 'taken' } });
      expect(r.status).toBe(409);
      expect(r.body).toMatchObject({ status: 409, message: 'slug must be unique: another row already has this value', cause: [{ field: 'slug', rule: 'unique' }] });
      expect(await count()).toBe(before);
      const other = (await t.call('POST', P, { data: { slug: 'other' } })).body.data;
      expect((await t.call('PATCH', `${P}/${other.id}`, { data: { slug: 'taken' } })).status).toBe(409);
      expect((await t.call('GET', `${P}/${other.id}`)).body.data.slug).toBe('other');
    });

    it('validates bodies against the manifest: field and rule named, 400, nothing stored', async () => {
      const before = await count();
      const cases: [unknown, string, string][] = [
        [{ slug: 'Not A Slug' }, 'slug', 'pattern'],
        [{ type: 'rental' }, 'type', 'enum'],
        [{ variant: 'fancy' }, 'variant', 'enum'],
        [{ title: 5 }, 'title', 'type'],
        [{ title: { en: 5 } }, 'title.en', 'type'],
        [{ title: { english: 'x' } }, 'title', 'language'],
        [{ price: 5 }, 'price', 'unknown'],
      ];
      for (const [data, field, rule] of cases) {
        const r = await t.call('POST', P, { data });
        expect(r.status, JSON.stringify(data)).toBe(400);
        expect(r.body.cause, JSON.stringify(r.body)).toEqual(expect.arrayContaining([expect.objectContaining({ field, rule })]));
        expect(r.body.message).toMatch(/^Validation failed/);
        expect(JSON.stringify(r.body)).not.toMatch(/at .*\.ts:\d+/);
      }
      const r = await t.call('POST', P, { data: { type: 'rental' } });
      expect(r.body.message).toBe('Validation failed: type must be one of: one_off, subscription');
      // a value of the wrong type for an enum (null, a number) is named once, with the enum's list
      for (const type of [null, 5]) {
        const once = await t.call('POST', P, { data: { type } });
        expect(once.body.cause, JSON.stringify(once.body)).toEqual([{ field: 'type', rule: 'enum', message: 'type must be one of: one_off, subscription' }]);
        expect(once.body.message).toBe('Validation failed: type must be one of: one_off, subscription');
      }
      expect(await count()).toBe(before);
      // an optional enum also takes null: said in words, not as an empty last item ('…, dummy, ')
      const optional = await t.call('POST', '/api/billing/invoices', { data: { provider: 'paypal' } });
      expect(optional.body.cause).toEqual([{ field: 'provider', rule: 'enum', message: 'provider must be one of: stripe, 0xprocessing, payselection, payselection-international, cloudpayments, tiptoppay, dummy (or null)' }]);
      // a language map's key that is not a language of the site: one cause, naming the key and the languages
      const german = await t.call('POST', P, { data: { title: { de: 'Knopf', en: 'Button' } } });
      expect(german.body).toMatchObject({ message: "Validation failed: title has the key 'de', which is not a language of the site (en, ru)", cause: [{ field: 'title', rule: 'language' }] });
      expect(german.body.cause).toHaveLength(1);
      const required = await t.call('POST', '/api/host/metadata', { data: {} });
      expect(required.status).toBe(400);
      expect(required.body.cause).toEqual([{ field: 'title', rule: 'required', message: 'title is required' }]);
    });

    it('accepts the variants the manifest allows', async () => {
      const r = await t.call('POST', P, { data: { variant: 'overview-default' } });
      expect(r.status).toBe(201);
      expect(r.body.data.variant).toBe('overview-default');
    });

    it('the server sets id, createdAt and updatedAt whatever the body says', async () => {
      const r = await t.call('POST', P, { data: { id: UNKNOWN_ID, createdAt: '2000-01-01T00:00:00.000Z', updatedAt: 'x' } });
      expect(r.status).toBe(201);
      expect(r.body.data.id).not.toBe(UNKNOWN_ID);
      expect(r.body.data.createdAt.startsWith('2000')).toBe(false);
      const u = await t.call('PATCH', `${P}/${r.body.data.id}`, { data: { ...r.body.data, id: UNKNOWN_ID, createdAt: '2000-01-01T00:00:00.000Z', adminTitle: 'echoed row' } });
      expect(u.status).toBe(200);
      expect(u.body.data).toMatchObject({ id: r.body.data.id, createdAt: r.body.data.createdAt, adminTitle: 'echoed row' });
    });

    it("update and delete without an id answer 'id is required'", async () => {
      for (const method of ['PATCH', 'DELETE']) {
        const r = await t.call(method, P, method === 'PATCH' ? { data: {} } : undefined);
        expect(r.status).toBe(400);
        expect(r.body.message).toBe('id is required');
      }
      const bulk = await t.call('PATCH', `${P}/bulk`, { data: [{ adminTitle: 'x' }] });
      expect(bulk.status).toBe(400);
      expect(bulk.body.message).toBe('id is required (data[0].id)');
    });

    it('404 for a missing row, 400 for an id that is not a UUID', async () => {
      for (const method of ['GET', 'PATCH', 'DELETE']) {
        const r = await t.call(method, `${P}/${UNKNOWN_ID}`, method === 'PATCH' ? { data: {} } : undefined);
        expect(r.status, method).toBe(404);
        expect(r.body).toEqual({ message: `No ecommerce/product with id ${UNKNOWN_ID}`, status: 404 });
      }
      const r = await t.call('GET', `${P}/42`);
      expect(r.status).toBe(400);
      expect(r.body.message).toBe("id must be a UUID, got '42'");
      // a visitor gets the same 400 (the shape of a path is no secret), not a 401 that asks them to sign in; a write
      // to a well-formed id still asks
      for (const method of ['GET', 'PATCH']) {
        const visitor = await t.call(method, `${P}/not-a-uuid`, method === 'PATCH' ? { data: {} } : undefined, { auth: false });
        expect(visitor, method).toMatchObject({ status: 400, body: { message: "id must be a UUID, got 'not-a-uuid'" } });
      }
      expect((await t.call('PATCH', `${P}/${UNKNOWN_ID}`, { data: {} }, { auth: false })).status).toBe(401);
      expect((await t.call('GET', '/api/nope/things')).status).toBe(404);
    });

    it('a body that is not JSON, or has no data, is a clear 400; a body of a type the API does not take is a 415', async () => {
      let r = await t.call('POST', P, '{not json');
      expect(r).toMatchObject({ status: 400, body: { message: 'The body is not valid JSON' } });
      r = await t.call('POST', P, { nodata: 1 });
      expect(r).toMatchObject({ status: 400, body: { message: 'Data is undefined' } });
      r = await t.call('POST', P, 'slug=x', { headers: { 'content-type': 'text/plain' } });
      expect(r.status).toBe(415);
      expect(r.body.message).toMatch(/^Unsupported content type 'text\/plain'/);
      expect(r.body.cause).toEqual([expect.objectContaining({ field: 'content-type', rule: 'type' })]);
    });

    it('multipart bodies: a data part with JSON, plus file parts', async () => {
      const form = new FormData();
      form.set('data', JSON.stringify({ slug: 'from-multipart', title: { en: 'Multipart' } }));
      form.append('files', new Blob(['hello'], { type: 'text/plain' }), 'hello.txt');
      const r = await t.call('POST', P, form);
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      expect(r.body.data).toMatchObject({ slug: 'from-multipart', title: { en: 'Multipart' } });
      const bad = new FormData();
      bad.set('data', '{oops');
      const b = await t.call('POST', P, bad);
      expect(b).toMatchObject({ status: 400, body: { message: 'the data part is not valid JSON' } });
      const u = new FormData();
      u.set('data', JSON.stringify({ adminTitle: 'patched by multipart' }));
      expect((await t.call('PATCH', `${P}/${r.body.data.id}`, u)).body.data.adminTitle).toBe('patched by multipart');
    });

    it('references must point at existing rows; deleting a row cascades to its relations', async () => {
      const product = (await t.call('POST', P, { data: {} })).body.data;
      const attribute = (await t.call('POST', '/api/ecommerce/attributes', { data: { number: 3 } })).body.data;
      const bad = await t.call('POST', PA, { data: { productId: product.id, attributeId: UNKNOWN_ID } });
      expect(bad.status).toBe(400);
      expect(bad.body.cause).toEqual([{ field: 'attributeId', rule: 'reference', message: `attributeId: no ecommerce/attribute with id ${UNKNOWN_ID}` }]);
      const link = await t.call('POST', PA, { data: { productId: product.id, attributeId: attribute.id } });
      expect(link.status).toBe(201);
      expect(link.body.data.orderIndex).toBe(0);
      expect((await t.call('DELETE', `${P}/${product.id}`)).status).toBe(200);
      expect((await t.call('GET', `${PA}/${link.body.data.id}`)).status).toBe(404);
      expect((await t.call('GET', `/api/ecommerce/attributes/${attribute.id}`)).status).toBe(200);
    });

    it('find-or-create returns the existing row, or creates one', async () => {
      const first = await t.call('POST', `${P}/find-or-create`, { data: { slug: 'foc', adminTitle: 'Find or create' } });
      expect(first.status).toBe(201);
      const again = await t.call('POST', `${P}/find-or-create`, { data: { slug: 'foc', adminTitle: 'Find or create' } });
      expect(again.status).toBe(200);
      expect(again.body.data.id).toBe(first.body.data.id);
      const invalid = await t.call('POST', `${P}/find-or-create`, { data: { slug: 'NOPE!' } });
      expect(invalid.status).toBe(400);
    });

    it('find-or-create called 30 times at once makes one row: one 201, every other call 200 with that row', async () => {
      const calls = await Promise.all(Array.from({ length: 30 }, () => t.call('POST', `${P}/find-or-create`, { data: { slug: 'foc-race', adminTitle: 'Race' } })));
      expect(calls.map((c) => c.status).sort()).toEqual([...Array(29).fill(200), 201].sort());
      expect(new Set(calls.map((c) => c.body.data.id)).size).toBe(1);
      // a call refused by the unique key for another reason than the race is still the 409 naming the field
      const taken = await t.call('POST', `${P}/find-or-create`, { data: { slug: 'foc-race', adminTitle: 'Another' } });
      expect([taken.status, taken.body.cause?.[0]?.field]).toEqual([409, 'slug']);
    });

    it('bulk create and bulk update are all or nothing', async () => {
      const before = await count();
      const ok = await t.call('POST', `${P}/bulk`, { data: [{ slug: 'bulk-1' }, { slug: 'bulk-2' }] });
      expect(ok.status).toBe(201);
      expect(ok.body.data.map((r: { slug: string }) => r.slug)).toEqual(['bulk-1', 'bulk-2']);
      const bad = await t.call('POST', `${P}/bulk`, { data: [{ slug: 'bulk-3' }, { slug: 'Bad Slug' }] });
      expect(bad.status).toBe(400);
      expect(bad.body.cause[0].field).toBe('data[1].slug');
      const dup = await t.call('POST', `${P}/bulk`, { data: [{ slug: 'bulk-4' }, { slug: 'bulk-1' }] });
      expect(dup.status).toBe(409);
      // a conflict names the row's place, as validation does: with a stored row, and within the bulk itself
      expect(dup.body.cause).toEqual([{ field: 'data[1].slug', rule: 'unique', message: 'data[1].slug is already taken' }]);
      const twice = await t.call('POST', `${P}/bulk`, { data: [{ slug: 'bulk-5' }, { slug: 'bulk-6' }, { slug: 'bulk-5' }] });
      expect(twice.status).toBe(409);
      expect(twice.body.cause[0].field).toBe('data[2].slug');
      expect((await t.call('POST', P, { data: { slug: 'bulk-1' } })).body.cause[0].field).toBe('slug');
      expect(await count()).toBe(before + 2);
      const [a, b] = ok.body.data;
      const upd = await t.call('PATCH', `${P}/bulk`, { data: [{ id: a.id, adminTitle: 'A' }, { id: b.id, adminTitle: 'B' }] });
      expect(upd.status).toBe(200);
      expect(upd.body.data.map((r: { adminTitle: string }) => r.adminTitle)).toEqual(['A', 'B']);
      const clash = await t.call('PATCH', `${P}/bulk`, { data: [{ id: a.id, adminTitle: 'A3' }, { id: b.id, slug: 'bulk-1' }] });
      expect(clash.status).toBe(409);
      expect(clash.body.cause[0].field).toBe('data[1].slug');
      const partial = await t.call('PATCH', `${P}/bulk`, { data: [{ id: a.id, adminTitle: 'A2' }, { id: UNKNOWN_ID, adminTitle: 'ghost' }] });
      expect(partial.status).toBe(404);
      expect((await t.call('GET', `${P}/${a.id}`)).body.data.adminTitle).toBe('A');
      expect((await t.call('POST', `${P}/bulk`, { data: [] })).body.message).toBe('No data');
      expect((await t.call('POST', `${P}/bulk`, { data: {} })).status).toBe(400);
    });

    it('a JSON document holds finite numbers: 1e400 (read as Infinity, stored as null) is a 400 naming where', async () => {
      const M = '/api/broadcast/messages';
      const before = await count(M);
      const r = await t.call('POST', M, '{"data":{"payload":{"text":"x","n":[1,{"big":1e400}]}}}');
      expect(r.status).toBe(400);
      expect(r.body.cause).toEqual([{ field: 'payload.n[1].big', rule: 'finite', message: 'payload.n[1].big must be a finite number' }]);
      const bulk = await t.call('POST', `${M}/bulk`, '{"data":[{"payload":{"a":1}},{"payload":{"a":-1e999}}]}');
      expect(bulk.body.cause[0].field).toBe('data[1].payload.a');
      expect(await count(M)).toBe(before);
      const fine = await t.call('POST', M, '{"data":{"payload":{"n":1.5e300}}}');
      expect(fine.status).toBe(201);
      expect((await t.call('GET', `${M}/${fine.body.data.id}`)).body.data.payload).toEqual({ n: 1.5e300 });
    });

    it('a text kept in an index holds at most 500 characters (250 in a unique group): longer is a 400 naming it, the same on both databases', async () => {
      const varied = (n: number, alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789') => Array.from({ length: n }, () => alphabet[Math.floor(Math.random() * alphabet.length)]).join('');
      const C = '/api/blog/categories';
      expect((await t.call('POST', C, { data: { slug: varied(500) } })).status).toBe(201);
      for (const n of [501, 3000, 100_000]) {
        const r = await t.call('POST', C, { data: { slug: varied(n) } });
        expect(r.status, `${n}`).toBe(400);
        expect(r.body.cause).toEqual([expect.objectContaining({ field: 'slug', rule: 'maxLength' })]);
      }
      // four bytes a character (PostgreSQL's index bound is in bytes): 250 of them in a group of two still fit
      const M = '/api/analytic/metrics';
      const emoji = [...'😀🎉🚀🌍💡🔥✨🧭'];
      const wide = () => Array.from({ length: 250 }, () => emoji[Math.floor(Math.random() * emoji.length)]).join('');
      const fits = await t.call('POST', M, { data: { name: wide(), dimension: wide() } });
      expect(fits.status, JSON.stringify(fits.body)).toBe(201);
      const over = await t.call('POST', M, { data: { name: 'n', dimension: wide() + 'x' } });
      expect(over.status).toBe(400);
      expect(over.body.cause[0]).toMatchObject({ field: 'dimension', rule: 'maxLength' });
    });

    it('concurrent deletes and updates of one row: one delete wins, every other answer is a 200 or a 404, never a 500', async () => {
      for (let round = 0; round < 6; round++) {
        const id = (await t.call('POST', P, { data: {} })).body.data.id;
        const answers = await Promise.all([
          t.call('DELETE', `${P}/${id}`), t.call('PATCH', `${P}/${id}`, { data: { adminTitle: 'z' } }),
          t.call('DELETE', `${P}/${id}`), t.call('PATCH', `${P}/${id}`, { data: { adminTitle: 'y' } }), t.call('DELETE', `${P}/${id}`),
        ]);
        const deletes = [answers[0], answers[2], answers[4]].map((a) => a.status);
        expect(deletes.filter((s) => s === 200), JSON.stringify(answers.map((a) => [a.status, a.body.message]))).toHaveLength(1);
        for (const a of answers) expect([200, 404], JSON.stringify(a.body)).toContain(a.status);
        expect((await t.call('GET', `${P}/${id}`)).status).toBe(404);
      }
    });

    it('concurrent creates with one slug: exactly one wins, the rest are 409', async () => {
      const results = await Promise.all(Array.from({ length: 8 }, () => t.call('POST', P, { data: { slug: 'race' } })));
      expect(results.filter((r) => r.status === 201)).toHaveLength(1);
      expect(results.filter((r) => r.status === 409)).toHaveLength(7);
    });
  });
}
