import { build } from 'vite';
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../engine/codegen.js';

/** builds both web apps and reports what each one loads: its entry with every chunk it imports */
const result = await build({ configFile: join(ROOT, 'web', 'vite.config.ts'), logLevel: 'warn' });
const outputs = (Array.isArray(result) ? result : [result]).flatMap((r) => ('output' in r ? r.output : []));
const chunks = new Map(outputs.filter((o) => o.type === 'chunk').map((o) => [o.fileName, o]));
const size = (file: string) => {
  const bytes = readFileSync(join(ROOT, 'web', 'dist', file));
  return { raw: bytes.length, gzip: gzipSync(bytes).length };
};
const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;
console.log('\nweb bundles (entry + the chunks it imports, JS and CSS):');
for (const o of outputs) {
  if (o.type !== 'chunk' || !o.isEntry) continue;
  const files = new Set<string>();
  const walk = (name: string) => {
    if (files.has(name)) return;
    files.add(name);
    const c = chunks.get(name);
    c?.imports.forEach(walk);
    (c as { viteMetadata?: { importedCss: Set<string> } } | undefined)?.viteMetadata?.importedCss.forEach((css) => files.add(css));
  };
  walk(o.fileName);
  const total = [...files].map(size).reduce((a, b) => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip }), { raw: 0, gzip: 0 });
  console.log(`  ${o.name.padEnd(12)} ${kb(total.raw).padStart(10)}  (${kb(total.gzip)} gzip)  in ${files.size} files`);
}
