import { describe, it, expect, beforeAll, afterAll, afterEach, vi } from 'vitest';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { adminInBrowser } from '../helpers/admin.js';
import { SCREENSHOTS } from '../helpers/browser.js';

const shown = (l: Locator) => l.first().waitFor({ state: 'visible', timeout: 20_000 });
const eventually = <T>(fn: () => Promise<T>) => vi.waitFor(fn, { timeout: 20_000, interval: 100 });

const ADMIN = 'services-admin@example.com';
const PASSWORD = 'admin-password';

/** the admin's views of the service modules: agents' run history (and, below, the dashboard and live updates) */
describe('admin: service modules in Chromium', () => {
  let admin: Awaited<ReturnType<typeof adminInBrowser>>;
  let server: Awaited<ReturnType<typeof adminInBrowser>>['server'];
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    admin = await adminInBrowser(ADMIN, PASSWORD);
    ({ server, page } = admin);
    page.on('pageerror', (e) => errors.push(e.message));
    await admin.signIn(20_000);
  });
  afterEach((ctx) => admin?.screenshotIfFailed(ctx));
  afterAll(() => admin?.close());

  it('an agent\'s form shows its runs: none yet, then one started with Run now, with its trigger, status and result', async () => {
    const agents = (await server.system('GET', '/api/agent/agents?filters[and][0][column]=slug&filters[and][0][method]=eq&filters[and][0][value]=check-pending-payment-intents')).body.data;
    const agent = agents[0];
    await page.goto(`${server.url}/admin/agent/agents`);
    const table = page.locator('section[data-entity="agent/agent"]').first();
    const row = table.getByRole('row').filter({ hasText: 'Check pending payment intents' });
    await row.getByRole('button', { name: 'Edit' }).click();
    const runs = page.getByRole('dialog').last().getByRole('region', { name: 'Runs' });
    await shown(runs.getByText('No runs yet'));
    await runs.getByRole('button', { name: 'Run now' }).click();
    await shown(page.getByText('The run succeeded'));
    await shown(runs.locator('tr[data-status="succeeded"]'));
    await eventually(async () => expect(await runs.locator('tbody tr').count()).toBe(1));
    expect(await runs.locator('tbody tr').first().textContent()).toContain('manual');
    expect(await runs.locator('tbody tr').first().textContent()).toContain('"pending":0');
    const stored = (await server.system('GET', `/api/agent/runs?filters[and][0][column]=agentId&filters[and][0][method]=eq&filters[and][0][value]=${agent.id}`)).body.data;
    expect(stored).toHaveLength(1);
    await runs.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SCREENSHOTS, 'admin-agent-runs.png') });
    expect(errors).toEqual([]);
  });

  it('an open table shows a row another client created, with no reload (the live revalidation stream)', async () => {
    await page.goto(`${server.url}/admin/blog/categories`);
    const table = page.locator('section[data-entity="blog/category"]').first();
    await shown(table.getByText('No found items'));
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
    const created = await server.system('POST', '/api/blog/categories', { data: { adminTitle: 'Made elsewhere', slug: 'made-elsewhere' } });
    expect(created.status).toBe(201);
    await shown(table.getByRole('cell', { name: 'Made elsewhere' }));
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);
    expect(errors).toEqual([]);
  });

  it('the dashboard draws its charts: views per page, orders and revenue per currency, sign-ups (screenshot)', async () => {
    const day = (n: number) => new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate()) - n * 86_400_000).toISOString();
    const rows: Record<string, unknown>[] = [];
    let views = 0;
    for (let n = 0; n < 30; n++) {
      const home = 40 + ((n * 17) % 25);
      const blog = 10 + ((n * 7) % 12);
      views += home + blog;
      rows.push({ name: 'page-view', dimension: '/', count: home, recordedAt: day(n) });
      rows.push({ name: 'page-view', dimension: '/blog/articles/launch-week', count: blog, recordedAt: day(n) });
      // today's sign-up is the admin's own registration, already counted by the server
      if (n > 0) rows.push({ name: 'sign-up', dimension: '', count: (n * 3) % 5, recordedAt: day(n) });
      rows.push({ name: 'payment', dimension: 'usd', count: 1 + (n % 4), value: (1 + (n % 4)) * 49.5, recordedAt: day(n) });
      if (n % 2) rows.push({ name: 'payment', dimension: 'eur', count: 1 + (n % 3), value: (1 + (n % 3)) * 39, recordedAt: day(n) });
    }
    const made = await server.system('POST', '/api/analytic/metrics/bulk', { data: rows.map((r) => ({ period: 'day', ...r })) });
    expect(made.status, JSON.stringify(made.body).slice(0, 300)).toBe(201);
    await page.goto(`${server.url}/admin/`);
    const dashboard = page.getByLabel('Analytics', { exact: true });
    await shown(dashboard.getByRole('heading', { name: 'Analytics' }));
    await eventually(async () => expect(await page.locator('[data-chart] .recharts-wrapper').count()).toBe(4));
    await eventually(async () => expect(await page.locator('[data-stat="Page views"]').textContent()).toBe(new Intl.NumberFormat('en').format(views)));
    await shown(page.getByRole('region', { name: 'Views per page' }).getByRole('cell', { name: '/blog/articles/launch-week' }));
    await shown(page.getByRole('region', { name: 'Revenue per currency' }).getByText(/usd: /));
    // lines and bars are drawn, not only axes
    expect(await page.locator('[data-chart] .recharts-line-curve').count()).toBeGreaterThanOrEqual(3);
    expect(await page.locator('[data-chart] .recharts-bar-rectangle').count()).toBeGreaterThan(10);
    await page.screenshot({ path: join(SCREENSHOTS, 'admin-dashboard.png') });
    await page.getByRole('button', { name: '7 days' }).click();
    await eventually(async () => expect(await page.getByRole('button', { name: '7 days' }).getAttribute('aria-pressed')).toBe('true'));
    await eventually(async () => expect(Number((await page.locator('[data-stat="Page views"]').textContent())!.replace(/,/g, ''))).toBeLessThan(views));
    expect(errors).toEqual([]);
  });
});
