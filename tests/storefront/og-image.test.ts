import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { sqliteDatabase } from '../helpers/databases.js';
import { startTestServer } from '../helpers/browser.js';
import { dimensionsOf } from '../../plugins/file-storage/server/dimensions.js';

const ORIGIN = 'https://shop.example.com';
const meta = (html: string, property: string) => new RegExp(`<meta property="${property}" content="([^"]*)">`).exec(html)?.[1]?.replace(/&amp;/g, '&');

/** a page without its own og:image names its generated one, which is a real 1200 × 630 PNG */
describe('generated OpenGraph images in the page head', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    server = await startTestServer(sqliteDatabase(), { SEED: 'true', PUBLIC_URL: ORIGIN });
  });
  afterAll(async () => server?.close());

  it('a page\'s og:image is its generated image: the page\'s, or that of the row its url names', async () => {
    const home = (await server.api('GET', '/api/host/pages/find-by-url?url=/')).body.data;
    const article = (await server.api('GET', '/api/blog/articles?filters[and][0][column]=slug&filters[and][0][method]=eq&filters[and][0][value]=launch-week')).body.data[0];
    const homeHtml = await (await fetch(`${server.url}/`)).text();
    expect(meta(homeHtml, 'og:image')).toBe(`${ORIGIN}/api/file-storage/files/opengraph-image?entity=host%2Fpage&id=${home.id}&language=en`);
    expect(meta(homeHtml, 'og:image:width')).toBe('1200');
    const ruHtml = await (await fetch(`${server.url}/ru/blog/articles/launch-week`)).text();
    const image = meta(ruHtml, 'og:image')!;
    expect(image).toBe(`${ORIGIN}/api/file-storage/files/opengraph-image?entity=blog%2Farticle&id=${article.id}&language=ru`);
    // what a crawler does: fetch og:image, which answers the picture (from the cache: no file row is made)
    const png = await fetch(server.url + image.slice(ORIGIN.length), { redirect: 'manual' });
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(dimensionsOf(new Uint8Array(await png.arrayBuffer()), 'image/png')).toEqual({ width: 1200, height: 630 });
    const rows = (await server.system('GET', '/api/file-storage/files?filters[and][0][column]=variant&filters[and][0][method]=eq&filters[and][0][value]=generate-template-opengraph-image')).body.data;
    expect(rows).toEqual([]);
  });
});
