import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { bootApp, type TestApp } from '../helpers/app.js';
import { sqliteDatabase } from '../helpers/databases.js';
import { plugins } from '../../plugins/index.js';
import type { Plugin } from '../../runtime/plugin.js';

const P = '/api/ecommerce/products';

/**
 * A path under an entity's route is the generic item route's only where no other route answers there: a plugin's
 * route (for one method or for all, app.all) keeps its route permissions, while a malformed id is the item route's
 * 400 for everyone.
 */
describe("a plugin's routes under an entity's path keep their route permissions", () => {
  let t: TestApp;
  const extra: Plugin = {
    name: 'extra',
    routes(app) {
      app.all(`${P}/special`, (c) => c.json({ data: 'special' }));
      app.get(`${P}/featured`, (c) => c.json({ data: 'featured' }));
    },
  };
  beforeAll(async () => {
    t = await bootApp(sqliteDatabase(), { plugins: [...plugins, extra] });
  });
  afterAll(() => t?.close());

  it('a visitor is asked to sign in for a declared route, for any method it answers; the system key passes', async () => {
    for (const [method, path] of [['GET', `${P}/special`], ['DELETE', `${P}/special`], ['GET', `${P}/featured`]]) {
      const visitor = await t.call(method, path, undefined, { auth: false });
      expect(visitor.status, `${method} ${path}`).toBe(401);
    }
    expect((await t.call('GET', `${P}/special`)).body).toEqual({ data: 'special' });
    expect((await t.call('GET', `${P}/featured`)).body).toEqual({ data: 'featured' });
  });

  it('any other segment there is the item route: a malformed id is its 400 for everyone', async () => {
    const visitor = await t.call('GET', `${P}/not-a-uuid`, undefined, { auth: false });
    expect(visitor).toMatchObject({ status: 400, body: { message: "id must be a UUID, got 'not-a-uuid'" } });
    // a declared GET does not make the path another method's
    expect((await t.call('DELETE', `${P}/featured`, undefined, { auth: false })).status).toBe(400);
  });
});
