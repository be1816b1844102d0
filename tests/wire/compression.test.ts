import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { ROOT } from '../../engine/codegen.js';
import { loadConfig } from '../../runtime/config.js';
import { startServer } from '../../runtime/server.js';
import { plugins } from '../../plugins/index.js';
import { sqliteDatabase } from '../helpers/databases.js';
import { raw, type RawAnswer as Raw } from '../helpers/wire.js';
import { accepted, CompressedCache, etagMatches, isCompressible, negotiate, wire } from '../../runtime/http/wire.js';
import { Hono } from 'hono';
import { createAdaptorServer, type ServerType } from '@hono/node-server';

const KEY = 'wire-compress-secret-0123456789';

describe('Accept-Encoding negotiation', () => {
  it('prefers br, then gzip, honours q-values and *', () => {
    expect(negotiate('gzip, deflate, br')).toBe('br');
    expect(negotiate('gzip, deflate')).toBe('gzip');
    expect(negotiate('br;q=0, gzip')).toBe('gzip');
    expect(negotiate('br;q=0.5, gzip;q=0.8')).toBe('gzip');
    expect(negotiate('*')).toBe('br');
    expect(negotiate('*, br;q=0')).toBe('gzip');
    expect(negotiate('identity')).toBeUndefined();
    expect(negotiate('gzip;q=0')).toBeUndefined();
    expect(negotiate('')).toBeUndefined();
    expect(negotiate(undefined)).toBeUndefined();
    expect(accepted('br, gzip')).toEqual(['br', 'gzip']);
  });
  it('answers a header asked again the same (the answers are kept by the header text), and a kept list cannot be changed', () => {
    for (let i = 0; i < 3; i++) {
      expect(negotiate('br;q=0, gzip')).toBe('gzip');
      expect(accepted('gzip;q=0.5, br;q=0.9')).toEqual(['br', 'gzip']);
      expect(isCompressible('application/json')).toBe(true);
      expect(isCompressible('image/png')).toBe(false);
    }
    const list = accepted('br, gzip') as string[];
    expect(() => list.push('deflate')).toThrow(TypeError);
    expect(accepted('br, gzip')).toEqual(['br', 'gzip']);
  });
  it('compresses text formats, never streams or formats that are compressed already', () => {
    for (const t of ['text/html; charset=UTF-8', 'application/json', 'application/javascript', 'text/css', 'image/svg+xml', 'application/xml; charset=utf-8']) expect(isCompressible(t)).toBe(true);
    for (const t of ['text/event-stream', 'image/png', 'image/jpeg', 'application/pdf', 'video/mp4', 'font/woff2', 'application/octet-stream', undefined]) expect(isCompressible(t)).toBe(false);
  });
  it('keeps compressed bodies within its byte budget, the least recently used going first', () => {
    const cache = new CompressedCache(4000);
    const body = (n: number) => new Uint8Array(n);
    cache.set('a', body(900));
    cache.set('b', body(900));
    cache.set('c', body(900));
    expect(cache.get('a')?.length).toBe(900);
    cache.set('d', body(900));
    cache.set('e', body(900));
    // 'b' was the least recently used
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.size).toBe(4);
    // a body over a quarter of the budget is never kept
    cache.set('big', body(1001));
    expect(cache.get('big')).toBeUndefined();
  });
  it('matches weak and strong forms of a tag, lists and *', () => {
    expect(etagMatches('W/"abc"', 'W/"abc"')).toBe(true);
    expect(etagMatches('"abc"', 'W/"abc"')).toBe(true);
    expect(etagMatches('"x", W/"abc"', 'W/"abc"')).toBe(true);
    expect(etagMatches('*', 'W/"abc"')).toBe(true);
    expect(etagMatches('W/"abd"', 'W/"abc"')).toBe(false);
    expect(etagMatches(undefined, 'W/"abc"')).toBe(false);
  });
});

