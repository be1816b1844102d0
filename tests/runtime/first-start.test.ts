import { describe, it, expect } from 'vitest';
import { join } from 'node:path';
import { ROOT } from '../../engine/codegen.js';
import { loadConfig } from '../../runtime/config.js';
import { prepare } from '../../runtime/server.js';
import { openDatabase } from '../../runtime/db/index.js';
import { loadGenerated } from '../../runtime/generated.js';
import { Repository } from '../../runtime/crud/repository.js';
import { ensureDefaults, isEmpty } from '../../runtime/seed.js';
import { plugins } from '../../plugins/index.js';
import { DIALECTS } from '../helpers/databases.js';

/**
 * A first start writes the rows every installation needs (roles, permissions), then the demo content, in two
 * transactions. Stopped between them (a SIGKILL, a crash), the next start must still seed: the defaults alone do
 * not make a database 'used'.
 */
for (const d of DIALECTS) {
  describe(`a first start stopped before its seed, on ${d.name}`, { timeout: 120_000 }, () => {
    it('seeds on the next start; a database with content of its own is never seeded again', async () => {
      const db = await d.make();
      const defaults = plugins.flatMap((p) => (p.defaults ? [p.defaults] : []));
      // the first start, up to the point where it was killed: migrated, defaults written, no seed
      const generated = await loadGenerated(join(ROOT, 'generated'));
      const database = openDatabase(db.url, generated.tables);
      await database.migrate(join(ROOT, 'migrations'));
      const repo = new Repository(database, generated.model);
      expect(await ensureDefaults(repo, defaults)).toBeGreaterThan(0);
      expect(await isEmpty(repo)).toBe(false);
      expect(await isEmpty(repo, defaults)).toBe(true);
      await database.close();

      const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: db.url, RBAC_SECRET_KEY: 'first-start-secret-0123', RBAC_JWT_SECRET: 'first-start-jwt-0123456', LOG_LEVEL: 'silent' });
      const next = await prepare({ config, root: ROOT, plugins, seed: true });
      try {
        expect(next.seeded).toBeGreaterThan(100);
        expect(await next.repo.count(next.model.byId['host/page'])).toBeGreaterThan(0);
      } finally {
        await next.database.close();
      }
      // and once seeded, never again
      const again = await prepare({ config, root: ROOT, plugins, seed: true });
      expect(again.seeded).toBe(0);
      await again.database.close();
      await db.drop();
    });
  });
}
