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

    it('language maps: one language by <field>.<code>', async () => {
      expect(slugs(await t.call('GET', `${P}?${f(0, 'title.en', 'eq', 'delta product')}`))).toEqual(['p-3-delta']);
      expect(slugs(await t.call('GET', `${P}?${f(0, 'title.ru', 'ilike', 'ECHO')}`))).toEqual(['p-4-echo']);
      expect(slugs(await t.call('GET', `${P}?${f(0, 'title.en', 'like', 'charlie')}`))).toEqual(['p-2-charlie']);
    });

    it('ilike and notIlike fold the case of every script, not ASCII alone', async () => {
      const all = ['p-0-alpha', 'p-1-bravo', 'p-2-charlie', 'p-3-delta', 'p-4-echo'];
      // stored 'Товар …': an upper-case value, a lower-case one, a mixed one
      expect(slugs(await t.call('GET', `${P}?${f(0, 'title.ru', 'ilike', 'ТОВАР')}`))).toEqual(all);
      expect(slugs(await t.call('GET', `${P}?${f(0, 'title.ru', 'ilike', 'товар b')}`))).toEqual(['p-1-bravo']);
      expect(slugs(await t.call('GET', `${P}?${f(0, 'title.ru', 'ilike', 'тОВАР ECHO')}`))).toEqual(['p-4-echo']);
      expect(slugs(await t.call('GET', `${P}?${f(0, 'title.ru', 'notIlike', 'ТОВАР')}`))).toEqual([]);
      expect(slugs(await t.call('GET', `${P}?${f(0, 'title.ru', 'notIlike', 'товар d')}`))).toEqual(['p-0-alpha', 'p-1-bravo', 'p-2-charlie', 'p-4-echo']);
      expect((await t.call('GET', `${P}/count?${f(0, 'title.ru', 'ilike', 'ТОВАР')}`)).body.data).toBe(5);
      // like stays case-sensitive in every script
      expect(slugs(await t.call('GET', `${P}?${f(0, 'title.ru', 'like', 'ТОВАР')}`))).toEqual([]);
      expect(slugs(await t.call('GET', `${P}?${f(0, 'title.ru', 'like', 'Товар a')}`))).toEqual(['p-0-alpha']);
      // Greek and Latin letters beyond ASCII, in a plain text column
      const C = '/api/ecommerce/categories';
      for (const [slug, adminTitle] of [['fold-greek', 'ΣΟΦΙΑ Δελφών'], ['fold-latin', 'Ärger Über Œuvre']]) {
        expect((await t.call('POST', C, { data: { slug, adminTitle } })).status).toBe(201);
      }
      const cats = async (q: string) => slugs(await t.call('GET', `${C}?${q}&${o(0, 'slug', 'asc')}`));
      expect(await cats(f(0, 'adminTitle', 'ilike', 'σοφια δΕΛΦΏΝ'))).toEqual(['fold-greek']);
      expect(await cats(f(0, 'adminTitle', 'ilike', 'ärger über œUVRE'))).toEqual(['fold-latin']);
      expect(await cats(`${f(0, 'slug', 'like', 'fold-')}&${f(1, 'adminTitle', 'notIlike', 'ÄRGER')}`)).toEqual(['fold-greek']);
    });

    it('a whole language map or JSON document is never searched as text: a 400 naming the column', async () => {
      const at = 'filters[and][0][column]';
      const languages = t.model.languages.join(', ');
      for (const method of ['like', 'ilike', 'notLike', 'notIlike', 'eq', 'inArray']) {
        for (const value of ['"en":"Alpha', '"en": "Alpha', 'alpha']) {
          // twice: a query string that fails its checks is never kept as a compiled list
          for (const path of [`${P}?${f(0, 'title', method, value)}`, `${P}?${f(0, 'title', method, value)}`, `${P}/count?${f(0, 'title', method, value)}`]) {
            const r = await t.call('GET', path);
            expect(r.status, path).toBe(400);
            expect(r.body.message, path).toBe(`Column 'title' in ${at} is a language map: filter one language, as 'title.${t.model.defaultLanguage}' (languages: ${languages}); a whole map takes only isNull and isNotNull`);
            expect(r.body.cause, path).toEqual([{ message: `filter one language of 'title', as 'title.${t.model.defaultLanguage}'`, field: at, rule: 'language' }]);
          }
        }
      }
      // in an or group too, named at its place
      const r = await t.call('GET', `${P}?${f(0, 'title.en', 'ilike', 'a', 'or')}&${f(1, 'title', 'ilike', 'a', 'or')}`);
      expect(r.status).toBe(400);
      expect(r.body.cause).toEqual([{ message: `filter one language of 'title', as 'title.${t.model.defaultLanguage}'`, field: 'filters[or][1][column]', rule: 'language' }]);
      // a JSON document: the like family does not apply to it
      const M = '/api/broadcast/messages';
      expect((await t.call('POST', M, { data: { payload: { text: 'Landing', n: 1 } } })).status).toBe(201);
      for (const method of ['like', 'ilike', 'notLike', 'notIlike']) {
        const m = await t.call('GET', `${M}?${f(0, 'payload', method, '"text":"Landing')}`);
        expect(m.status, method).toBe(400);
        expect(m.body.message, method).toBe(`Method '${method}' does not apply to json column 'payload' in filters[and][0][method]; use one of: isNull, isNotNull`);
      }
      // what a whole map or document still takes, alike on both databases
      expect(slugs(await t.call('GET', `${P}?${f(0, 'title', 'isNotNull')}`))).toHaveLength(5);
      expect((await t.call('GET', `${P}?${f(0, 'title', 'isNull')}`)).body.data).toEqual([]);
      expect((await t.call('GET', `${M}?${f(0, 'payload', 'isNotNull')}`)).body.data).toHaveLength(1);
      // nor ordered by as text: one language of a map, and a document not at all
      for (const method of ['asc', 'desc']) {
        const byMap = await t.call('GET', `${P}?${o(0, 'title', method)}`);
        expect(byMap.status).toBe(400);
        expect(byMap.body.cause).toEqual([{ field: 'orderBy[and][0][column]', rule: 'language', message: `order by one language of 'title', as 'title.${t.model.defaultLanguage}'` }]);
        expect((await t.call('GET', `${M}?${o(0, 'payload', method)}`)).body.cause[0]).toMatchObject({ field: 'orderBy[and][0][column]', rule: 'column' });
      }
      expect((await t.call('GET', `${P}?${o(0, 'title.ru', 'asc')}`)).status).toBe(200);
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

    it('NULLs come last ascending and first descending, on both databases', async () => {
      const rows = [
        { slug: 'nul-1', number: 2, boolean: true, date: '2026-02-02', datetime: '2026-02-02T10:00:00.000Z', string: { en: 'Beta', ru: 'Бета' } },
        { slug: 'nul-2' },
        { slug: 'nul-3', number: 1, boolean: false, date: '2026-02-01', datetime: '2026-02-01T10:00:00.000Z', string: { en: 'Alpha' } },
      ];
      expect((await t.call('POST', `${A}/bulk`, { data: rows })).status).toBe(201);
      const ordered = async (column: string, method: string, more = '') => slugs(await t.call('GET', `${A}?${f(0, 'slug', 'like', 'nul-')}&${o(0, encodeURIComponent(column), method)}${more}`));
      for (const column of ['number', 'boolean', 'date', 'datetime', 'string.en']) {
        expect(await ordered(column, 'asc'), column).toEqual(['nul-3', 'nul-1', 'nul-2']);
        expect(await ordered(column, 'desc'), column).toEqual(['nul-2', 'nul-1', 'nul-3']);
      }
      // one language missing from a map is a NULL too; pages keep the order
      expect(await ordered('string.ru', 'asc', `&${o(1, 'slug', 'asc')}`)).toEqual(['nul-1', 'nul-2', 'nul-3']);
      expect(await ordered('string.ru', 'desc', `&${o(1, 'slug', 'desc')}`)).toEqual(['nul-3', 'nul-2', 'nul-1']);
      const pages: string[] = [];
      for (let offset = 0; offset < 3; offset++) pages.push(...(await ordered('number', 'asc', `&limit=1&offset=${offset}`)));
      expect(pages).toEqual(['nul-3', 'nul-1', 'nul-2']);
      // a column that is never null orders as before
      expect(await ordered('slug', 'desc')).toEqual(['nul-3', 'nul-2', 'nul-1']);
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
      expect(r.body.cause).toEqual([expect.objectContaining({ field: 'filters[and][0][method]', rule: 'method' })]);
      // every refused query names the parameter in its cause, the shape errors too
      for (const [query, field, rule] of [
        ['filters[xor][0][column]=slug', 'filters[xor]', 'unknown'],
        ['filters=slug', 'filters', 'type'],
        ['filters[and]=x', 'filters[and]', 'type'],
        ['filters[and][0]=x', 'filters[and][0]', 'type'],
        ['orderBy=slug', 'orderBy', 'type'],
        ['orderBy[or][0][column]=slug', 'orderBy[or]', 'unknown'],
      ]) {
        const q = await t.call('GET', `${P}?${query}`);
        expect(q.status, query).toBe(400);
        expect(q.body.cause, query).toEqual([expect.objectContaining({ field, rule })]);
      }
    });
  });
}
