import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { DIALECTS } from '../helpers/databases.js';
import { bootApp, type TestApp } from '../helpers/app.js';
import { createAnalyticPlugin, Recorder, type AnalyticsService } from '../../plugins/analytic/server/index.js';
import { lastDays } from '../../plugins/analytic/server/queries.js';
import { viewedPage } from '../../plugins/analytic/server/events.js';

type Metric = { name: string; dimension: string; count: number; value: number; recordedAt: string };

for (const d of DIALECTS) {
  describe(`analytics on ${d.name}`, () => {
    let t: TestApp;
    const analytics = () => t.ctx.services.analytics as AnalyticsService;
    const metrics = async (name: string): Promise<Metric[]> => (await t.call('GET', `/api/analytic/metrics?limit=1000&filters[and][0][column]=name&filters[and][0][method]=eq&filters[and][0][value]=${name}`)).body.data;
    const total = async (name: string, field: 'count' | 'value' = 'count', dimension?: string) =>
      (await metrics(name)).filter((m) => dimension === undefined || m.dimension === dimension).reduce((a, m) => a + Number(m[field]), 0);

    beforeAll(async () => {
      // no timer writes during the test: every write below is an explicit flush
      t = await bootApp(await d.make(), { plugins: [createAnalyticPlugin({ flushMs: 3_600_000 })] });
      // a storefront page, as the host module answers one
      t.app.get('/about', (c) => c.html('<!doctype html><p>About</p>'));
      t.app.get('/missing', (c) => c.html('<p>Not found</p>', 404));
    });
    afterAll(async () => t?.close());

    it('a page view is counted in memory, and written in a batch later: the request itself writes nothing', async () => {
      for (let i = 0; i < 3; i++) expect((await t.app.request('/about', { headers: { 'user-agent': 'Mozilla/5.0' } })).status).toBe(200);
      await t.app.request('/about', { headers: { 'user-agent': 'Googlebot/2.1' } });
      await t.app.request('/about', { headers: { 'x-live-refresh': '1' } });
      await t.app.request('/missing');
      await t.app.request('/api/health');
      expect(await metrics('page-view')).toEqual([]);
      await analytics().flush();
      const [row] = await metrics('page-view');
      expect(row).toMatchObject({ dimension: '/about', count: 3, value: 0, period: 'day' });
      expect(row.recordedAt).toBe(`${lastDays(1)[0]}T00:00:00.000Z`);
      await t.app.request('/about');
      await analytics().flush();
      expect(await metrics('page-view')).toEqual([expect.objectContaining({ dimension: '/about', count: 4 })]);
      // one page, however its path is spelt: repeated or trailing slashes, the default language's prefix
      expect([viewedPage('//', 'en'), viewedPage('/en', 'en'), viewedPage('/en/', 'en'), viewedPage('//about//', 'en'), viewedPage('/en/about', 'en'), viewedPage('/ru/about/', 'en'), viewedPage('/enlist', 'en')]).toEqual([
        '/', '/', '/', '/about', '/about', '/ru/about', '/enlist',
      ]);
    });

    it('two processes flushing the same counter at once add up (the database adds, not the process)', async () => {
      const other = new Recorder(t.ctx);
      for (let i = 0; i < 5; i++) analytics().record('custom-clicks', { dimension: 'x', value: 2 });
      for (let i = 0; i < 7; i++) other.record('custom-clicks', { dimension: 'x', value: 1 });
      await Promise.all([analytics().flush(), other.flush()]);
      expect(await metrics('custom-clicks')).toEqual([expect.objectContaining({ count: 12, value: 17 })]);
    });

    it('the key events are counted from the writes that make them: sign-up, add to cart, checkout, payment by currency', async () => {
      // a subject alone (an anonymous session's, a seeded one) is no sign-up; its first identity is, a second one not
      expect((await t.call('POST', '/api/rbac/subjects', { data: {} })).status).toBe(201);
      const subject = (await t.call('POST', '/api/rbac/subjects', { data: {} })).body.data;
      for (const email of ['first@example.com', 'second@example.com']) {
        const identity = (await t.call('POST', '/api/rbac/identities', { data: { email } })).body.data;
        expect((await t.call('POST', '/api/rbac/subjects-to-identities', { data: { subjectId: subject.id, identityId: identity.id } })).status).toBe(201);
      }
      const order = (await t.call('POST', '/api/ecommerce/orders', { data: {} })).body.data;
      const product = (await t.call('POST', '/api/ecommerce/products', { data: {} })).body.data;
      await t.call('POST', '/api/ecommerce/orders-to-products', { data: { orderId: order.id, productId: product.id, quantity: 3 } });
      await t.call('POST', '/api/billing/invoices', { data: {} });
      const usd = (await t.call('POST', '/api/billing/currencies', { data: { slug: 'usd', symbol: '$' } })).body.data;
      const intent = (await t.call('POST', '/api/billing/payment-intents', { data: { amount: 49.5, status: 'pending' } })).body.data;
      await t.call('POST', '/api/billing/payment-intents-to-currencies', { data: { paymentIntentId: intent.id, currencyId: usd.id } });
      await t.call('PATCH', `/api/billing/payment-intents/${intent.id}`, { data: { status: 'succeeded' } });
      await t.call('PATCH', `/api/billing/payment-intents/${intent.id}`, { data: { amount: 49.5, status: 'succeeded' } }); // no second payment
      await analytics().flush();
      expect(await total('sign-up')).toBe(1);
      expect(await total('add-to-cart')).toBe(1);
      expect(await total('add-to-cart', 'value')).toBe(3);
      expect(await total('checkout')).toBe(1);
      expect(await metrics('payment')).toEqual([expect.objectContaining({ dimension: 'usd', count: 1, value: 49.5 })]);
    });

    it('the dashboard: views per day and per page, sign-ups, orders and revenue per currency; admins only', async () => {
      const yesterday = new Date(Date.now() - 86_400_000);
      analytics().record('page-view', { dimension: '/', at: yesterday });
      analytics().record('page-view', { dimension: '/', at: yesterday });
      analytics().record('payment', { dimension: 'eur', value: 10, at: yesterday });
      await analytics().flush();
      expect((await t.call('GET', '/api/analytic/dashboard', undefined, { auth: false })).status).toBe(401);
      for (const days of ['0', '367', '7.5', 'week']) {
        const refused = await t.call('GET', `/api/analytic/dashboard?days=${days}`);
        expect(refused.status, days).toBe(400);
        expect(refused.body.cause, days).toEqual([{ field: 'days', rule: 'range', message: 'days must be an integer from 1 to 366' }]);
      }
      // days= (empty, as a form with the field left blank sends it) is the default 30
      expect((await t.call('GET', '/api/analytic/dashboard?days=')).body.data.days).toHaveLength(30);
      const r = await t.call('GET', '/api/analytic/dashboard?days=7');
      expect(r.status).toBe(200);
      const data = r.body.data;
      expect(data.days).toEqual(lastDays(7));
      expect(data.views.total.slice(-2)).toEqual([2, 4]);
      expect(data.views.pages).toEqual([
        { page: '/about', total: 4, series: [0, 0, 0, 0, 0, 0, 4] },
        { page: '/', total: 2, series: [0, 0, 0, 0, 0, 2, 0] },
      ]);
      expect(data.signUps.at(-1)).toBe(1);
      expect(data.payments).toEqual([
        { currency: 'eur', orders: [0, 0, 0, 0, 0, 1, 0], revenue: [0, 0, 0, 0, 0, 10, 0], totalOrders: 1, totalRevenue: 10 },
        { currency: 'usd', orders: [0, 0, 0, 0, 0, 0, 1], revenue: [0, 0, 0, 0, 0, 0, 49.5], totalOrders: 1, totalRevenue: 49.5 },
      ]);
    });

    it('an analytic widget shows its metric publicly, and only what it was set up to show', async () => {
      const views = (await t.call('POST', '/api/analytic/widgets', { data: { metric: 'page-view', dimension: '/about', days: 7 } })).body.data;
      const revenue = (await t.call('POST', '/api/analytic/widgets', { data: { metric: 'revenue', dimension: 'usd' } })).body.data;
      const v = await t.call('GET', `/api/analytic/widgets/${views.id}/value`, undefined, { auth: false });
      expect(v.status).toBe(200);
      expect(v.body.data).toMatchObject({ metric: 'page-view', dimension: '/about', days: 7, total: 4 });
      expect(v.body.data.series).toHaveLength(7);
      expect((await t.call('GET', `/api/analytic/widgets/${revenue.id}/value`, undefined, { auth: false })).body.data).toMatchObject({ metric: 'revenue', total: 49.5, days: 30 });
      // the metrics themselves stay private
      expect((await t.call('GET', '/api/analytic/metrics', undefined, { auth: false })).status).toBe(401);
      expect((await t.call('GET', '/api/analytic/widgets/00000000-0000-4000-8000-000000000000/value', undefined, { auth: false })).status).toBe(404);
      expect((await t.call('POST', '/api/analytic/widgets', { data: { metric: 'secrets' } })).status).toBe(400);
    });
  });
}
