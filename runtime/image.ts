import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { ReactElement } from 'react';

type Font = { name: string; data: Buffer; weight: 400 | 700; style: 'normal' };
let fonts: Promise<Font[]> | undefined;

/** Inter from @fontsource/inter (woff: satori reads woff, not woff2), latin and cyrillic, regular and bold; read once */
function loadFonts(): Promise<Font[]> {
  const require = createRequire(import.meta.url);
  fonts ??= Promise.all(
    (['latin', 'cyrillic'] as const).flatMap((subset) =>
      ([400, 700] as const).map(async (weight): Promise<Font> => ({
        name: subset === 'latin' ? 'Inter' : 'Inter Cyrillic',
        weight,
        style: 'normal',
        data: await readFile(require.resolve(`@fontsource/inter/files/inter-${subset}-${weight}-normal.woff`)),
      })),
    ),
  );
  return fonts;
}

/**
 * A PNG of a React element, without a browser: satori lays it out to SVG (flexbox, inline styles, the Inter
 * font in latin and cyrillic, 400 and 700), resvg rasterizes it at exactly `width` × `height`.
 * @example const png = await renderImage(<div style={{ display: 'flex' }}>Hello</div>, { width: 1200, height: 630 });
 */
export async function renderImage(node: ReactElement, opts: { width: number; height: number }): Promise<Buffer> {
  // loaded on the first image: satori and resvg are large, and most requests draw none
  const [{ default: satori }, { Resvg }] = await Promise.all([import('satori'), import('@resvg/resvg-js')]);
  const svg = await satori(node, { width: opts.width, height: opts.height, fonts: await loadFonts() });
  return Buffer.from(new Resvg(svg, { fitTo: { mode: 'width', value: opts.width }, font: { loadSystemFonts: false } }).render().asPng());
}
