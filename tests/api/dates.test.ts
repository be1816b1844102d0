import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATE_RULE, DATETIME_RULE } from '../../engine/fields/index.js';
import { expand } from '../../runtime/crud/expand.js';
import { bootApp, type TestApp } from '../helpers/app.js';
import { DIALECTS } from '../helpers/databases.js';

const A = '/api/ecommerce/attributes';
const P = '/api/ecommerce/products';
const filter = (column: string, method: string, value: string, i = 0) =>
  `filters[and][${i}][column]=${encodeURIComponent(column)}&filters[and][${i}][method]=${method}&filters[and][${i}][value]=${encodeURIComponent(value)}`;

/** the years at the edges: PostgreSQL has no year 0; 0001–0099 are where two-digit-year parsers bend; 9999 is the last */
const EDGE_DATETIMES = [
  '0001-01-01T00:00:00.000Z',
  '0001-06-15T12:00:00.000Z',
  '0004-02-29T23:59:59.999Z',
  '0050-06-15T12:00:00.000Z',
  '0099-12-31T23:59:59.999Z',
  '0100-01-01T00:00:00.000Z',
  '1883-11-18T12:00:00.000Z',
  '1969-12-31T23:59:59.999Z',
  '9999-12-31T23:59:59.999Z',
];
const EDGE_DATES = ['0001-01-01', '0004-02-29', '0050-06-15', '0099-12-31', '0100-01-01', '9999-12-31'];

/** the one rule for a date-time: what a write takes, a filter takes, and nothing else */
const DATETIMES_TAKEN = [
  '2026-01-31T09:30:00Z',
  '2026-01-31T09:30:00.5Z',
  '2026-01-31T09:30:00.123456Z',
  '2026-01-31t09:30:00z',
  '2026-01-31T09:30:00+05:30',
  '2026-01-31T09:30:00-00:00',
  '2024-02-29T00:00:00Z',
  '2000-02-29T00:00:00Z',
  '0001-01-01T00:00:00Z',
  '0001-01-01T00:30:00-01:00',
  '9999-12-31T23:59:59.999Z',
  '9999-12-31T23:30:00+01:00',
];
const DATETIMES_REFUSED = [
  // not a day of the calendar, not a time of the day
  '2026-02-29T00:00:00Z',
  '2026-02-30T00:00:00Z',
  '1900-02-29T00:00:00Z',
  '2026-13-01T00:00:00Z',
  '2026-00-10T00:00:00Z',
  '2026-01-00T00:00:00Z',
  '2026-01-01T24:00:00Z',
  '2026-01-01T23:60:00Z',
  '2026-06-15T23:59:60Z',
  '2026-01-01T10:00:00+24:00',
  '2026-01-01T10:00:00+05:60',
  // outside the years 0001 to 9999 (in UTC too)
  '0000-01-01T00:00:00Z',
  '+275760-09-13T00:00:00.000Z',
  '-271821-04-20T00:00:00.000Z',
  '+010000-01-01T00:00:00.000Z',
  '-000001-01-01T00:00:00.000Z',
  '0001-01-01T00:30:00+01:00',
  '9999-12-31T23:00:00-05:00',
  // other forms
  '0',
  '-1',
  '1700000000000',
  '01.01.2026 10:00',
  '2026-01-01',
  '2026-01-01T10:00Z',
  '2026-01-01T10:00:00',
  '2026-01-01 10:00:00Z',
  '0050-06-15 12:00:00Z',
  '2026-01-01T10:00:00+05',
  '2026-01-01T10:00:00+0530',
  '2026-01-01T10:00:00.Z',
  ' 2026-01-01T10:00:00Z',
  '2026-01-01T10:00:00Z\n',
  'Thu, 01 Jan 2026 10:00:00 GMT',
  'now',
];
const DATES_TAKEN = ['2026-01-31', '2024-02-29', '2000-02-29', '0001-01-01', '0050-06-15', '9999-12-31'];
const DATES_REFUSED = [
  '2026-02-29',
  '2026-02-30',
  '1900-02-29',
  '2026-04-31',
  '2026-13-01',
  '2026-00-10',
  '2026-01-00',
  '0000-01-01',
  '10000-01-01',
  '+002026-01-01',
  '-000001-01-01',
  '2026-1-01',
  '20260101',
  '01.01.2026',
  '2026-01-01T00:00:00Z',
  '2026-01-01 ',
  '0',
  '1700000000000',
];

