import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { startTestServer } from '../helpers/browser.js';

/**
 * A long relation a page shows a page at a time ('Show N more of M': a category's products) ships its first 24 rows
 * in the page data, with how many it has (`<relation>$more`); GET /api/host/pages/rows answers the rest, kept as the
 * page keeps its rows (plugins/host/server/reads.ts). Before, every row went into every page's HTML.
 */
const PRODUCTS = 60;

for (const d of DIALECTS) describe(`a long relation ships a page at a time (${d.name})`, () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let categoryId: string;
  let shortId: string;

  beforeAll(async () => {
    server = await startTestServer(await d.make(), { SEED: 'true' });
    const post = async (path: string, data: unknown) => {
      const r = await server.system('POST', path, { data });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body.data;
    };
    categoryId = (await post('/api/ecommerce/categories', { adminTitle: 'Long', slug: 'long-list', title: { en: 'Long list', ru: 'Длинный список' } })).id;
    shortId = (await post('/api/ecommerce/categories', { adminTitle: 'Short', slug: 'short-list', title: { en: 'Short list' } })).id;
    const products = (await post(
      '/api/ecommerce/products/bulk',
      Array.from({ length: PRODUCTS }, (_, i) => ({ adminTitle: `Item ${i}`, slug: `item-${i}`, title: { en: `Item number ${i}`, ru: `Товар номер ${i}` } })),
    )) as { id: string }[];
    await post('/api/ecommerce/categories-to-products/bulk', products.map((p, i) => ({ categoryId, productId: p.id, orderIndex: i })));
    await post('/api/ecommerce/categories-to-products/bulk', products.slice(0, 3).map((p, i) => ({ categoryId: shortId, productId: p.id, orderIndex: i })));
  });
  afterAll(async () => server?.close());

  const draw = async (path: string) => {
    const res = await fetch(server.url + path);
    expect(res.status).toBe(200);
    const html = await res.text();
    return { html, data: JSON.parse(html.match(/<script id="__PAGE__" type="application\/json">(.*?)<\/script>/s)![1]) };
  };
  const rows = (query: Record<string, string>) => fetch(`${server.url}/api/host/pages/rows?${new URLSearchParams(query)}`).then(async (r) => ({ status: r.status, body: await r.json() }));

  it('the page ships the first 24 rows and the total; the rest come from /api/host/pages/rows, in order', async () => {
    const { html, data } = await draw('/ecommerce/categories/long-list');
    const category = data.context.params['ecommerce.category'];
    expect(category.categoriesToProducts).toHaveLength(24);
    expect(category['categoriesToProducts$more']).toEqual({ total: PRODUCTS, at: 'param:ecommerce/category' });
    expect(html).toContain('Item number 23');
    expect(html).not.toContain('Item number 24');
    expect(html).toContain('Show 24 more of 36');

    const next = await rows({ url: '/ecommerce/categories/long-list', at: 'param:ecommerce/category', row: categoryId, relation: 'categoriesToProducts', offset: '24' });
    expect(next.status, JSON.stringify(next.body)).toBe(200);
    expect(next.body.data.total).toBe(PRODUCTS);
    expect(next.body.data.rows.map((r: { product: { title: { en: string } } }) => r.product.title.en)).toEqual(Array.from({ length: 24 }, (_, i) => `Item number ${24 + i}`));
    // the same fields the page keeps of its first rows, no more
    expect(Object.keys(next.body.data.rows[0].product).sort()).toEqual(Object.keys(category.categoriesToProducts[0].product).sort());
    const last = await rows({ url: '/ecommerce/categories/long-list', at: 'param:ecommerce/category', row: categoryId, relation: 'categoriesToProducts', offset: '48', limit: '100' });
    expect(last.body.data.rows).toHaveLength(12);
  });

  it('drawn again, the page reads only its first rows and counts the rest: the same page', async () => {
    const first = await draw('/ecommerce/categories/long-list');
    // the first draw learned that the relation is shown a page at a time; drawn again (the cached copy dropped), the
    // assembly reads 25 rows and a count
    expect((await server.system('GET', '/api/revalidation/revalidate?path=/ecommerce/categories/long-list')).status).toBe(200);
    const reads = server.database.queries;
    const again = await draw('/ecommerce/categories/long-list');
    expect(server.database.queries).toBeGreaterThan(reads);
    expect(again.data).toEqual(first.data);
    expect(again.html).toContain('Show 24 more of 36');
  });

  it('an answer is kept like the page, and goes with it when a row it read changes', async () => {
    const query = { url: '/ecommerce/categories/long-list', at: 'param:ecommerce/category', row: categoryId, relation: 'categoriesToProducts', offset: '59', limit: '1' };
    const first = await rows(query);
    const product = first.body.data.rows[0].product;
    expect(product.title.en).toBe('Item number 59');
    expect((await rows(query)).body).toEqual(first.body);
    expect((await server.system('PATCH', `/api/ecommerce/products/${product.id}`, { data: { title: { en: 'Renamed item' } } })).status).toBe(200);
    await expect.poll(async () => (await rows(query)).body.data.rows[0].product.title.en).toBe('Renamed item');
  });

  it("in another language, the rows are in the page's language", async () => {
    const { data } = await draw('/ru/ecommerce/categories/long-list');
    // a text in the page's language only
    expect(data.context.params['ecommerce.category'].categoriesToProducts[0].product.title).toEqual({ ru: 'Товар номер 0' });
    const next = await rows({ url: '/ru/ecommerce/categories/long-list', at: 'param:ecommerce/category', row: categoryId, relation: 'categoriesToProducts', offset: '24', limit: '2' });
    expect(next.body.data.rows.map((r: { product: { title: unknown } }) => r.product.title)).toEqual([{ ru: 'Товар номер 24' }, { ru: 'Товар номер 25' }]);
  });

  it('a short relation ships whole, with no total', async () => {
    const { data } = await draw('/ecommerce/categories/short-list');
    const category = data.context.params['ecommerce.category'];
    expect(category.categoriesToProducts).toHaveLength(3);
    expect(category).not.toHaveProperty('categoriesToProducts$more');
  });

  it('a bad query is a 400 naming the parameter; a list the page does not page is a 404', async () => {
    const base = { url: '/ecommerce/categories/long-list', at: 'param:ecommerce/category', row: categoryId, relation: 'categoriesToProducts' };
    let r = await rows({ url: '/ecommerce/categories/long-list' });
    expect(r.status).toBe(400);
    expect(r.body.cause.map((c: { field: string }) => c.field)).toEqual(['at', 'row', 'relation']);
    r = await rows({ ...base, row: 'not-an-id' });
    expect(r.body.cause).toEqual([{ field: 'row', rule: 'format', message: 'row must be a UUID' }]);
    for (const [field, value] of [['offset', '-1'], ['limit', '0'], ['limit', '101'], ['offset', 'x']]) {
      r = await rows({ ...base, [field]: value });
      expect(r.status, `${field}=${value}`).toBe(400);
      expect(r.body.cause[0]).toMatchObject({ field, rule: 'range' });
    }
    r = await rows({ ...base, sort: 'title' });
    expect(r.body.cause[0]).toMatchObject({ field: 'sort', rule: 'unknown' });
    // a relation the page shows whole, a row that is not there, a page that is not there
    for (const query of [{ ...base, relation: 'categoriesToArticles' }, { ...base, row: shortId }, { ...base, url: '/nowhere' }, { ...base, at: 'param:blog/article' }]) {
      r = await rows(query);
      expect(r.status, JSON.stringify(query)).toBe(404);
    }
  });
});
