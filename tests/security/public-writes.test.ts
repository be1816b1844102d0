import { describe, it, expect, beforeAll, afterAll, vi } from 'vitest';
import { DIALECTS, sqliteDatabase } from '../helpers/databases.js';
import { bootApp, type TestApp } from '../helpers/app.js';
import { GENEROUS } from '../helpers/accounts.js';
import { startTestServer } from '../helpers/browser.js';
import { notification } from '../../plugins/notification/server/index.js';
import { createRbacPlugin } from '../../plugins/rbac/server/index.js';
import { createCrmPlugin } from '../../plugins/crm/server/index.js';
import { DEFAULT_REVALIDATE_LIMIT } from '../../plugins/host/server/index.js';

/**
 * Finding 14 (security trial 2026-11-23): 40 anonymous form posts gave 40 × 201, each mailing every admin;
 * any Authorization header or a junk session cookie skipped the page cache; an anonymous
 * `GET /api/revalidation/revalidate?path=/&type=layout` emptied the whole cache.
 */
for (const d of DIALECTS) {
  describe(`finding 14: the public form is limited per client address on ${d.name}`, () => {
    let t: TestApp;
    let formId: string;
    beforeAll(async () => {
      t = await bootApp(await d.make(), {
        plugins: [notification, createRbacPlugin({ limits: GENEROUS }), createCrmPlugin({ formLimit: { points: 3, duration: 60 } })],
        env: { ADMIN_EMAILS: 'boss@example.com,sales@example.com', TRUST_PROXY: 'true' },
      });
      formId = (await t.call('POST', '/api/crm/forms', { data: { slug: 'limited-form' } })).body.data.id;
      const input = (await t.call('POST', '/api/crm/inputs', { data: { slug: 'limited-name', name: 'name' } })).body.data;
      await t.call('POST', '/api/crm/forms-to-inputs', { data: { formId, inputId: input.id } });
    });
    afterAll(async () => t?.close());

    const send = (from: string, body: unknown = { data: { name: 'Visitor' } }) =>
      t.call('POST', `/api/crm/forms/${formId}/requests`, body, { auth: false, headers: { 'x-forwarded-for': from } });
    const count = async (path: string) => (await t.call('GET', `${path}/count`)).body.data as number;

    it('finding 14: the 4th post from one address is a 429 with Retry-After; nothing more is stored or mailed', async () => {
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await send('10.14.0.1')).status);
      expect(statuses).toEqual([201, 201, 201]);
      // three posts, two admins: six emails
      await vi.waitFor(async () => expect(await count('/api/notification/notifications')).toBe(6), { timeout: 15_000, interval: 50 });
      const limited = await send('10.14.0.1');
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      // the limit comes before the body is parsed: a body that is not even JSON is a 429 too
      expect((await send('10.14.0.1', '{not json')).status).toBe(429);
      expect(await count('/api/crm/requests')).toBe(3);
      // another address is not held back
      expect((await send('10.14.0.2')).status).toBe(201);
      await vi.waitFor(async () => expect(await count('/api/notification/notifications')).toBe(8), { timeout: 15_000, interval: 50 });
      expect(await count('/api/crm/requests')).toBe(4);
    });
  });
}