for (const d of DIALECTS) describe(`dates and date-times on ${d.name}: one rule, read back as written`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootApp(await d.make());
  });
  afterAll(async () => t?.close());

  const count = async () => (await t.call('GET', `${A}/count`)).body.data as number;

  it('date-times and dates of the years 0001, 0050, 0099, 0100 and 9999 read back exactly: create, get, list, filter, update, bulk, a relation', async () => {
    const product = (await t.call('POST', P, { data: { adminTitle: 'Dated', slug: `dated-${d.name}` } })).body.data;
    for (const [i, datetime] of EDGE_DATETIMES.entries()) {
      const date = EDGE_DATES[i % EDGE_DATES.length];
      const created = await t.call('POST', A, { data: { slug: `edge-${i}`, datetime, date } });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body.data).toMatchObject({ datetime, date });
      const id = created.body.data.id as string;

      const got = await t.call('GET', `${A}/${id}`);
      expect(got.body.data, datetime).toMatchObject({ datetime, date });
      // the list (PostgreSQL: the kept raw read), found by the value itself
      for (const q of [filter('slug', 'eq', `edge-${i}`), filter('datetime', 'eq', datetime), `${filter('date', 'eq', date)}&${filter('slug', 'eq', `edge-${i}`, 1)}`]) {
        const list = await t.call('GET', `${A}?${q}`);
        expect(list.status, q).toBe(200);
        expect(list.body.data.map((r: { id: string }) => r.id), q).toEqual([id]);
        expect(list.body.data[0], q).toMatchObject({ datetime, date });
      }
      expect((await t.call('GET', `${A}?${filter('datetime', 'gte', datetime)}&${filter('datetime', 'lte', datetime, 1)}`)).body.data.map((r: { id: string }) => r.id)).toEqual([id]);

      // an offset is the same instant
      const [day, time] = datetime.split('T');
      const early = await t.call('PATCH', `${A}/${id}`, { data: { datetime: `${day}T${time.slice(0, 8)}-00:00` } });
      expect(early.status, JSON.stringify(early.body)).toBe(200);
      expect(early.body.data.datetime).toBe(`${day}T${time.slice(0, 8)}.000Z`);
      const updated = await t.call('PATCH', `${A}/${id}`, { data: { datetime } });
      expect(updated.body.data.datetime).toBe(datetime);

      expect((await t.call('POST', `${P}-to-attributes`, { data: { productId: product.id, attributeId: id, orderIndex: i } })).status).toBe(201);
    }

    const bulk = await t.call('POST', `${A}/bulk`, { data: EDGE_DATETIMES.map((datetime, i) => ({ slug: `bulk-edge-${i}`, datetime })) });
    expect(bulk.status, JSON.stringify(bulk.body)).toBe(201);
    expect(bulk.body.data.map((r: { datetime: string }) => r.datetime)).toEqual(EDGE_DATETIMES);
    const all = await t.call('GET', `${A}?${filter('slug', 'like', 'bulk-edge-')}&orderBy[and][0][column]=datetime&orderBy[and][0][method]=asc`);
    expect(all.body.data.map((r: { datetime: string }) => r.datetime)).toEqual(EDGE_DATETIMES);

    // a relation's far ends (Repository.readLinked), as pages read them
    const [row] = await expand(t.repo, t.database.db, t.model.byId['ecommerce/product'], [{ id: product.id }], 1);
    const ends = (row.productsToAttributes as { attribute: { datetime: Date; date: string } }[]).map((l) => l.attribute);
    expect(ends.map((a) => a.datetime.toISOString())).toEqual(EDGE_DATETIMES);
    expect(ends.map((a) => a.date)).toEqual(EDGE_DATETIMES.map((_, i) => EDGE_DATES[i % EDGE_DATES.length]));
    // and by the CRUD route of the relation, its rows and their createdAt
    const links = await t.call('GET', `${P}-to-attributes?${filter('productId', 'eq', product.id)}`);
    expect(links.body.data).toHaveLength(EDGE_DATETIMES.length);
  });

  it('a date-time the databases cannot hold, or not in the documented form, is a 400 naming the field on every write, and nothing is stored', async () => {
    const before = await count();
    const existing = (await t.call('POST', A, { data: { slug: 'target' } })).body.data.id as string;
    for (const datetime of DATETIMES_REFUSED) {
      const cause = [{ field: 'datetime', rule: 'format', message: `datetime ${DATETIME_RULE}` }];
      const create = await t.call('POST', A, { data: { datetime } });
      expect(create.status, datetime).toBe(400);
      expect(create.body.cause, datetime).toEqual(cause);
      expect(create.body.message, datetime).toBe(`Validation failed: datetime ${DATETIME_RULE}`);
      const update = await t.call('PATCH', `${A}/${existing}`, { data: { datetime } });
      expect([update.status, update.body.cause], datetime).toEqual([400, cause]);
      const found = await t.call('POST', `${A}/find-or-create`, { data: { slug: 'target', datetime } });
      expect([found.status, found.body.cause], datetime).toEqual([400, cause]);
      const bulk = await t.call('POST', `${A}/bulk`, { data: [{ slug: 'fine' }, { datetime }] });
      expect([bulk.status, bulk.body.cause], datetime).toEqual([400, [{ ...cause[0], field: 'data[1].datetime', message: `data[1].datetime ${DATETIME_RULE}` }]]);
    }
    for (const date of DATES_REFUSED) {
      const create = await t.call('POST', A, { data: { date } });
      expect([create.status, create.body.cause], date).toEqual([400, [{ field: 'date', rule: 'format', message: `date ${DATE_RULE}` }]]);
    }
    expect(await count()).toBe(before + 1);
    expect((await t.call('GET', `${A}/${existing}`)).body.data).toMatchObject({ datetime: null, date: null });
  });

  it('the 500s found on PostgreSQL are 400s naming the filter value, signed in or not', async () => {
    for (const auth of [true, false]) {
      for (const [path, rule] of [
        [`${A}?${filter('date', 'eq', '2026-02-30')}`, DATE_RULE],
        [`${A}?${filter('date', 'gte', '0000-01-01')}`, DATE_RULE],
        [`${P}?${filter('createdAt', 'gt', '0000-01-01')}`, DATETIME_RULE],
        [`${P}?${filter('createdAt', 'gt', '0000-01-01T00:00:00Z')}`, DATETIME_RULE],
        [`${P}/count?${filter('updatedAt', 'lt', '+275760-09-13T00:00:00.000Z')}`, DATETIME_RULE],
        [`${A}?${filter('datetime', 'eq', '-271821-04-20T00:00:00.000Z')}`, DATETIME_RULE],
        [`${A}?${filter('datetime', 'gt', '1700000000000')}`, DATETIME_RULE],
        [`${A}?${filter('datetime', 'gt', '01.01.2026 10:00')}`, DATETIME_RULE],
      ]) {
        // twice: a query string that fails its checks is never kept
        for (let n = 0; n < 2; n++) {
          const r = await t.call('GET', path, undefined, { auth });
          expect(r.status, path).toBe(400);
          expect(r.body.cause, path).toEqual([{ field: 'filters[and][0][value]', rule: 'format', message: `filters[and][0][value] ${rule}` }]);
        }
      }
      const inArray = await t.call('GET', `${A}?filters[and][0][column]=date&filters[and][0][method]=inArray&filters[and][0][value][0]=2026-01-01&filters[and][0][value][1]=2026-02-30`, undefined, { auth });
      expect([inArray.status, inArray.body.cause?.[0]?.field]).toEqual([400, 'filters[and][0][value][1]']);
    }
  });

  it('a write and a filter take the same dates and date-times', async () => {
    for (const [kind, taken, refused] of [['datetime', DATETIMES_TAKEN, DATETIMES_REFUSED], ['date', DATES_TAKEN, DATES_REFUSED]] as const) {
      for (const value of [...taken, ...refused]) {
        const write = await t.call('POST', A, { data: { [kind]: value } });
        const read = await t.call('GET', `${A}?${filter(kind, 'eq', value)}`);
        const expected = (taken as readonly string[]).includes(value) ? [201, 200] : [400, 400];
        expect([write.status, read.status], `${kind} ${JSON.stringify(value)}`).toEqual(expected);
        if (write.status !== 201) continue;
        // and the filter finds what the write stored
        expect(read.body.data.map((r: { id: string }) => r.id), value).toContain(write.body.data.id);
        if (kind === 'datetime') expect(write.body.data.datetime).toBe(new Date(value).toISOString());
        else expect(write.body.data.date).toBe(value);
      }
    }
  });
});
