import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { bootApp, type TestApp } from '../helpers/app.js';

const P = '/api/ecommerce/products';
const ATTACKS = ["' OR 1=1 --", "x' OR '1'='1", '"; DROP TABLE ecommerce_products; --', "') OR 1=1 --", '%', "\\' OR 1=1", 'en\') OR (\'1\'=\'1'];

/** columns, methods and languages are identifiers from the manifest; every value is a bound parameter */
for (const d of DIALECTS) {
  describe(`SQL injection through filters and order on ${d.name}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await bootApp(await d.make());
      await t.call('POST', `${P}/bulk`, { data: [{ slug: 'kept-1', title: { en: 'Kept' } }, { slug: 'kept-2' }] });
    });
    afterAll(async () => t?.close());

    it('values are data: they match literally, never as SQL', async () => {
      for (const v of ATTACKS) {
        for (const [column, method] of [['slug', 'eq'], ['slug', 'like'], ['title.en', 'eq'], ['title.ru', 'ilike'], ['adminTitle', 'inArray']]) {
          const r = await t.call('GET', `${P}?filters[and][0][column]=${column}&filters[and][0][method]=${method}&filters[and][0][value]=${encodeURIComponent(v)}`);
          expect(r.status, `${column} ${method} ${v}`).toBe(200);
          if (v !== '%') expect(r.body.data, `${column} ${method} ${v}`).toEqual([]);
        }
      }
    });

    it('column names, languages and order directions outside the manifest are refused', async () => {
      for (const v of ATTACKS) {
        for (const q of [
          `filters[and][0][column]=${encodeURIComponent(v)}&filters[and][0][method]=eq&filters[and][0][value]=x`,
          `filters[and][0][column]=title.${encodeURIComponent(v)}&filters[and][0][method]=eq&filters[and][0][value]=x`,
          `filters[and][0][column]=slug&filters[and][0][method]=${encodeURIComponent(v)}&filters[and][0][value]=x`,
          `orderBy[and][0][column]=${encodeURIComponent(v)}&orderBy[and][0][method]=asc`,
          `orderBy[and][0][column]=slug&orderBy[and][0][method]=${encodeURIComponent(v)}`,
          `orderBy[and][0][column]=title.${encodeURIComponent(v)}&orderBy[and][0][method]=asc`,
        ]) {
          const r = await t.call('GET', `${P}?${q}`);
          expect(r.status, q).toBe(400);
        }
      }
    });

    it('the data is intact afterwards', async () => {
      const r = await t.call('GET', P);
      expect(r.body.data.map((x: { slug: string }) => x.slug)).toEqual(['kept-1', 'kept-2']);
    });
  });
}