describe('finding 14: the page cache and revalidation', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  const get = async (path: string, headers: Record<string, string> = {}) => (await fetch(server.url + path, { headers })).headers.get('x-page-cache');
  const revalidate = async (query: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${server.url}/api/revalidation/revalidate?${query}`, { headers });
    return { status: res.status, body: await res.json(), retryAfter: res.headers.get('retry-after') };
  };
  beforeAll(async () => {
    server = await startTestServer(sqliteDatabase(), { SEED: 'true', TRUST_PROXY: 'true' });
  });
  afterAll(async () => server?.close());

  it('finding 14: no header or cookie skips the page cache, a made-up one or a signed session alike', async () => {
    await get('/');
    expect(await get('/')).toBe('hit');
    expect(await get('/', { authorization: 'Bearer junk' })).toBe('hit');
    expect(await get('/', { cookie: 'rbac.subject.jwt=junk' })).toBe('hit');
    // a token signed with another key is a visitor too
    const forged = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjMiLCJzaWQiOiIxMjMifQ.c2lnbmF0dXJl';
    expect(await get('/', { authorization: `Bearer ${forged}` })).toBe('hit');
    const reg = await server.api('POST', '/api/rbac/subjects/authentication/email-and-password/registration', { data: { login: 'cache@example.com', password: 'password123' } });
    expect(await get('/', { cookie: `rbac.subject.jwt=${reg.body.data.jwt}` })).toBe('hit');
    expect(await get('/', { authorization: `Bearer ${reg.body.data.jwt}` })).toBe('hit');
  });

  it('finding 14: an anonymous layout revalidation drops the named page only; the system may drop a subtree', async () => {
    const from = { 'x-forwarded-for': '10.14.1.1' };
    await get('/');
    await get('/blog/articles/launch-week');
    expect(await get('/')).toBe('hit');
    expect(await get('/blog/articles/launch-week')).toBe('hit');
    const anonymous = await revalidate('path=/&type=layout', from);
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.data).toEqual({ revalidated: true, path: '/', type: 'page' });
    expect(await get('/blog/articles/launch-week')).toBe('hit');
    expect(await get('/')).toBe('miss');
    const system = await revalidate('path=/&type=layout', { ...from, 'x-rbac-secret-key': 'browser-secret-key-0123' });
    expect(system.body.data.type).toBe('layout');
    expect(await get('/blog/articles/launch-week')).toBe('miss');
  });

  it('every page that read an entity (tag=<module>/<entity>) is the system\'s and admins\' to drop: a visitor or a member is refused and no page goes', async () => {
    const from = { 'x-forwarded-for': '10.14.3.3' };
    await get('/blog/articles/launch-week');
    expect(await get('/blog/articles/launch-week')).toBe('hit');
    const visitor = await revalidate('tag=blog/article', from);
    expect(visitor.status).toBe(401);
    expect(visitor.body.message).toContain('name a page path');
    const reg = await server.api('POST', '/api/rbac/subjects/authentication/email-and-password/registration', { data: { login: 'tagger@example.com', password: 'password123' } });
    expect((await revalidate('tag=blog.articles', { ...from, authorization: `Bearer ${reg.body.data.jwt}` })).status).toBe(403);
    expect(await get('/blog/articles/launch-week')).toBe('hit');
    // a page path is anyone's to name
    expect((await revalidate('tag=/blog/articles/launch-week', from)).body.data).toMatchObject({ revalidated: true, type: 'page' });
    expect(await get('/blog/articles/launch-week')).toBe('miss');
    const system = await revalidate('tag=blog/article', { ...from, 'x-rbac-secret-key': 'browser-secret-key-0123' });
    expect(system.body.data).toMatchObject({ revalidated: true, entity: 'blog/article' });
    expect(await get('/blog/articles/launch-week')).toBe('miss');
  });

  it('finding 14: revalidation is limited per client address', async () => {
    const from = { 'x-forwarded-for': '10.14.2.2' };
    const statuses = [];
    for (let i = 0; i < DEFAULT_REVALIDATE_LIMIT.points; i++) statuses.push((await revalidate('path=/', from)).status);
    expect(statuses).toEqual(Array(DEFAULT_REVALIDATE_LIMIT.points).fill(200));
    const limited = await revalidate('path=/', from);
    expect(limited.status).toBe(429);
    expect(Number(limited.retryAfter)).toBeGreaterThan(0);
    expect((await revalidate('path=/', { 'x-forwarded-for': '10.14.2.3' })).status).toBe(200);
    // the system at that address is not held back by what visitors there asked
    const system = await revalidate('tag=blog/article', { ...from, 'x-rbac-secret-key': 'browser-secret-key-0123' });
    expect(system.status).toBe(200);
    expect((await revalidate('path=/', from)).status).toBe(429);
  });
});
