import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { bootApp, type TestApp } from '../helpers/app.js';

const P = '/api/ecommerce/products';

/** an empty inArray list (value=) matches nothing; a missing value where one is needed is a 400, never "no filter" */
for (const d of DIALECTS) {
  describe(`empty lists and missing values on ${d.name}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await bootApp(await d.make());
      await t.call('POST', `${P}/bulk`, { data: [{ slug: 'one' }, { slug: 'two' }] });
    });
    afterAll(async () => t?.close());

    it('inArray with an empty value (the empty list) or a list of one empty text matches nothing', async () => {
      for (const q of [
        'filters[and][0][column]=id&filters[and][0][method]=inArray&filters[and][0][value]=',
        'filters[and][0][column]=slug&filters[and][0][method]=inArray&filters[and][0][value][]=',
      ]) {
        const r = await t.call('GET', `${P}?${q}`);
        expect(r.status, q).toBe(200);
        expect(r.body.data, q).toEqual([]);
        expect((await t.call('GET', `${P}/count?${q}`)).body.data).toBe(0);
      }
      // with other conditions in an or-group it still adds nothing
      const r = await t.call('GET', `${P}?filters[or][0][column]=id&filters[or][0][method]=inArray&filters[or][0][value]=&filters[or][1][column]=slug&filters[or][1][method]=eq&filters[or][1][value]=one`);
      expect(r.body.data.map((x: { slug: string }) => x.slug)).toEqual(['one']);
      // notInArray with the empty list excludes nothing: every row
      expect((await t.call('GET', `${P}?filters[and][0][column]=type&filters[and][0][method]=notInArray&filters[and][0][value]=`)).body.data).toHaveLength(2);
    });

    it('inArray and notInArray with no value are a 400 naming it, never every row or none', async () => {
      for (const method of ['inArray', 'notInArray']) {
        for (const column of ['id', 'type', 'slug']) {
          const q = `filters[and][0][column]=${column}&filters[and][0][method]=${method}`;
          // asked twice: a refused query string is never kept as a compiled list
          for (const path of [`${P}?${q}`, `${P}?${q}`, `${P}/count?${q}`]) {
            const r = await t.call('GET', path);
            expect(r.status, path).toBe(400);
            expect(r.body.message, path).toBe(`filters[and][0][value] is required for method ${method}`);
            expect(r.body.cause, path).toEqual([{ message: 'filters[and][0][value] is required', field: 'filters[and][0][value]', rule: 'required' }]);
          }
        }
      }
      // in an or-group too: a missing value is not "no filter" there either
      const r = await t.call('GET', `${P}?filters[or][0][column]=slug&filters[or][0][method]=eq&filters[or][0][value]=one&filters[or][1][column]=type&filters[or][1][method]=notInArray`);
      expect(r.status).toBe(400);
      expect(r.body.message).toBe('filters[or][1][value] is required for method notInArray');
    });

    it('a missing value for a comparison is a 400 naming it', async () => {
      for (const method of ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'like', 'ilike']) {
        const r = await t.call('GET', `${P}?filters[and][0][column]=slug&filters[and][0][method]=${method}`);
        expect(r.status).toBe(400);
        expect(r.body.message).toBe(`filters[and][0][value] is required for method ${method}`);
      }
      const r = await t.call('GET', `${P}?filters[and][0][method]=eq&filters[and][0][value]=x`);
      expect(r.status).toBe(400);
      expect(r.body.message).toBe('filters[and][0][column] is required');
    });
  });
}
