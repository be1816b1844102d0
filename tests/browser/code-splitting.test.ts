import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../engine/codegen.js';
import { startStorefront, type Storefront } from '../helpers/storefront.js';

type Manifest = Record<string, { file: string; isEntry?: boolean; imports?: string[]; dynamicImports?: string[] }>;

/**
 * The storefront's code in a real browser: a page loads the entry, the chunks it imports, and the chunks of the
 * modules whose widgets it shows — never the admin's code or a module it does not show — and hydrates with them.
 */
describe('storefront code splitting in Chromium', () => {
  let sf: Storefront;
  let server: Storefront['server'];
  const manifest = JSON.parse(readFileSync(join(ROOT, 'web', 'dist', '.vite', 'manifest.json'), 'utf8')) as Manifest;

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

  for (const which of ['home', 'an article'] as const) {
    it(`${which}: loads the entry and the modules it shows, nothing of the admin, and hydrates`, async () => {
      const problems = sf.problems;
      const page = await sf.open({ width: 1280, height: 900 }, which);
      const scripts = new Set<string>();
      page.on('request', (r) => r.resourceType() === 'script' && scripts.add(new URL(r.url()).pathname.slice(1)));
      // an article's url from the sitemap (absolute, PUBLIC_URL): its path
      const sitemap = await (await fetch(`${server.url}/sitemap.xml`)).text();
      const path = which === 'home' ? '/' : new URL(/<loc>([^<]*\/blog\/articles\/[^<]+)<\/loc>/.exec(sitemap)![1]).pathname;
      await page.goto(server.url + path, { waitUntil: 'networkidle' });
      const modules = (await page.evaluate(() => JSON.parse(document.getElementById('__PAGE__')!.textContent!).modules)) as string[];
      expect(modules.length).toBeGreaterThan(0);
      // the page's interactive parts work: it hydrated (the mobile menu button opens the menu)
      await page.setViewportSize({ width: 390, height: 844 });
      await page.getByRole('button', { name: 'Open menu' }).click();
      await page.getByRole('button', { name: 'Close menu' }).first().waitFor({ state: 'visible' });
      const allowed = reach('storefront/main.tsx');
      for (const m of modules) reach(`../plugins/${m}/web/index.ts`, allowed);
      const admin = reach('admin/index.html');
      const adminOnly = [...admin].filter((f) => !allowed.has(f));
      expect([...scripts].filter((f) => !allowed.has(f))).toEqual([]);
      expect([...scripts].filter((f) => adminOnly.includes(f))).toEqual([]);
      for (const m of modules) expect(scripts).toContain(manifest[`../plugins/${m}/web/index.ts`].file);
      expect(problems).toEqual([]);
      await page.close();
    });
  }
});
