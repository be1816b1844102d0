import { describe, it, expect, afterAll } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { ROOT } from '../../engine/codegen.js';
import { firstLoads, overBudget, precompress, type Manifest } from '../../scripts/web-budget.js';

/** a build manifest shaped like Vite's: two entries sharing a chunk, dynamic imports, CSS */
const manifest: Manifest = {
  'storefront/main.tsx': { file: 'assets/storefront.js', isEntry: true, imports: ['_react.js', '_registry.js'], css: ['assets/web.css'] },
  'admin/index.html': { file: 'assets/admin.js', isEntry: true, imports: ['_react.js', '_admin-lib.js'], dynamicImports: ['admin/dashboard.tsx'] },
  '_react.js': { file: 'assets/react.js' },
  '_registry.js': { file: 'assets/registry.js', imports: ['_react.js'], dynamicImports: ['../plugins/blog/web/index.ts'] },
  '_admin-lib.js': { file: 'assets/admin-lib.js' },
  'admin/dashboard.tsx': { file: 'assets/dashboard.js', imports: ['_react.js'] },
  '../plugins/blog/web/index.ts': { file: 'assets/blog.js', imports: ['_react.js'] },
};
const sizes: Record<string, number> = { 'assets/storefront.js': 5_000, 'assets/react.js': 60_000, 'assets/registry.js': 2_000, 'assets/admin.js': 300_000, 'assets/admin-lib.js': 50_000, 'assets/dashboard.js': 120_000, 'assets/blog.js': 8_000 };

describe('the web build budget', () => {
  it("an app's first load is its entry and its static imports, never a dynamic import or CSS", () => {
    const loads = firstLoads(manifest, (f) => sizes[f]);
    expect(loads.map((l) => l.app)).toEqual(['admin', 'storefront']);
    const store = loads.find((l) => l.app === 'storefront')!;
    expect(store.files.sort()).toEqual(['assets/react.js', 'assets/registry.js', 'assets/storefront.js']);
    expect(store.gzipBytes).toBe(67_000);
    const admin = loads.find((l) => l.app === 'admin')!;
    expect(admin.files.sort()).toEqual(['assets/admin-lib.js', 'assets/admin.js', 'assets/react.js']);
    expect(admin.gzipBytes).toBe(410_000);
  });

  it('fails an app over its budget or without one, and passes one within it', () => {
    const loads = firstLoads(manifest, (f) => sizes[f]);
    expect(overBudget(loads, { firstLoadJsGzipKB: { storefront: 100, admin: 500 } })).toEqual([]);
    const over = overBudget(loads, { firstLoadJsGzipKB: { storefront: 60, admin: 500 } });
    expect(over).toHaveLength(1);
    expect(over[0]).toMatch(/^storefront: first-load JS is 65\.4 kB gzip, over its budget of 60 kB/);
    expect(overBudget(loads, { firstLoadJsGzipKB: { storefront: 100 } })).toEqual(['admin: no budget in web/budget.json (firstLoadJsGzipKB.admin)']);
    // exactly at the budget passes
    expect(overBudget([{ app: 'storefront', files: [], gzipBytes: 100 * 1024 }], { firstLoadJsGzipKB: { storefront: 100 } })).toEqual([]);
  });

  it('the budget in the repository names both apps, the storefront at 100 kB at most', () => {
    const budget = JSON.parse(readFileSync(join(ROOT, 'web', 'budget.json'), 'utf8'));
    expect(budget.firstLoadJsGzipKB.storefront).toBeLessThanOrEqual(100);
    expect(budget.firstLoadJsGzipKB.admin).toBeGreaterThan(0);
  });

  const dir = mkdtempSync(join(ROOT, '.tmp', 'precompress-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  it('writes .br and .gz next to text assets of 1 KB or more, and leaves tiny files and images alone', () => {
    const js = 'export const words = ' + JSON.stringify(Array.from({ length: 400 }, (_, i) => `word-${i}`)) + ';\n';
    writeFileSync(join(dir, 'app.js'), js);
    writeFileSync(join(dir, 'tiny.css'), 'a{color:red}');
    writeFileSync(join(dir, 'photo.png'), Buffer.alloc(4096, 7));
    expect(precompress(dir)).toBe(2);
    expect(brotliDecompressSync(readFileSync(join(dir, 'app.js.br'))).toString()).toBe(js);
    expect(gunzipSync(readFileSync(join(dir, 'app.js.gz'))).toString()).toBe(js);
    for (const f of ['tiny.css.br', 'tiny.css.gz', 'photo.png.br', 'photo.png.gz']) expect(existsSync(join(dir, f))).toBe(false);
  });
});
