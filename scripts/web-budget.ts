import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';

/**
 * What `npm run build` checks of the web apps: each app's first-load JavaScript (its entry and every chunk the
 * entry imports statically, gzip) against the budget in web/budget.json, and the build-time compression of the
 * built assets (`.br` and `.gz` next to each, which runtime/web.ts serves when the browser accepts them).
 */

/** one chunk of Vite's build manifest (web/dist/.vite/manifest.json) */
export interface ManifestChunk {
  file: string;
  name?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

/** the budget file: KB (1024 bytes) of gzip JavaScript each app's first load may hold */
export interface Budget {
  firstLoadJsGzipKB: Record<string, number>;
}

export interface FirstLoad {
  app: string;
  /** the JS files of the first load: the entry and its static imports, never a dynamic import */
  files: string[];
  gzipBytes: number;
}

/** the app an entry of the manifest is: 'admin/index.html' → 'admin', 'storefront/main.tsx' → 'storefront' */
export const appOf = (key: string) => key.split('/')[0];

/** each entry's first load: the entry chunk and, recursively, the chunks it imports statically (JS only) */
export function firstLoads(manifest: Manifest, gzipSize: (file: string) => number): FirstLoad[] {
  return Object.entries(manifest)
    .filter(([, c]) => c.isEntry)
    .map(([key, entry]) => {
      const files = new Set<string>();
      const walk = (k: string, chunk: ManifestChunk | undefined) => {
        if (!chunk || files.has(chunk.file)) return;
        files.add(chunk.file);
        for (const i of chunk.imports ?? []) walk(i, manifest[i]);
      };
      walk(key, entry);
      const js = [...files].filter((f) => f.endsWith('.js'));
      return { app: appOf(key), files: js, gzipBytes: js.reduce((sum, f) => sum + gzipSize(f), 0) };
    })
    .sort((a, b) => a.app.localeCompare(b.app));
}

/** the budget's verdict: one sentence per app over its budget, or without one (an app must have a budget) */
export function overBudget(loads: FirstLoad[], budget: Budget): string[] {
  const problems: string[] = [];
  for (const l of loads) {
    const limit = budget.firstLoadJsGzipKB[l.app];
    if (limit === undefined) problems.push(`${l.app}: no budget in web/budget.json (firstLoadJsGzipKB.${l.app})`);
    else if (l.gzipBytes > limit * 1024) problems.push(`${l.app}: first-load JS is ${kb(l.gzipBytes)} gzip, over its budget of ${limit} kB (web/budget.json)`);
  }
  return problems;
}

export const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;

export const gzipBytes = (bytes: Uint8Array) => gzipSync(bytes, { level: 9 }).length;

/** the extensions compressed at build time: text formats (images and fonts in woff2 are compressed already) */
const PRECOMPRESSED = new Set(['.js', '.mjs', '.css', '.html', '.json', '.svg', '.txt', '.map', '.xml']);
/** files smaller than this are served as they are (runtime/http/wire.ts's threshold too) */
const MIN_BYTES = 1024;

/**
 * Writes `<file>.br` (quality 11) and `<file>.gz` (level 9) next to every text asset of at least 1 KB under
 * `dir`, keeping only an encoding that is smaller than the file; answers how many files it wrote.
 */
export function precompress(dir: string): number {
  let written = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      written += precompress(path);
      continue;
    }
    if (!PRECOMPRESSED.has(extname(name)) || statSync(path).size < MIN_BYTES) continue;
    const bytes = readFileSync(path);
    const br = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } });
    const gz = gzipSync(bytes, { level: 9 });
    if (br.length < bytes.length) (writeFileSync(`${path}.br`, br), written++);
    if (gz.length < bytes.length) (writeFileSync(`${path}.gz`, gz), written++);
  }
  return written;
}