describe('the wire middleware on its own', () => {
  let server: ServerType;
  let base = '';
  beforeAll(async () => {
    const app = new Hono();
    app.use(wire());
    const big = { data: { token: 'x'.repeat(2048) } };
    app.get('/plain', (c) => c.json(big));
    app.get('/sets-cookie', (c) => c.json(big, 200, { 'set-cookie': 'session=secret; HttpOnly' }));
    app.get('/no-transform', (c) => c.json(big, 200, { 'cache-control': 'no-transform' }));
    server = createAdaptorServer({ fetch: app.fetch });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('compresses an answer and gives it a validator, but neither to one that sets a cookie (BREACH) nor to no-transform', async () => {
    const plain = await raw(base, '/plain', { 'accept-encoding': 'br' });
    expect(plain.headers['content-encoding']).toBe('br');
    expect(plain.headers.etag).toBeTruthy();
    const cookie = await raw(base, '/sets-cookie', { 'accept-encoding': 'br' });
    expect(cookie.headers['set-cookie']).toBeDefined();
    expect(cookie.headers['content-encoding']).toBeUndefined();
    expect(cookie.headers.etag).toBeUndefined();
    expect(JSON.parse(cookie.body.toString()).data.token).toHaveLength(2048);
    expect((await raw(base, '/no-transform', { 'accept-encoding': 'br' })).headers['content-encoding']).toBeUndefined();
  });
});

const vary = (r: Raw) => String(r.headers.vary ?? '').toLowerCase();

describe('over the wire: compression and validators on a real server (built web apps)', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let base = '';
  const db = sqliteDatabase();
  beforeAll(async () => {
    const config = loadConfig({ NODE_ENV: 'test', PORT: '0', DATABASE_URL: db.url, RBAC_SECRET_KEY: KEY, RBAC_JWT_SECRET: 'wire-compress-jwt-0123456789', LOG_LEVEL: 'silent' });
    server = await startServer({ config, root: ROOT, plugins, web: 'built', seed: true });
    base = `http://127.0.0.1:${server.port}`;
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await db.drop();
  });

  const LIST = '/api/ecommerce/products?limit=50';

  it('JSON: br when accepted, else gzip, else the identity body; the same data each way, with Vary', async () => {
    const plain = await raw(base, LIST);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);
    expect(vary(plain)).toContain('accept-encoding');
    const br = await raw(base, LIST, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toContain('application/json');
    expect(vary(br)).toContain('accept-encoding');
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(br.body.length).toBeLessThan(plain.body.length);
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    const gz = await raw(base, LIST, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
    expect((await raw(base, LIST, { 'accept-encoding': 'br;q=0, gzip;q=0' })).headers['content-encoding']).toBeUndefined();
  });

  it('HTML pages are compressed; a tiny body is not', async () => {
    const page = await raw(base, '/', { 'accept-encoding': 'br' });
    expect(page.status).toBe(200);
    expect(page.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(page.body).toString()).toContain('<!doctype html>');
    const health = await raw(base, '/api/health', { 'accept-encoding': 'br, gzip' });
    expect(health.status).toBe(200);
    expect(health.body.length).toBeLessThan(1024);
    expect(health.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(health.body.toString()).data.status).toBe('ok');
  });

  it('a Server-Sent Events stream is never compressed nor held back: its first event arrives while it stays open', async () => {
    const controller = new AbortController();
    const res = await fetch(`${base}/api/broadcast/events`, { headers: { 'accept-encoding': 'gzip, br', accept: 'text/event-stream' }, signal: controller.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(res.headers.get('etag')).toBeNull();
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes('event: ready')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    expect(text).toContain('event: ready');
    controller.abort();
  });

  it('built assets are answered from the files compressed at build time, with their own type and Vary', async () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'web', 'dist', '.vite', 'manifest.json'), 'utf8')) as Record<string, { file: string; css?: string[] }>;
    const js = manifest['storefront/main.tsx'].file;
    const dist = join(ROOT, 'web', 'dist');
    const big = Object.values(manifest).map((c) => c.file).find((f) => f.endsWith('.js') && readFileSync(join(dist, f)).length > 4096)!;
    for (const file of [js, big]) {
      const identity = readFileSync(join(dist, file));
      const br = await raw(base, `/${file}`, { 'accept-encoding': 'gzip, deflate, br' });
      expect(br.status).toBe(200);
      expect(br.headers['content-type']).toMatch(/javascript/);
      expect(br.headers['content-encoding']).toBe('br');
      expect(vary(br)).toContain('accept-encoding');
      expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(br.body.equals(readFileSync(join(dist, `${file}.br`)))).toBe(true);
      const gz = await raw(base, `/${file}`, { 'accept-encoding': 'gzip' });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gz.body).equals(identity)).toBe(true);
      const plain = await raw(base, `/${file}`);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.equals(identity)).toBe(true);
    }
    const css = manifest['storefront/main.tsx'].css?.[0] ?? Object.values(manifest).flatMap((c) => c.css ?? [])[0];
    const styles = await raw(base, `/${css}`, { 'accept-encoding': 'br' });
    expect(styles.headers['content-type']).toMatch(/^text\/css/);
    expect(styles.headers['content-encoding']).toBe('br');
    expect((await raw(base, '/assets/no-such-file.js', { 'accept-encoding': 'br' })).status).toBe(404);
  });

  it('API GETs carry an ETag; a matching If-None-Match is a 304 without a body until the data changes', async () => {
    const first = await raw(base, LIST, { 'accept-encoding': 'br' });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/".+"$/);
    // the tag is of the data, whatever the encoding
    expect((await raw(base, LIST)).headers.etag).toBe(etag);
    const again = await raw(base, LIST, { 'if-none-match': etag, 'accept-encoding': 'br' });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    expect(again.headers['x-content-type-options']).toBe('nosniff');
    expect((await raw(base, LIST, { 'if-none-match': 'W/"something-else"' })).status).toBe(200);
    const id = (JSON.parse((await raw(base, LIST)).body.toString()) as { data: { id: string }[] }).data[0].id;
    const one = await raw(base, `/api/ecommerce/products/${id}`);
    const tag = one.headers.etag as string;
    expect((await raw(base, `/api/ecommerce/products/${id}`, { 'if-none-match': tag })).status).toBe(304);
    const updated = await fetch(`${base}/api/ecommerce/products/${id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', 'x-rbac-secret-key': KEY },
      body: JSON.stringify({ data: { adminTitle: 'Changed over the wire' } }),
    });
    expect(updated.status).toBe(200);
    const changed = await raw(base, `/api/ecommerce/products/${id}`, { 'if-none-match': tag });
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(tag);
    expect(JSON.parse(changed.body.toString()).data.adminTitle).toBe('Changed over the wire');
  });

  it('pages carry an ETag and answer 304 to it; an answer to a caller with credentials has none and stays no-store', async () => {
    const page = await raw(base, '/');
    const etag = page.headers.etag as string;
    expect(etag).toBeTruthy();
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    // the cached page's validator is the one its HTML had when rendered
    const cached = await raw(base, '/');
    expect(cached.headers['x-page-cache']).toBe('hit');
    expect(cached.headers.etag).toBe(etag);
    const again = await raw(base, '/', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.headers['cache-control']).toBe('no-cache');
    const system = await raw(base, LIST, { 'x-rbac-secret-key': KEY, 'if-none-match': '*' });
    expect(system.status).toBe(200);
    expect(system.headers.etag).toBeUndefined();
    expect(system.headers['cache-control']).toBe('no-store');
    const cookie = await raw(base, '/', { cookie: 'rbac.subject.jwt=made-up', 'if-none-match': etag });
    expect(cookie.status).toBe(200);
    expect(cookie.headers.etag).toBeUndefined();
    expect(cookie.headers['cache-control']).toBe('no-store');
  });

  it('a page names the chunks of the variants it drew with and preloads them, and only them', async () => {
    const html = (await raw(base, '/')).body.toString();
    const data = JSON.parse(/<script id="__PAGE__" type="application\/json">([\s\S]*?)<\/script>/.exec(html)![1]) as { chunks: string[] };
    expect(data.chunks).toContain('plugins/website-builder/web/navbar');
    const manifest = JSON.parse(readFileSync(join(ROOT, 'web', 'dist', '.vite', 'manifest.json'), 'utf8')) as Record<string, { file: string }>;
    // a chunk is named by its source's path from the root without the extension; the manifest's key is relative to web/
    const chunk = (name: string) => manifest[`../${name}.tsx`].file;
    for (const c of data.chunks) expect(html).toContain(`<link rel="modulepreload" href="/${chunk(c)}">`);
    const unused = ['plugins/blog/web/articles', 'plugins/blog/web/categories', 'plugins/ecommerce/web/orders', 'plugins/rbac/web/identity-settings'];
    for (const c of unused) expect(data.chunks).not.toContain(c);
    for (const c of unused) expect(html).not.toContain(`href="/${chunk(c)}"`);
  });

  it('writes and errors get no validator', async () => {
    const missing = await raw(base, '/api/ecommerce/products/00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(missing.headers.etag).toBeUndefined();
  });
});
