import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { bootApp, type TestApp } from '../helpers/app.js';
import type { TestDatabase } from '../helpers/databases.js';

const P = '/api/ecommerce/products';
const A = '/api/ecommerce/attributes';
const f = (i: number, column: string, method: string, value?: string | string[], group = 'and') => {
  const base = `filters[${group}][${i}]`;
  let s = `${base}[column]=${encodeURIComponent(column)}&${base}[method]=${method}`;
  if (Array.isArray(value)) value.forEach((v, j) => (s += `&${base}[value][${j}]=${encodeURIComponent(v)}`));
  else if (value !== undefined) s += `&${base}[value]=${encodeURIComponent(value)}`;
  return s;
};
const o = (i: number, column: string, method: string) => `orderBy[and][${i}][column]=${column}&orderBy[and][${i}][method]=${method}`;

/** filters, ordering and paging of the list route, on each database */
export function runQuerySuite(name: string, makeDb: () => Promise<TestDatabase>) {
  describe(`list queries on ${name}`, () => {
    let t: TestApp;
    const slugs = (res: { body: { data: { slug: string }[] } }) => res.body.data.map((r) => r.slug);
    beforeAll(async () => {
      t = await bootApp(await makeDb());
      const rows = ['alpha', 'Bravo', 'charlie', 'delta', 'echo'].map((w, i) => ({
        slug: `p-${i}-${w.toLowerCase()}`,
        adminTitle: w,
        title: { en: `${w} product`, ru: `Товар ${w}` },
        type: i % 2 ? 'subscription' : 'one_off',
      }));
      for (const r of rows) expect((await t.call('POST', P, { data: r })).status).toBe(201);
      const attrs = [1, 5, 10, 20].map((n) => ({ slug: `a-${n}`, number: n, boolean: n > 5, date: `2026-01-${String(n).padStart(2, '0')}` }));
      expect((await t.call('POST', `${A}/bulk`, { data: attrs })).status).toBe(201);
    });
    afterAll(async () => t?.close());

    it('eq, ne, inArray, notInArray', async () => {
      expect(slugs(await t.call('GET', `${P}?${f(0, 'slug', 'eq', 'p-1-bravo')}`))).toEqual(['p-1-bravo']);
      expect(slugs(await t.call('GET', `${P}?${f(0, 'slug', 'ne', 'p-1-bravo')}`))).toHaveLength(4);
      expect(slugs(await t.call('GET', `${P}?${f(0, 'slug', 'inArray', ['p-0-alpha', 'p-4-echo'])}`))).toEqual(['p-0-alpha', 'p-4-echo']);
      expect(slugs(await t.call('GET', `${P}?${f(0, 'slug', 'notInArray', ['p-0-alpha', 'p-4-echo'])}`))).toHaveLength(3);
      expect(slugs(await t.call('GET', `${P}?${f(0, 'type', 'eq', 'subscription')}`))).toEqual(['p-1-bravo', 'p-3-delta']);
    });

    it('inArray with an empty list (value=) matches nothing, notInArray with one matches everything', async () => {
      expect((await t.call('GET', `${P}?${f(0, 'slug', 'inArray', '')}`)).body.data).toEqual([]);
      expect((await t.call('GET', `${P}/count?${f(0, 'slug', 'inArray', '')}`)).body.data).toBe(0);
      expect((await t.call('GET', `${P}?${f(0, 'slug', 'notInArray', '')}`)).body.data).toHaveLength(5);
      expect((await t.call('GET', `${P}/count?${f(0, 'slug', 'notInArray', '')}`)).body.data).toBe(5);
    });

    it('inArray and notInArray with no value are a 400 naming the value, like eq, every time they are asked', async () => {
      for (const method of ['inArray', 'notInArray']) {
        for (const q of [f(0, 'type', method), f(0, 'slug', method), `${f(0, 'type', 'eq', 'one_off')}&${f(1, 'slug', method)}`, f(0, 'slug', method, undefined, 'or')]) {
          const at = q.includes('[or]') ? 'filters[or][0]' : q.includes('[1]') ? 'filters[and][1]' : 'filters[and][0]';
          // twice: a query string that fails its checks is never kept as a compiled list
          for (const path of [`${P}?${q}`, `${P}?${q}`, `${P}/count?${q}`]) {
            const r = await t.call('GET', path);
            expect(r.status, path).toBe(400);
            expect(r.body.message, path).toBe(`${at}[value] is required for method ${method}`);
            expect(r.body.cause, path).toEqual([{ message: `${at}[value] is required`, field: `${at}[value]`, rule: 'required' }]);
          }
        }
      }
    });

    it('gt, gte, lt, lte on numbers, dates and date-times', async () => {
      const n = (res: { body: { data: { number: number }[] } }) => res.body.data.map((r) => r.number);
      expect(n(await t.call('GET', `${A}?${f(0, 'number', 'gt', '5')}`))).toEqual([10, 20]);
      expect(n(await t.call('GET', `${A}?${f(0, 'number', 'gte', '5')}`))).toEqual([5, 10, 20]);
      expect(n(await t.call('GET', `${A}?${f(0, 'number', 'lt', '5')}`))).toEqual([1]);
      expect(n(await t.call('GET', `${A}?${f(0, 'number', 'lte', '5')}&${f(1, 'boolean', 'eq', 'false')}`))).toEqual([1, 5]);
      expect(n(await t.call('GET', `${A}?${f(0, 'date', 'gte', '2026-01-10')}`))).toEqual([10, 20]);
      const all = (await t.call('GET', P)).body.data;
      const third = all[2].createdAt;
      const after = await t.call('GET', `${P}?${f(0, 'createdAt', 'gte', third)}`);
      expect(after.body.data.every((r: { createdAt: string }) => r.createdAt >= third)).toBe(true);
      expect((await t.call('GET', `${P}?${f(0, 'createdAt', 'gt', '2999-01-01T00:00:00.000Z')}`)).body.data).toEqual([]);
    });

    it('the like family means contains: like is case-sensitive and ilike is not, on both databases', async () => {
      expect(slugs(await t.call('GET', `${P}?${f(0, 'adminTitle', 'like', 'Bra')}`))).toEqual(['p-1-bravo']);
      expect(slugs(await t.call('GET', `${P}?${f(0, 'adminTitle', 'like', 'bra')}`))).toEqual([]);
      expect(slugs(await t.call('GET', `${P}?${f(0, 'adminTitle', 'ilike', 'RAV')}`))).toEqual(['p-1-bravo']);
      expect(slugs(await t.call('GET', `${P}?${f(0, 'adminTitle', 'notIlike', 'A')}`))).toEqual(['p-4-echo']);
      expect(slugs(await t.call('GET', `${P}?${f(0, 'adminTitle', 'notLike', 'b')}`))).toEqual(['p-0-alpha', 'p-1-bravo', 'p-2-charlie', 'p-3-delta', 'p-4-echo']);
    });

    it('% and _ in a like value match themselves, not any text', async () => {
      expect(slugs(await t.call('GET', `${P}?${f(0, 'adminTitle', 'ilike', '%')}`))).toEqual([]);
      expect(slugs(await t.call('GET', `${P}?${f(0, 'adminTitle', 'ilike', 'a_p')}`))).toEqual([]);
      expect(slugs(await t.call('GET', `${P}?${f(0, 'slug', 'like', '-1-')}`))).toEqual(['p-1-bravo']);
      expect(slugs(await t.call('GET', `${P}?${f(0, 'slug', 'like', '\\')}`))).toEqual([]);
    });

    it('ilike on an id searches it as text: rows found by an id prefix', async () => {
      const all = (await t.call('GET', P)).body.data as { id: string; slug: string }[];
      const target = all[2];
      const r = await t.call('GET', `${P}?${f(0, 'id', 'ilike', target.id.slice(0, 13).toUpperCase())}`);
      expect(r.status).toBe(200);
      expect(slugs(r)).toContain(target.slug);
      expect(slugs(await t.call('GET', `${P}?${f(0, 'id', 'ilike', 'zzz')}`))).toEqual([]);
    });

    it('language maps: one language by <field>.<code>, or the whole map with like', async () => {
      expect(slugs(await t.call('GET', `${P}?${f(0, 'title.en', 'eq', 'delta product')}`))).toEqual(['p-3-delta']);
      expect(slugs(await t.call('GET', `${P}?${f(0, 'title.ru', 'ilike', 'ECHO')}`))).toEqual(['p-4-echo']);
      expect(slugs(await t.call('GET', `${P}?${f(0, 'title', 'like', 'charlie')}`))).toEqual(['p-2-charlie']);
    });

    it('a language that is not configured is a 400 naming the column, in filters and in order, whatever its spelling', async () => {
      for (const language of ['fr', 'de', 'zz', 'en-US', 'EN', 'Ru', 'en ', '']) {
        const column = `title.${language}`;
        for (const [path, at] of [
          [`${P}?${f(0, column, 'eq', 'x')}`, 'filters[and][0][column]'],
          [`${P}?${f(0, column, 'isNull')}`, 'filters[and][0][column]'],
          [`${P}?${f(0, 'slug', 'eq', 'x', 'or')}&${f(1, column, 'inArray', ['x'], 'or')}`, 'filters[or][1][column]'],
          [`${P}/count?${f(0, column, 'ilike', 'x')}`, 'filters[and][0][column]'],
          [`${P}?${o(0, encodeURIComponent(column), 'asc')}`, 'orderBy[and][0][column]'],
          [`${P}?${o(0, 'slug', 'asc')}&${o(1, encodeURIComponent(column), 'desc')}`, 'orderBy[and][1][column]'],
        ]) {
          // twice: a query string that fails its checks is never kept as a compiled list
          for (const attempt of [1, 2]) {
            const r = await t.call('GET', path);
            expect(r.status, `${path} (${attempt})`).toBe(400);
            expect(r.body.message, path).toBe(`Unknown language '${language}' in ${at}; languages: ${t.model.languages.join(', ')}`);
            expect(r.body.cause, path).toEqual([{ message: `unknown language '${language}'`, field: at, rule: 'language' }]);
          }
        }
      }
      // every configured language still filters and orders
      for (const language of t.model.languages) {
        expect((await t.call('GET', `${P}?${f(0, `title.${language}`, 'isNotNull')}`)).status).toBe(200);
        expect((await t.call('GET', `${P}?${o(0, `title.${language}`, 'asc')}`)).status).toBe(200);
      }
    });

    it('isNull and isNotNull', async () => {
      expect(slugs(await t.call('GET', `${P}?${f(0, 'className', 'isNull')}`))).toHaveLength(5);
      expect(slugs(await t.call('GET', `${P}?${f(0, 'className', 'isNotNull')}`))).toEqual([]);
    });

    it('and with or', async () => {
      const q = `${f(0, 'type', 'eq', 'one_off')}&${f(0, 'slug', 'eq', 'p-0-alpha', 'or')}&${f(1, 'slug', 'eq', 'p-1-bravo', 'or')}`;
      expect(slugs(await t.call('GET', `${P}?${q}`))).toEqual(['p-0-alpha']);
    });

    it('orders by any column, ascending or descending, and by one language of a map', async () => {
      expect(slugs(await t.call('GET', `${P}?${o(0, 'slug', 'desc')}`))).toEqual(['p-4-echo', 'p-3-delta', 'p-2-charlie', 'p-1-bravo', 'p-0-alpha']);
      expect(slugs(await t.call('GET', `${P}?${o(0, 'type', 'asc')}&${o(1, 'slug', 'desc')}`))).toEqual(['p-4-echo', 'p-2-charlie', 'p-0-alpha', 'p-3-delta', 'p-1-bravo']);
      expect(slugs(await t.call('GET', `${P}?${o(0, 'title.en', 'desc')}`))[0]).toBe('p-4-echo');
      // default: creation order
      expect(slugs(await t.call('GET', P))).toEqual(['p-0-alpha', 'p-1-bravo', 'p-2-charlie', 'p-3-delta', 'p-4-echo']);
    });

    it('pages with limit and offset, without overlap', async () => {
      const pages = [];
      for (let offset = 0; offset < 6; offset += 2) pages.push(...slugs(await t.call('GET', `${P}?limit=2&offset=${offset}&${o(0, 'slug', 'asc')}`)));
      expect(pages).toEqual(['p-0-alpha', 'p-1-bravo', 'p-2-charlie', 'p-3-delta', 'p-4-echo']);
    });

    it('limit has a maximum, and bad paging values are 400s that name the parameter', async () => {
      for (const q of ['limit=0', 'limit=1001', 'limit=abc', 'offset=-1', 'limit=1.5']) {
        const r = await t.call('GET', `${P}?${q}`);
        expect(r.status, q).toBe(400);
        expect(r.body.message, q).toMatch(/^(limit|offset) must be an integer from/);
      }
      expect((await t.call('GET', `${P}?limit=1000`)).status).toBe(200);
    });

    it('an unknown column or method is a 400 that names it', async () => {
      let r = await t.call('GET', `${P}?${f(0, 'nope', 'eq', 'x')}`);
      expect(r.status).toBe(400);
      expect(r.body.message).toContain("Unknown column 'nope' in filters[and][0][column]");
      r = await t.call('GET', `${P}?${f(0, 'slug', 'regex', 'x')}`);
      expect(r.status).toBe(400);
      expect(r.body.message).toContain("Unknown method 'regex' in filters[and][0][method]");
      r = await t.call('GET', `${P}?${o(0, 'nope', 'asc')}`);
      expect(r.body.message).toContain("Unknown column 'nope' in orderBy[and][0][column]");
      r = await t.call('GET', `${P}?${o(0, 'slug', 'sideways')}`);
      expect(r.status).toBe(400);
      expect(r.body.message).toContain("Unknown method 'sideways' in orderBy[and][0][method]");
      r = await t.call('GET', `${P}?${f(0, 'slug', 'eq')}`);
      expect(r.status).toBe(400);
      expect(r.body.message).toBe('filters[and][0][value] is required for method eq');
      r = await t.call('GET', `${A}?${f(0, 'number', 'gt', 'ten')}`);
      expect(r.status).toBe(400);
      expect(r.body.message).toContain('filters[and][0][value] must be a number');
      r = await t.call('GET', `${P}?${f(0, 'id', 'eq', 'not-a-uuid')}`);
      expect(r.status).toBe(400);
      r = await t.call('GET', `${A}?${f(0, 'number', 'like', '1%')}`);
      expect(r.status).toBe(400);
      expect(r.body.message).toContain("Method 'like' does not apply to number column 'number'");
    });
  });
}
