import { describe, it, expect, afterAll, vi } from 'vitest';
import { sqliteDatabase } from '../helpers/databases.js';
import { startTestServer, twoInstances } from '../helpers/browser.js';

/** two instances on one database and one Redis: a change through either drops the pages both cached */
describe.skipIf(!process.env.REDIS_URL && !process.env.CI)('page cache shared through Redis', () => {
  const db = sqliteDatabase();
  let instances: Awaited<ReturnType<typeof twoInstances>> | undefined;
  afterAll(async () => instances?.close());

  it('invalidates on every instance', async () => {
    instances = await twoInstances(db, { REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' });
    const { a, b, page } = instances;
    await page(a);
    expect((await page(a)).cache).toBe('hit');
    const article = (await b.api('GET', '/api/blog/articles?filters[and][0][column]=slug&filters[and][0][method]=eq&filters[and][0][value]=launch-week')).body.data[0];
    // give the subscriptions a moment to be in place
    await new Promise((r) => setTimeout(r, 300));
    await b.system('PATCH', `/api/blog/articles/${article.id}`, { data: { title: { en: 'Changed on the other instance' } } });
    await vi.waitFor(async () => {
      const r = await page(a);
      expect(r.html).toContain('Changed on the other instance');
    }, { timeout: 5000, interval: 100 });
    expect((await page(a)).cache).toBe('hit');
    expect((await b.api('GET', '/api/revalidation/revalidate?path=/&type=layout')).status).toBe(200);
    await vi.waitFor(async () => expect((await page(a)).cache).toBe('miss'), { timeout: 5000, interval: 100 });
  });
});

/** two deployments (each its own database) on one Redis keep apart by REDIS_PREFIX: pub/sub ignores database numbers */
describe.skipIf(!process.env.REDIS_URL && !process.env.CI)('deployments sharing a Redis, each with its REDIS_PREFIX', () => {
  const started: { close(): Promise<void> }[] = [];
  afterAll(async () => {
    for (const s of started.reverse()) await s.close();
  });

  it("one deployment's change leaves the other's cached pages alone", async () => {
    const redis = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
    const a = await startTestServer(sqliteDatabase(), { SEED: 'true', REDIS_URL: redis, REDIS_PREFIX: 'deploy-a' });
    started.push(a);
    const b = await startTestServer(sqliteDatabase(), { SEED: 'true', REDIS_URL: redis, REDIS_PREFIX: 'deploy-b' });
    started.push(b);
    const cacheOf = async (url: string) => (await fetch(url + '/')).headers.get('x-page-cache');
    await cacheOf(a.url);
    await cacheOf(b.url);
    expect(await cacheOf(a.url)).toBe('hit');
    await new Promise((r) => setTimeout(r, 300));
    // b drops every page it cached, and says so on its channel
    expect((await b.api('GET', '/api/revalidation/revalidate?path=/&type=layout')).status).toBe(200);
    await vi.waitFor(async () => expect(await cacheOf(b.url)).toBe('miss'), { timeout: 5000, interval: 100 });
    await new Promise((r) => setTimeout(r, 500));
    expect(await cacheOf(a.url)).toBe('hit');
  });
});
