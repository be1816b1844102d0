import { describe, it, expect, afterAll, vi } from 'vitest';
import { sqliteDatabase } from '../helpers/databases.js';
import { startTestServer } from '../helpers/browser.js';

/** two instances on one database and one Redis: a change through either drops the pages both cached */
describe.skipIf(!process.env.REDIS_URL && !process.env.CI)('page cache shared through Redis', () => {
  const db = sqliteDatabase();
  const servers: Awaited<ReturnType<typeof startTestServer>>[] = [];
  afterAll(async () => {
    for (const s of servers.reverse()) await s.close();
  });

  it('invalidates on every instance', async () => {
    const env = { SEED: 'true', REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' };
    const a = await startTestServer(db, env);
    servers.push(a);
    const b = await startTestServer({ ...db, drop: async () => undefined }, env);
    servers.push(b);
    const page = async (s: typeof a) => {
      const res = await fetch(s.url + '/');
      return { cache: res.headers.get('x-page-cache'), html: await res.text() };
    };
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
