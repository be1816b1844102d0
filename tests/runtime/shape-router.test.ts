import { describe, expect, it } from 'vitest';
import { TrieRouter } from 'hono/router/trie-router';
import { marked, ShapeRouter } from '../../runtime/http/shape-router.js';

const ROUTES: [string, string][] = [
  ['ALL', '/*'],
  ['ALL', '/api/*'],
  ['GET', '/api/health'],
  ['GET', '/api/:module/:route'],
  ['GET', '/api/:module/:route/count'],
  ['GET', '/api/:module/:route/:id'],
  ['PATCH', '/api/:module/:route/:id'],
  ['POST', '/api/rbac/subjects/:id/ecommerce-module/orders/:orderId/checkout'],
  ['GET', '/api/host/pages/:id/segments/:key'],
  ['GET', '/files/*'],
  ['GET', '*'],
];
const ID = '0b7c9f1e-3d2a-4c5b-8e6f-1a2b3c4d5e6f';
const ID2 = 'FFFFFFFF-0000-4ABC-8DEF-123456789ABC';
const PATHS = [
  '/', '/api/health', '/api/ecommerce/products', `/api/ecommerce/products/${ID}`, `/api/ecommerce/products/${ID2}`, `/api/ecommerce/products/${ID}/`,
  '/api/ecommerce/products/not-a-uuid', `/api/ecommerce/products/${ID}x`, `/api/ecommerce/products/x${ID}`, '/api/ecommerce/products/count',
  `/api/rbac/subjects/${ID}/ecommerce-module/orders/${ID2}/checkout`, `/api/rbac/subjects/${ID}/ecommerce-module/orders/${ID}/checkout`,
  `/api/host/pages/${ID}/segments/${ID2}`, `/files/${ID}.png`, `/files/a/${ID}`, `/blog/${ID}`, '//api//x', `/${ID}`, `/api/${ID}/${ID2}/${ID}`,
];

/** a result as handler names and plain parameter objects, for comparing two routers (either of hono's two forms:
 * parameters as values, or as indexes into the result's stash) */
const plain = (result: unknown): [string, Record<string, string>][] => {
  const [matched, stash] = result as [[string, Record<string, string | number>][], string[]?];
  return matched.map(([h, p]) => [h, Object.fromEntries(Object.entries(p).map(([k, v]) => [k, stash ? stash[v as number] : String(v)]))]);
};

function both(routes = ROUTES) {
  const trie = new TrieRouter<string>();
  const shape = new ShapeRouter<string>();
  for (const [method, path] of routes) {
    trie.add(method, path, `${method} ${path}`);
    shape.add(method, path, `${method} ${path}`);
  }
  return { trie, shape };
}

describe('ShapeRouter: the trie router asked once per shape of a path', () => {
  it('matches every path as the trie router does, asked again and again with other UUIDs of the same shape', () => {
    const { trie, shape } = both();
    for (let round = 0; round < 3; round++) {
      for (const method of ['GET', 'POST', 'PATCH']) {
        for (const path of PATHS) {
          // each round, other UUIDs in the same places: the kept shape must give this path's own
          const p = round === 0 ? path : path.replaceAll(ID, crypto.randomUUID()).replaceAll(ID2, crypto.randomUUID().toUpperCase());
          expect(plain(shape.match(method, p)), `${method} ${p}`).toEqual(plain(trie.match(method, p)));
        }
      }
    }
  });

  it("gives each match values of its own, and what it keeps per shape cannot be changed by a caller", () => {
    const { shape } = both();
    const first = shape.match('GET', `/api/ecommerce/products/${ID}`);
    const item = plain(first).find(([h]) => h === 'GET /api/:module/:route/:id')!;
    expect(item[1]).toEqual({ module: 'ecommerce', route: 'products', id: ID });
    // the kept handler pairs and index maps are frozen: a caller cannot change what the next path of the shape gets
    const [pairs, stash] = first as [[string, Record<string, number>][], string[]];
    expect(() => ((pairs[0][1] as Record<string, number>).id = 0)).toThrow(TypeError);
    expect(() => (pairs as unknown[]).push(['x', {}])).toThrow(TypeError);
    // the stash is the request's own: changing it changes nothing for the next match
    stash.fill('changed');
    const second = shape.match('GET', `/api/ecommerce/products/${ID2}`);
    expect(plain(second).find(([h]) => h === 'GET /api/:module/:route/:id')![1]).toEqual({ module: 'ecommerce', route: 'products', id: ID2 });
    expect(plain(shape.match('GET', `/api/ecommerce/products/${ID}`)).find(([h]) => h === 'GET /api/:module/:route/:id')![1].id).toBe(ID);
  });

  it('answers parameters through hono as the trie does (c.req.param, one and all, percent-decoded)', async () => {
    const { Hono } = await import('hono');
    const appWith = (router: ShapeRouter<never> | TrieRouter<never>) => {
      const app = new Hono({ router });
      app.use('/api/*', async (c, next) => {
        c.header('x-mw', 'yes');
        await next();
      });
      app.get('/api/:module/:route/:id', (c) => c.json({ one: c.req.param('id'), all: c.req.param() }));
      app.get('/api/rbac/subjects/:id/ecommerce-module/orders/:orderId/checkout', (c) => c.json({ all: c.req.param() }));
      return app;
    };
    const app = appWith(new ShapeRouter());
    const trieApp = appWith(new TrieRouter());
    for (const [path, want] of [
      [`/api/ecommerce/products/${ID}`, { one: ID, all: { module: 'ecommerce', route: 'products', id: ID } }],
      [`/api/blog/articles/${ID2}`, { one: ID2, all: { module: 'blog', route: 'articles', id: ID2 } }],
      ['/api/blog/a%20b/x%2Fy', { one: 'x/y', all: { module: 'blog', route: 'a b', id: 'x/y' } }],
      [`/api/rbac/subjects/${ID}/ecommerce-module/orders/${ID2}/checkout`, { all: { id: ID, orderId: ID2 } }],
    ] as const) {
      const res = await app.request(path);
      expect(res.headers.get('x-mw'), path).toBe('yes');
      expect(await res.json(), path).toEqual(want);
      expect(want, path).toEqual(await (await trieApp.request(path)).json());
    }
  });

  it('leaves routes it cannot stand for to the trie: a custom pattern, a * inside a segment, a UUID written in a route', () => {
    for (const extra of [['GET', '/api/x/:id{[0-9a-f-]+}'], ['GET', '/assets/app-*'], ['GET', `/api/fixed/${ID}`]] as [string, string][]) {
      const { trie, shape } = both([...ROUTES, extra]);
      for (const path of [...PATHS, `/api/x/${ID}`, '/assets/app-1.js', `/api/fixed/${ID}`, `/api/fixed/${ID2}`]) {
        expect(plain(shape.match('GET', path)), `${extra[1]}: ${path}`).toEqual(plain(trie.match('GET', path)));
      }
    }
  });

  it('marks whole UUID segments only', () => {
    const uuids: string[] = [];
    expect(marked(`/a/${ID}/b/${ID2}`, uuids)).toBe('/a/\u00000/b/\u00001');
    expect(uuids).toEqual([ID, ID2]);
    expect(marked(`/a/${ID}x/${ID.slice(1)}/x${ID}`, [])).toBe(`/a/${ID}x/${ID.slice(1)}/x${ID}`);
    expect(marked(`/${ID}/`, [])).toBe('/\u00000/');
  });
});
