/**
 * What an anonymous request costs the server, per route a visitor (or a script) can call without signing in: server
 * CPU per request in µs, read from /proc as the rest of the bench reads it (scripts/bench/cpu.ts), over an autocannon
 * run after a warm-up. Part of `npm run bench`; `BENCH_ONLY=anonymous` runs it alone.
 *
 * On the demo site (seeded, built web apps) with `TRUST_PROXY=true`, so that requests can come from many client
 * addresses (X-Forwarded-For) and per-address limits are what a crowd of visitors meets, not one address spent:
 * - a cached page (`/`), the yardstick;
 * - a 404 page (unknown urls, each different);
 * - `/api/host/pages/rows` (a category of 60 products shows 24; the rest by offset);
 * - `/api/openapi.json` as a browser asks (br), and the server CPU of its first build;
 * - the OpenGraph image of an article;
 * - `/sitemap.xml`.
 */
import autocannon from 'autocannon';
import { join } from 'node:path';
import { cpuBetween, cpuNow, perRequest } from './cpu.js';

export interface AnonymousFigure {
  route: string;
  requestsPerSecond: number;
  /** µs of the server's CPU per request (null where /proc cannot be read) */
  serverUsPerRequest: number | null;
  /** answers by status class over the measured run */
  statuses: Record<string, number>;
}

export interface AnonymousDeps {
  startChild(name: string, env: Record<string, string>): Promise<{ base: string; pid: number; close(): Promise<void> }>;
  dir: string;
  env: Record<string, string>;
  seconds: number;
  warmupSeconds: number;
  connections: number;
  log(message: string): void;
}

/** client addresses for X-Forwarded-For: enough that none is asked more than a few times a minute */
const address = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

async function json(base: string, path: string, init: RequestInit = {}): Promise<any> {
  const res = await fetch(base + path, init);
  const text = await res.text();
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

export async function benchAnonymous(deps: AnonymousDeps): Promise<{ figures: AnonymousFigure[]; openapiFirstBuildMs: number | null }> {
  const { log } = deps;
  log('anonymous routes: starting the demo site (npm run build must have built web/dist)');
  const app = await deps.startChild('anonymous routes', { ...deps.env, DATABASE_URL: `file:${join(deps.dir, 'anonymous.db')}`, BENCH_PAGES: '1', TRUST_PROXY: 'true' });
  try {
    const system = { 'content-type': 'application/json', 'x-rbac-secret-key': deps.env.RBAC_SECRET_KEY };
    const post = (path: string, data: unknown) => json(app.base, path, { method: 'POST', headers: system, body: JSON.stringify({ data }) });
    // a category whose page shows 24 of its 60 products: the rest come from /api/host/pages/rows
    const category = (await post('/api/ecommerce/categories', { adminTitle: 'Bench long list', slug: 'bench-long-list', title: { en: 'Long list' } })).data;
    const products = (await post('/api/ecommerce/products/bulk', Array.from({ length: 60 }, (_, i) => ({ adminTitle: `Bench item ${i}`, slug: `bench-anon-${i}`, title: { en: `Item ${i}` } })))).data as { id: string }[];
    await post('/api/ecommerce/categories-to-products/bulk', products.map((p, i) => ({ categoryId: category.id, productId: p.id, orderIndex: i })));
    const article = (await json(app.base, '/api/blog/articles?limit=1')).data[0] as { id: string };
    const rowsPath = (offset: number) =>
      `/api/host/pages/rows?${new URLSearchParams({ url: '/ecommerce/categories/bench-long-list', at: 'param:ecommerce/category', row: category.id, relation: 'categoriesToProducts', offset: String(offset), limit: '24' })}`;
    await json(app.base, rowsPath(24));

    // the first build of the document, alone: the server's CPU over one request (10 ms resolution)
    const before = cpuNow(app.pid);
    const first = await fetch(`${app.base}/api/openapi.json`, { headers: { 'x-forwarded-for': '10.255.255.254' } });
    await first.arrayBuffer();
    const after = before && cpuNow(app.pid);
    const openapiFirstBuildMs = before && after ? Math.round(((after.server.get(app.pid) ?? 0) - (before.server.get(app.pid) ?? 0)) * 10) : null;
    log(`anonymous  /api/openapi.json, first build: ${openapiFirstBuildMs ?? '?'} ms of server CPU (status ${first.status})`);

    const browser = { 'accept-encoding': 'br, gzip' };
    const targets: [string, autocannon.Request[]][] = [
      ['page / (cached)', [{ method: 'GET', path: '/', headers: browser }]],
      ['404 page (unknown urls)', Array.from({ length: 500 }, (_, i) => ({ method: 'GET' as const, path: `/no-such-page-${i}`, headers: browser }))],
      ['/api/host/pages/rows', Array.from({ length: 36 }, (_, i) => ({ method: 'GET' as const, path: rowsPath(24 + i) }))],
      ['/api/openapi.json (br)', Array.from({ length: 20_000 }, (_, i) => ({ method: 'GET' as const, path: '/api/openapi.json', headers: { ...browser, 'x-forwarded-for': address(i) } }))],
      ['opengraph image', Array.from({ length: 2_000 }, (_, i) => ({ method: 'GET' as const, path: `/api/file-storage/files/opengraph-image?entity=blog/article&id=${article.id}`, headers: { 'x-forwarded-for': address(100_000 + i) } }))],
      ['/sitemap.xml', [{ method: 'GET', path: '/sitemap.xml', headers: browser }]],
    ];
    const figures: AnonymousFigure[] = [];
    for (const [route, requests] of targets) {
      const run = (duration: number) => autocannon({ url: app.base, connections: deps.connections, duration, requests });
      await run(deps.warmupSeconds);
      const start = cpuNow(app.pid);
      const r = await run(deps.seconds);
      const end = start && cpuNow(app.pid);
      const rps = Math.round(r.requests.average);
      const serverUsPerRequest = start && end ? perRequest(cpuBetween(start, end).serverCores, rps) : null;
      const statuses = { '2xx': r['2xx'], '3xx': r['3xx'], '4xx': r['4xx'], '5xx': r['5xx'] };
      figures.push({ route, requestsPerSecond: rps, serverUsPerRequest, statuses });
      log(`anonymous  ${route.padEnd(26)} ${String(rps).padStart(7)} req/s  server CPU ${String(serverUsPerRequest ?? '?').padStart(6)} µs a request  answers ${Object.entries(statuses).filter(([, n]) => n).map(([k, n]) => `${k} ${n}`).join(', ')}`);
    }
    return { figures, openapiFirstBuildMs };
  } finally {
    await app.close();
  }
}
