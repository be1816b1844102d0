import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { bootApp, type TestApp } from '../helpers/app.js';
import { sqliteDatabase } from '../helpers/databases.js';
import { plugins } from '../../plugins/index.js';

const P = '/api/ecommerce/products';

/**
 * A HEAD is its GET without the body (link checkers, monitors and caches use it): routed and authorized as that GET,
 * for the generic routes and the plugins' own, so it answers the status and headers the GET answers.
 */
describe('HEAD is authorized as its GET', () => {
  let t: TestApp;
  let member: string;
  let other: string;
  let otherId: string;
  const register = async (login: string) => {
    const r = await t.call('POST', '/api/rbac/subjects/authentication/email-and-password/registration', { data: { login, password: 'password123' } }, { auth: false });
    expect(r.status).toBe(201);
    return { token: r.body.data.jwt as string, id: (await t.call('GET', '/api/rbac/subjects/authentication/me', undefined, { token: r.body.data.jwt })).body.data.id as string };
  };
  beforeAll(async () => {
    t = await bootApp(sqliteDatabase(), { plugins });
    await t.call('POST', P, { data: { title: { en: 'Lamp' }, type: 'one_off' } });
    ({ token: member } = await register('head-a@example.com'));
    ({ token: other, id: otherId } = await register('head-b@example.com'));
  });
  afterAll(() => t?.close());

  it('answers what the GET answers, with no body: public lists and items, a plugin route, the health check', async () => {
    const list = await t.call('GET', `${P}?limit=1`, undefined, { auth: false });
    expect(list.status).toBe(200);
    const id = list.body.data[0].id;
    for (const path of [`${P}?limit=1`, `${P}/${id}`, '/api/host/pages/urls', '/api/health']) {
      for (const init of [{ auth: false }, { token: member }]) {
        const get = await t.call('GET', path, undefined, init);
        const head = await t.call('HEAD', path, undefined, init);
        expect(head.status, `HEAD ${path}`).toBe(get.status);
        expect(get.status, `GET ${path}`).toBe(200);
        expect(head.body, `HEAD ${path}`).toBe('');
        expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
        expect(head.headers.get('x-total-count')).toBe(get.headers.get('x-total-count'));
      }
    }
  });

  it('is refused where the GET is: 401 for a visitor, 403 for another account, 404 for no route', async () => {
    const orders = `/api/rbac/subjects/${otherId}/ecommerce-module/orders`;
    expect((await t.call('GET', orders, undefined, { token: member })).status).toBe(403);
    expect((await t.call('HEAD', orders, undefined, { token: member })).status).toBe(403);
    expect((await t.call('HEAD', orders, undefined, { token: other })).status).toBe(200);
    for (const path of ['/api/rbac/sessions', '/api/billing/invoices', orders]) {
      const get = await t.call('GET', path, undefined, { auth: false });
      expect(get.status, `GET ${path}`).toBe(401);
      expect((await t.call('HEAD', path, undefined, { auth: false })).status, `HEAD ${path}`).toBe(401);
    }
    expect((await t.call('HEAD', '/api/no-such/thing/here', undefined, { auth: false })).status).toBe(404);
  });
});
