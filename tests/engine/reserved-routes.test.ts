import { describe, it, expect } from 'vitest';
import { RESERVED_ROUTES, reservedModule } from '../../engine/reserved.js';
import { plugins } from '../../plugins/index.js';
import { sqliteDatabase } from '../helpers/databases.js';
import { bootApp } from '../helpers/app.js';

/**
 * engine/reserved.ts is the one list of paths no manifest may take. Every route the app and the plugins register
 * beside the generic CRUD routes must be covered by it, so that a new plugin route cannot be shadowed unnoticed.
 */
describe('reserved routes', () => {
  it('cover every route the app and the plugins serve outside the generic CRUD routes', async () => {
    const t = await bootApp(sqliteDatabase(), { plugins });
    try {
      const byRoute = new Map(t.model.entities.map((e) => [`${e.module}/${e.route}`, e.id]));
      const uncovered: string[] = [];
      for (const r of t.app.routes) {
        if (r.method === 'ALL' || r.path.startsWith('/api/:module/:route')) continue; // middleware, generic CRUD
        const [first, second, third] = r.path.split('/').filter(Boolean);
        // pages beside /api (a provider's payment page) cannot collide with an entity, which lives under /api
        if (first !== 'api' && !['admin', 'assets', 'files'].includes(first ?? '')) continue;
        const module = first === 'api' ? second : first;
        if (!module || module === '*') continue;
        if (reservedModule(module)) continue;
        const entry = RESERVED_ROUTES.find((x) => x.path === `/api/${module}/${third}`);
        if (first === 'api' && entry && entry.entity === byRoute.get(`${module}/${third}`)) continue;
        uncovered.push(`${r.method} ${r.path}`);
      }
      expect(uncovered, 'add these to engine/reserved.ts').toEqual([]);
      // and the list names entities that exist
      for (const x of RESERVED_ROUTES.filter((r) => r.entity)) expect(t.model.byId[x.entity!], x.path).toBeDefined();
    } finally {
      await t.close();
    }
  });
});
