import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { ROOT } from '../../engine/codegen.js';
import { startStorefront, type Storefront } from '../helpers/storefront.js';
import { declarePluginVariants } from '../../plugins/web.js';
import { declaredChunks } from '../../web/registry.js';
import type { Block, PageData } from '../../web/storefront/page.js';

type Manifest = Record<string, { file: string; isEntry?: boolean; isDynamicEntry?: boolean; imports?: string[]; dynamicImports?: string[] }>;

/**
 * The storefront's code in a real browser: a page loads the entry, the chunks it imports, and the chunks of the
 * variants it shows — one file of variants each (web/registry's registerLazy), never the admin's code, another
 * module's or another variant's of the same module — all of them preloaded by the head, and hydrates with them.
 */
describe('storefront code splitting in Chromium', () => {
  let sf: Storefront;
  let server: Storefront['server'];
  const manifest = JSON.parse(readFileSync(join(ROOT, 'web', 'dist', '.vite', 'manifest.json'), 'utf8')) as Manifest;
  // what the modules declare (names only: nothing is loaded in this process)
  declarePluginVariants();
  const declared = declaredChunks();
  const chunkOf = (key: string) => declared.find((c) => c.keys.includes(key))?.name;
  /** a chunk's key in Vite's manifest: its source relative to web/ (the name is its path from the root, without the extension) */
  const keyOf = (chunk: string) => Object.keys(manifest).find((k) => manifest[k].isDynamicEntry && posix.join('web', k).replace(/\.[cm]?[jt]sx?$/, '') === chunk);
  const fileOf = (chunk: string) => manifest[keyOf(chunk)!].file;

  beforeAll(async () => {
    sf = await startStorefront('code-splitting');
    server = sf.server;
  });
  afterAll(async () => sf?.close());

  /** every chunk a manifest entry reaches through static imports */
  const reach = (key: string, into = new Set<string>()) => {
    const c = manifest[key];
    if (!c || into.has(c.file)) return into;
    into.add(c.file);
    c.imports?.forEach((i) => reach(i, into));
    return into;
  };

  it('every file of variants the modules declare is a chunk of its own in the build, which the server can name', () => {
    expect(declared.length).toBeGreaterThan(30);
    for (const c of declared) expect(keyOf(c.name), c.name).toBeDefined();
    // the blog's widgets are not one chunk: the latest articles and the article list are files apart
    expect(fileOf(chunkOf('blog/widget/article-list-latest-default')!)).not.toBe(fileOf(chunkOf('blog/widget/article-list-default')!));
  });

  const pages = {
    home: async () => '/',
    'an article': async () => {
      // an article's url from the sitemap (absolute, PUBLIC_URL): its path
      const sitemap = await (await fetch(`${server.url}/sitemap.xml`)).text();
      return new URL(/<loc>([^<]*\/blog\/articles\/[^<]+)<\/loc>/.exec(sitemap)![1]).pathname;
    },
    'the blog': async () => '/blog',
  };
  for (const [which, pathOf] of Object.entries(pages)) {
    it(`${which}: loads the entry and the chunks of the variants it shows, all preloaded by the head, nothing of the admin, and hydrates`, async () => {
      const problems = sf.problems;
      const path = await pathOf();
      // the head as the server sent it: the browser adds preloads of its own once scripts run
      const html = await (await fetch(server.url + path)).text();
      const head = html.slice(0, html.indexOf('</head>'));
      const preloaded = new Set([...head.matchAll(/<link rel="modulepreload" href="\/([^"]+)">/g)].map((m) => m[1]));
      const page = await sf.open({ width: 1280, height: 900 }, which);
      const scripts = new Set<string>();
      page.on('request', (r) => r.resourceType() === 'script' && scripts.add(new URL(r.url()).pathname.slice(1)));
      await page.goto(server.url + path, { waitUntil: 'networkidle' });
      const data = (await page.evaluate(() => JSON.parse(document.getElementById('__PAGE__')!.textContent!))) as PageData;
      const chunks = data.chunks ?? [];
      expect(chunks.length).toBeGreaterThan(0);
      // the page's interactive parts work: it hydrated (the mobile menu button opens the menu)
      await page.setViewportSize({ width: 390, height: 844 });
      await page.getByRole('button', { name: 'Open menu' }).click();
      await page.getByRole('button', { name: 'Close menu' }).first().waitFor({ state: 'visible' });

      const entry = manifest['storefront/main.tsx'].file;
      const allowed = reach('storefront/main.tsx');
      for (const c of chunks) reach(keyOf(c)!, allowed);
      const admin = reach('admin/index.html');
      const adminOnly = [...admin].filter((f) => !allowed.has(f));
      expect([...scripts].filter((f) => !allowed.has(f))).toEqual([]);
      expect([...scripts].filter((f) => adminOnly.includes(f))).toEqual([]);
      for (const c of chunks) expect(scripts).toContain(fileOf(c));
      // no waterfall: every script the page ran was in the head, the entry's script or a modulepreload
      expect([...scripts].filter((f) => f !== entry && !preloaded.has(f))).toEqual([]);
      // what the page shows and no other variant: a blog widget's chunk is the file of its variant alone
      const blocks: Block[] = [...data.before, ...data.content, ...data.after];
      const blogChunks = new Set(blocks.filter((b) => b.module === 'blog').map((b) => chunkOf(`blog/widget/${b.widget.variant}`)!));
      expect(chunks.filter((c) => c.startsWith('plugins/blog/')).sort()).toEqual([...blogChunks].sort());
      const unseen = declared.filter((c) => !chunks.includes(c.name) && !allowed.has(fileOf(c.name)));
      expect(unseen.length).toBeGreaterThan(declared.length / 2);
      for (const c of unseen) expect(scripts, c.name).not.toContain(fileOf(c.name));
      if (which === 'home') {
        // the home page shows the latest articles and no other blog widget: it fetches that file and not the list's
        expect(chunks).toContain('plugins/blog/web/latest');
        for (const other of ['plugins/blog/web/articles', 'plugins/blog/web/categories', 'plugins/blog/web/private-article']) {
          expect(chunks).not.toContain(other);
          expect(scripts, other).not.toContain(fileOf(other));
        }
      }
      if (which === 'an article') {
        expect(chunks).toContain('plugins/blog/web/articles');
        expect(scripts).not.toContain(fileOf('plugins/blog/web/latest'));
      }
      expect(problems).toEqual([]);
      await page.close();
    });
  }
});
