import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootApp, type TestApp } from '../helpers/app.js';
import { DIALECTS } from '../helpers/databases.js';
import { seed } from '../../runtime/seed.js';
import { websiteBuilder } from '../../plugins/website-builder/server/index.js';

const id = (n: number) => `9a000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe.each(DIALECTS)('website-builder seed on $name', ({ make }) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await bootApp(await make());
  });
  afterAll(() => app?.close());

  it('inserts every row through validation', async () => {
    const rows = Object.values(websiteBuilder.seed!).reduce((n, list) => n + list.length, 0);
    expect(await seed(app.repo, [websiteBuilder.seed!])).toBe(rows);
  });

  it('has the widgets the host pages point at, with their variants', async () => {
    const expected: [number, string][] = [[1, 'navbar-default'], [2, 'content-default'], [3, 'content-default'], [4, 'footer-default']];
    for (const [n, variant] of expected) {
      const r = await app.call('GET', `/api/website-builder/widgets/${id(n)}`, undefined, { auth: false });
      expect(r.status).toBe(200);
      expect(r.body.data.variant).toBe(variant);
    }
    const features = await app.call('GET', `/api/website-builder/widgets-to-features?filters[and][0][column]=widgetId&filters[and][0][method]=eq&filters[and][0][value]=${id(3)}`, undefined, { auth: false });
    expect(features.body.data).toHaveLength(3);
  });

  it('gives the hero three full-width banners, each with 1-2 buttons, one to the launch-week article', async () => {
    const s = websiteBuilder.seed!;
    const slides = s['website-builder/slide'];
    expect(slides.map((x) => x.variant)).toEqual(['full-width-banner', 'full-width-banner', 'full-width-banner']);
    for (const slide of slides) {
      const arrays = s['website-builder/slides-to-buttons-arrays'].filter((r) => r.slideId === slide.id).map((r) => r.buttonsArrayId);
      const count = s['website-builder/buttons-arrays-to-buttons'].filter((r) => arrays.includes(r.buttonsArrayId)).length;
      expect(count).toBeGreaterThanOrEqual(1);
      expect(count).toBeLessThanOrEqual(2);
    }
    expect(s['website-builder/button'].some((b) => b.url === '/blog/articles/launch-week' && b.slug === 'hero-launch-story')).toBe(true);
  });
});
