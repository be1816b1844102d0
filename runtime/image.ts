import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { ReactElement } from 'react';
import satori from 'satori';
import { Resvg } from '@resvg/resvg-js';

type Font = { name: string; data: Buffer; weight: 400 | 700; style: 'normal' };
let fonts: Promise<Font[]> | undefined;

/**
 * Inter from @fontsource/inter (woff: satori reads woff, not woff2), 400 and 700: the latin subset as
 * 'Inter' and the cyrillic one under a name of its own, which satori falls back to for the glyphs latin lacks.
 */
function loadFonts(): Promise<Font[]> {
  const dir = join(dirname(createRequire(import.meta.url).resolve('@fontsource/inter/package.json')), 'files');
  return (fonts ??= Promise.all(
    (['latin', 'cyrillic'] as const).flatMap((subset) =>
      ([400, 700] as const).map(async (weight) => ({ name: subset === 'latin' ? 'Inter' : 'Inter Cyrillic', weight, style: 'normal' as const, data: await readFile(join(dir, `inter-${subset}-${weight}-normal.woff`)) })),
    ),
  ));
}

/**
 * A PNG of a React element, drawn without a browser: satori lays it out into SVG (text as paths, in
 * Inter), @resvg/resvg-js rasterizes it. Satori's CSS subset applies: flexbox, inline styles.
 * @example const png = await renderImage(<div style={{ display: 'flex' }}>Receipt</div>, { width: 1500, height: 1500 });
 */
export async function renderImage(node: ReactElement, opts: { width: number; height: number }): Promise<Buffer> {
  const svg = await satori(node, { width: opts.width, height: opts.height, fonts: await loadFonts() });
  return new Resvg(svg, { fitTo: { mode: 'width', value: opts.width }, font: { loadSystemFonts: false } }).render().asPng();
}
