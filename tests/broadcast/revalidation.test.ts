import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { bootApp, SECRET, type TestApp } from '../helpers/app.js';
import { GENEROUS } from '../helpers/accounts.js';
import { readSse, about } from '../helpers/sse.js';
import { createRbacPlugin } from '../../plugins/rbac/server/index.js';
import { createBroadcastPlugin } from '../../plugins/broadcast/server/index.js';

for (const d of DIALECTS) {
  describe(`live revalidation events on ${d.name}`, () => {
    let t: TestApp;
    const streams: ReturnType<typeof readSse>[] = [];
    /** an event stream as anonymous, as a subject (token) or as the system */
    async function open(as: { token?: string; system?: boolean } = {}) {
      const headers: Record<string, string> = { ...(as.token && { authorization: `Bearer ${as.token}` }), ...(as.system && { 'x-rbac-secret-key': SECRET }) };
      const res = await t.app.request('/api/broadcast/events', { headers });
      if (res.status !== 200) return { status: res.status, stream: undefined };
      expect(res.headers.get('content-type')).toContain('text/event-stream');
      const stream = readSse(res);
      streams.push(stream);
      await stream.waitFor((e) => e.event === 'ready');
      return { status: 200, stream };
    }
    async function subject(login: string) {
      const r = await t.call('POST', '/api/rbac/subjects/authentication/email-and-password/registration', { data: { login, password: 'password123' } }, { auth: false });
      const me = await t.call('GET', '/api/rbac/subjects/authentication/me', undefined, { token: r.body.data.jwt });
      return { jwt: r.body.data.jwt as string, id: me.body.data.id as string };
    }

    beforeAll(async () => {
      t = await bootApp(await d.make(), { plugins: [createRbacPlugin({ limits: GENEROUS }), createBroadcastPlugin({ perAddress: 1000 })] });
    });
    afterAll(async () => {
      for (const s of streams) await s.close();
      await t?.close();
    });

    it('after a committed write every listener hears of it: module, route, operation and ids, never row data', async () => {
      const { stream } = await open();
      const created = (await t.call('POST', '/api/blog/articles', { data: { slug: 'live-news', title: { en: 'Secret-free title' } } })).body.data;
      const e = await stream!.waitFor(about('blog', 'articles', created.id));
      expect(e.data).toEqual({ module: 'blog', route: 'articles', operation: 'create', ids: [created.id] });
      await t.call('PATCH', `/api/blog/articles/${created.id}`, { data: { title: { en: 'Changed' } } });
      await stream!.waitFor((x) => about('blog', 'articles', created.id)(x) && x.data.operation === 'update');
      expect(JSON.stringify(stream!.events)).not.toContain('Changed');
      await t.call('DELETE', `/api/blog/articles/${created.id}`);
      await stream!.waitFor((x) => about('blog', 'articles', created.id)(x) && x.data.operation === 'delete');
      // the rows that went with it by cascade: their entity is named, with no ids
      await stream!.waitFor((x) => x.event === 'revalidate' && x.data.module === 'blog' && x.data.route === 'categories-to-articles' && x.data.operation === 'delete');
    });

    it('a refused write publishes nothing', async () => {
      const { stream } = await open({ system: true });
      const before = stream!.events.length;
      expect((await t.call('POST', '/api/blog/articles', { data: { slug: 'Not A Slug!' } })).status).toBe(400);
      expect((await t.call('POST', '/api/blog/articles', { data: { slug: 'anon-try' } }, { auth: false })).status).toBe(401);
      const marker = (await t.call('POST', '/api/blog/categories', { data: { slug: 'marker-1' } })).body.data;
      await stream!.waitFor(about('blog', 'categories', marker.id));
      expect(stream!.events.slice(before).filter((e) => e.event === 'revalidate' && e.data.route === 'articles')).toEqual([]);
    });

    it('an anonymous visitor never hears of private entities; admins do; a subject hears of its own rows only', async () => {
      const anonymous = (await open()).stream!;
      const admin = (await open({ system: true })).stream!;
      const ann = await subject('ann-live@example.com');
      const bob = await subject('bob-live@example.com');
      const annStream = (await open({ token: ann.jwt })).stream!;
      const bobStream = (await open({ token: bob.jwt })).stream!;
      // a private entity no subject owns, and a private order owned by Ann through rbac/subjects-to-ecommerce-module-orders
      const request = (await t.call('POST', '/api/crm/requests', { data: { payload: { note: 'private' } } })).body.data;
      const order = (await t.call('POST', '/api/ecommerce/orders', { data: {} })).body.data;
      await t.call('POST', '/api/rbac/subjects-to-ecommerce-module-orders', { data: { subjectId: ann.id, ecommerceModuleOrderId: order.id } });
      await t.call('PATCH', `/api/ecommerce/orders/${order.id}`, { data: { comment: 'ring twice' } });
      const marker = (await t.call('POST', '/api/blog/categories', { data: { slug: 'marker-2' } })).body.data;
      for (const s of [anonymous, admin, annStream, bobStream]) await s.waitFor(about('blog', 'categories', marker.id));
      await admin.waitFor(about('crm', 'requests', request.id));
      await admin.waitFor(about('ecommerce', 'orders', order.id));
      await annStream.waitFor((e) => about('ecommerce', 'orders', order.id)(e) && e.data.operation === 'update');
      const privateIds = [request.id, order.id];
      // events are delivered in order: by the time the public marker arrived, a private one would have too
      for (const s of [anonymous, bobStream]) expect(JSON.stringify(s.events)).not.toMatch(new RegExp(privateIds.join('|')));
      expect(JSON.stringify(annStream.events)).not.toContain(request.id);
      // nothing of any private entity reached them (their own rows aside, and they wrote none)
      const privateRoutes = new Set(t.ctx.model.entities.filter((e) => e.access !== 'public').map((e) => `${e.module}/${e.route}`));
      for (const s of [anonymous, bobStream]) expect(s.events.filter((e) => e.event === 'revalidate' && privateRoutes.has(`${e.data.module}/${e.data.route}`))).toEqual([]);
      expect(admin.events.some((e) => e.event === 'revalidate' && e.data.route === 'subjects-to-ecommerce-module-orders')).toBe(true);
    });

    it('open streams per client address are bounded', async () => {
      const small = await bootApp(await d.make(), { plugins: [createBroadcastPlugin({ perAddress: 2 })] });
      const held: ReturnType<typeof readSse>[] = [];
      try {
        for (let i = 0; i < 2; i++) {
          const res = await small.app.request('/api/broadcast/events');
          expect(res.status).toBe(200);
          held.push(readSse(res));
        }
        for (const s of held) await s.waitFor((e) => e.event === 'ready');
        const third = await small.app.request('/api/broadcast/events');
        expect(third.status).toBe(429);
        await held[0].close();
        await (async () => {
          for (;;) {
            const again = await small.app.request('/api/broadcast/events');
            if (again.status === 200) return held.push(readSse(again));
            await new Promise((r) => setTimeout(r, 20));
          }
        })();
      } finally {
        for (const s of held) await s.close();
        await small.close();
      }
    });
  });
}
