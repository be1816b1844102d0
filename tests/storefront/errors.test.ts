import { describe, it, expect, beforeAll, afterAll, afterEach } from 'vitest';
import { Writable } from 'node:stream';
import { ROOT } from '../../engine/codegen.js';
import { loadConfig } from '../../runtime/config.js';
import { createLogger } from '../../runtime/log.js';
import { startServer } from '../../runtime/server.js';
import { plugins } from '../../plugins/index.js';
import { registerPluginVariants } from '../../plugins/web.js';
import { lookup, register } from '../../web/registry.js';
import { sqliteDatabase } from '../helpers/databases.js';

/** a widget component that throws while the server renders: the page fails as a whole (renderToString has no boundaries) */
export const SECRET_FAILURE = 'internal detail: db password hunter2';
const Boom = () => {
  throw new Error(SECRET_FAILURE);
};

/**
 * Spec §2 and §8, issue 13: a page that fails to render answers 500 with the '/500' page drawn from content,
 * or the built-in screen when that fails too (the failed lookup is logged only); the answer carries the error
 * flag the browser recovers from, and never the error's text.
 */
describe('render failures', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let url: string;
  const db = sqliteDatabase();
  const logs: string[] = [];
  const originals = new Map<string, unknown>();
  /** makes the variant throw on the server (the registry is this process's) until afterEach puts it back */
  const breakVariant = (key: string) => {
    const [module, entity, variant] = key.split('/');
    if (!originals.has(key)) originals.set(key, lookup(module!, entity!, variant!));
    register(key, Boom);
  };
  const get = async (path: string) => {
    const res = await fetch(url + path);
    const html = await res.text();
    return { status: res.status, html, data: /<script id="__PAGE__" type="application\/json">([\s\S]*?)<\/script>/.exec(html)?.[1] };
  };

  beforeAll(async () => {
    await registerPluginVariants();
    const sink = new Writable({ write: (chunk, _, done) => (logs.push(String(chunk)), done()) });
    const config = loadConfig({ NODE_ENV: 'test', PORT: '0', DATABASE_URL: db.url, RBAC_SECRET_KEY: 'errors-secret-key-0123', RBAC_JWT_SECRET: 'errors-jwt-secret-0123' });
    server = await startServer({ config, root: ROOT, plugins, web: 'built', seed: true, log: createLogger({ logLevel: 'error' }, sink) });
    url = `http://127.0.0.1:${server.port}`;
  });
  afterEach(() => {
    for (const [key, component] of originals) register(key, component as typeof Boom);
    originals.clear();
    logs.length = 0;
  });
  afterAll(async () => {
    await server?.close();
    await db.drop();
  });

  it("answers 500 with the '/500' page from content, flagged for recovery, without the error's text; the failure is logged", async () => {
    breakVariant('website-builder/widget/content-default');
    const r = await get('/');
    expect(r.status).toBe(500);
    expect(r.html).toContain('Something went wrong');
    expect(r.html).toContain('Please try again in a moment.');
    expect(r.html).toContain('Reload');
    expect(JSON.parse(r.data!).error).toEqual({ status: 500 });
    expect(r.html).not.toContain(SECRET_FAILURE);
    expect(r.html).not.toContain('hunter2');
    expect(logs.some((l) => l.includes('page render failed'))).toBe(true);
    // the page draws again once the widget does
    afterEachRestore();
    expect((await get('/')).status).toBe(200);
  });

  it("when the '/500' page fails too, the built-in screen: message and 'Reload'; the failed lookup is logged only", async () => {
    breakVariant('website-builder/widget/content-default');
    breakVariant('website-builder/widget/content-heading');
    const r = await get('/ru');
    expect(r.status).toBe(500);
    expect(r.html).toContain('<html lang="ru">');
    // in the page's language (the storefront dictionary), and not the '/500' page's own title
    expect(r.html).toContain('Произошла ошибка');
    expect(r.html).toContain('Перезагрузить');
    expect(r.html).not.toContain('Что-то пошло не так');
    expect(JSON.parse(r.data!)).toMatchObject({ error: { status: 500 }, before: [], content: [], after: [] });
    expect(r.html).not.toContain(SECRET_FAILURE);
    expect(logs.some((l) => l.includes("the '/500' page failed"))).toBe(true);
  });

  it('a failed render is not cached: the next visitor gets the page once it draws', async () => {
    // drop the home page an earlier test cached (revalidation drops '/' in every language)
    expect((await fetch(`${url}/api/revalidation/revalidate?path=/`)).status).toBe(200);
    breakVariant('website-builder/widget/content-default');
    expect((await get('/')).status).toBe(500);
    afterEachRestore();
    const r = await get('/');
    expect(r.status).toBe(200);
    expect(r.data && JSON.parse(r.data).error).toBeUndefined();
  });

  function afterEachRestore() {
    for (const [key, component] of originals) register(key, component as typeof Boom);
    originals.clear();
  }
});
