import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { bootApp, type TestApp } from '../helpers/app.js';

const P = '/api/ecommerce/products';

/** an empty inArray list matches nothing; a missing value where one is needed is a 400, never "no filter" */
for (const d of DIALECTS) {
  describe(`empty lists and missing values on ${d.name}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await bootApp(await d.make());
      await t.call('POST', `${P}/bulk`, { data: [{ slug: 'one' }, { slug: 'two' }] });
    });
    afterAll(async () => t?.close());

    it('inArray with no values, an empty value, or an empty list matches nothing', async () => {
      for (const q of [
        'filters[and][0][column]=id&filters[and][0][method]=inArray',
        'filters[and][0][column]=id&filters[and][0][method]=inArray&filters[and][0][value]=',
        'filters[and][0][column]=slug&filters[and][0][method]=inArray&filters[and][0][value][]=',
      ]) {
        const r = await t.call('GET', `${P}?${q}`);
        expect(r.status, q).toBe(200);
        expect(r.body.data, q).toEqual([]);
        expect((await t.call('GET', `${P}/count?${q}`)).body.data).toBe(0);
      }
      // with other conditions in an or-group it still adds nothing
      const r = await t.call('GET', `${P}?filters[or][0][column]=id&filters[or][0][method]=inArray&filters[or][1][column]=slug&filters[or][1][method]=eq&filters[or][1][value]=one`);
      expect(r.body.data.map((x: { slug: string }) => x.slug)).toEqual(['one']);
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
