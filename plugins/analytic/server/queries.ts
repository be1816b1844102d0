import type { Context, Hono } from 'hono';
import { and, eq, gte, inArray } from 'drizzle-orm';
import { UUID_RE } from '../../../engine/fields/index.js';
import { HttpError, badRequest } from '../../../runtime/http/errors.js';
import { readQuery } from '../../../runtime/http/query-params.js';
import type { PluginContext } from '../../../runtime/plugin.js';
import { dayOf } from './recorder.js';

type Metric = { name: string; dimension: string; count: number; value: number; recordedAt: Date };

/** the metric a widget shows: its stored name and whether the count or the summed value is shown */
const WIDGET_METRICS: Record<string, { name: string; field: 'count' | 'value' }> = {
  'page-view': { name: 'page-view', field: 'count' },
  'sign-up': { name: 'sign-up', field: 'count' },
  'add-to-cart': { name: 'add-to-cart', field: 'count' },
  checkout: { name: 'checkout', field: 'count' },
  payment: { name: 'payment', field: 'count' },
  revenue: { name: 'payment', field: 'value' },
};

const DAY = 86_400_000;
/** the last `n` UTC days, oldest first, as YYYY-MM-DD */
export const lastDays = (n: number, now = new Date()) => Array.from({ length: n }, (_, i) => new Date(dayOf(now).getTime() - (n - 1 - i) * DAY).toISOString().slice(0, 10));

async function metricsSince(ctx: PluginContext, names: string[], since: string, dimension?: string): Promise<Metric[]> {
  const t = ctx.database.tables['analytic/metric'];
  const rows = await ctx.database.db
    .select({ name: t.name, dimension: t.dimension, count: t.count, value: t.value, recordedAt: t.recordedAt })
    .from(t)
    .where(and(inArray(t.name, names), gte(t.recordedAt, new Date(`${since}T00:00:00Z`)), dimension ? eq(t.dimension, dimension) : undefined));
  return rows.map((r: Metric) => ({ ...r, count: Number(r.count), value: Number(r.value) }));
}

/** per day of `days`, the sum of `pick` over the rows that match */
function series(days: string[], rows: Metric[], pick: (r: Metric) => number, match: (r: Metric) => boolean = () => true) {
  const at = new Map(days.map((d, i) => [d, i]));
  const out = days.map(() => 0);
  for (const r of rows) {
    const i = at.get(new Date(r.recordedAt).toISOString().slice(0, 10));
    if (i !== undefined && match(r)) out[i] += pick(r);
  }
  return out;
}
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

async function requirePermission(ctx: PluginContext, c: Context) {
  if (await ctx.permits(c, 'GET', c.req.path)) return;
  throw new HttpError((await ctx.caller(c)).kind === 'anonymous' ? 401 : 403, 'Not authorized');
}

/**
 * GET /api/analytic/dashboard?days=30 (admins): the admin dashboard's numbers per UTC day — page views in all and
 * for the ten most viewed pages, sign-ups, products added to carts, checkouts, and per currency the paid orders
 * and their revenue.
 * GET /api/analytic/widgets/{id}/value (public): what an analytic widget on a page shows — its metric's total and
 * daily series over its days, and nothing else.
 */
export function analyticRoutes(app: Hono, ctx: PluginContext) {
  app.get('/api/analytic/dashboard', async (c) => {
    await requirePermission(ctx, c);
    // days= (empty, a form's blank field) is the default, like no days at all
    const n = readQuery(c.req.query(), { days: { kind: 'int', min: 1, max: 366, fallback: 30 } }).days;
    const days = lastDays(n);
    const rows = await metricsSince(ctx, ['page-view', 'sign-up', 'add-to-cart', 'checkout', 'payment'], days[0]);
    const of = (name: string) => rows.filter((r) => r.name === name);
    const views = of('page-view');
    const byPage = new Map<string, number>();
    for (const r of views) byPage.set(r.dimension, (byPage.get(r.dimension) ?? 0) + r.count);
    const pages = [...byPage.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 10);
    const payments = of('payment');
    const currencies = [...new Set(payments.map((r) => r.dimension))].sort();
    return c.json({
      data: {
        days,
        views: {
          total: series(days, views, (r) => r.count),
          pages: pages.map(([page, total]) => ({ page, total, series: series(days, views, (r) => r.count, (r) => r.dimension === page) })),
        },
        signUps: series(days, of('sign-up'), (r) => r.count),
        addToCart: series(days, of('add-to-cart'), (r) => r.count),
        checkouts: series(days, of('checkout'), (r) => r.count),
        payments: currencies.map((currency) => {
          const orders = series(days, payments, (r) => r.count, (r) => r.dimension === currency);
          const revenue = series(days, payments, (r) => r.value, (r) => r.dimension === currency);
          return { currency, orders, revenue, totalOrders: sum(orders), totalRevenue: sum(revenue) };
        }),
      },
    });
  });

  app.get('/api/analytic/widgets/:id/value', async (c) => {
    const id = (c.req.param('id') ?? '').toLowerCase();
    if (!UUID_RE.test(id)) throw badRequest('id must be a UUID', [{ field: 'id', rule: 'format', message: 'id must be a UUID' }]);
    const widget = await ctx.repo.getOrThrow(ctx.model.byId['analytic/widget'], id);
    const metric = WIDGET_METRICS[String(widget.metric)] ?? WIDGET_METRICS['page-view'];
    const days = lastDays(Math.min(365, Math.max(1, Number(widget.days ?? 30))));
    const dimension = typeof widget.dimension === 'string' && widget.dimension ? widget.dimension : undefined;
    const rows = await metricsSince(ctx, [metric.name], days[0], dimension);
    const daily = series(days, rows, (r) => r[metric.field]);
    c.header('cache-control', 'public, max-age=60');
    return c.json({ data: { metric: widget.metric, dimension: dimension ?? null, days: days.length, total: sum(daily), series: days.map((day, i) => ({ day, value: daily[i] })) } });
  });
}
