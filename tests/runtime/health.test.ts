import { describe, it, expect } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { bootApp } from '../helpers/app.js';

/**
 * GET /api/health asks the database and, with REDIS_URL, Redis: a load balancer takes a process out (503) when its
 * database does not answer, and an operator sees a Redis outage ('degraded'). It always said 200 'ok'.
 */
for (const d of DIALECTS) {
  describe(`the health check on ${d.name}`, { timeout: 60_000 }, () => {
    const health = async (t: Awaited<ReturnType<typeof bootApp>>) => {
      const r = await t.app.request('/api/health');
      return { status: r.status, cache: r.headers.get('cache-control'), body: (await r.json()).data };
    };

    it('ok when the database (and Redis) answer; degraded when Redis does not; 503 when the database does not', async () => {
      const plain = await bootApp(await d.make());
      expect(await health(plain)).toEqual({ status: 200, cache: 'no-store', body: { status: 'ok', dialect: d.name, database: 'ok', redis: 'off' } });
      await plain.close();

      if (process.env.REDIS_URL) {
        const shared = await bootApp(await d.make(), { env: { REDIS_URL: process.env.REDIS_URL } });
        expect((await health(shared)).body).toMatchObject({ status: 'ok', database: 'ok', redis: 'ok' });
        await shared.close();
      }

      // nothing listens on port 1
      const db = await d.make();
      const lost = await bootApp(db, { env: { REDIS_URL: 'redis://127.0.0.1:1' } });
      expect(await health(lost)).toMatchObject({ status: 200, body: { status: 'degraded', database: 'ok', redis: 'down' } });
      // the database gone (its connections closed under the running app)
      await lost.database.close();
      expect(await health(lost)).toMatchObject({ status: 503, cache: 'no-store', body: { status: 'unavailable', database: 'down' } });
      // closed already: only the database itself is left to drop
      await db.drop();
    });
  });
}
