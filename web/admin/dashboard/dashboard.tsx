import { useMemo, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Area, AreaChart, Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { http } from '../api.js';
import { Button } from '../../ui/button.js';
import { Skeleton } from '../../ui/skeleton.js';

/** GET /api/analytic/dashboard (plugins/analytic/server/queries.ts) */
export interface DashboardData {
  days: string[];
  views: { total: number[]; pages: { page: string; total: number; series: number[] }[] };
  signUps: number[];
  addToCart: number[];
  checkouts: number[];
  payments: { currency: string; orders: number[]; revenue: number[]; totalOrders: number; totalRevenue: number }[];
}

const RANGES = [7, 30, 90] as const;
const COLORS = ['#2563eb', '#16a34a', '#ea580c', '#9333ea', '#0891b2', '#db2777', '#65a30d', '#ca8a04'];
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
/** DD.MM (spec §9's date display, without the year on an axis) */
const dayLabel = (d: string) => `${d.slice(8, 10)}.${d.slice(5, 7)}`;
const number = (n: number) => new Intl.NumberFormat('en', { maximumFractionDigits: 2 }).format(n);

function Card({ title, subtitle, children }: { title: string; subtitle?: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="rounded-lg border border-slate-200 bg-white p-4">
      <h3 className="font-semibold">{title}</h3>
      {subtitle && <p className="mb-2 text-xs text-slate-500">{subtitle}</p>}
      {children}
    </section>
  );
}

function Chart({ children }: { children: ReactNode }) {
  return (
    <div className="h-64 w-full" data-chart="">
      <ResponsiveContainer width="100%" height="100%">{children as never}</ResponsiveContainer>
    </div>
  );
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4">
      <p className="text-xs uppercase tracking-wide text-slate-500">{label}</p>
      <p className="mt-1 text-2xl font-semibold" data-stat={label}>{value}</p>
    </div>
  );
}

/**
 * The admin's dashboard: page views over time (in all and for the most viewed pages), paid orders and revenue per
 * currency, sign-ups and carts, from the analytic module's daily metrics. Charts are recharts; the numbers refresh
 * when the server says metrics changed (web/admin/live.ts) and every minute.
 */
export default function Dashboard() {
  const [days, setDays] = useState<(typeof RANGES)[number]>(30);
  const q = useQuery({
    queryKey: ['dashboard', days],
    queryFn: () => http.request<DashboardData>('GET', `/api/analytic/dashboard?days=${days}`),
    refetchInterval: 60_000,
  });
  const d = q.data;
  const rows = useMemo(() => {
    if (!d) return [];
    const top = d.views.pages.slice(0, 5);
    return d.days.map((day, i) => ({
      day: dayLabel(day),
      views: d.views.total[i],
      signUps: d.signUps[i],
      addToCart: d.addToCart[i],
      checkouts: d.checkouts[i],
      ...Object.fromEntries(top.map((p) => [`page:${p.page}`, p.series[i]])),
      ...Object.fromEntries(d.payments.flatMap((p) => [[`orders:${p.currency}`, p.orders[i]], [`revenue:${p.currency}`, p.revenue[i]]])),
    }));
  }, [d]);

  return (
    <div className="flex flex-col gap-4" aria-label="Analytics">
      <header className="flex flex-wrap items-center gap-2">
        <h2 className="text-xl font-semibold">Analytics</h2>
        <span className="text-sm text-slate-500">by UTC day</span>
        <div className="ml-auto flex gap-1" role="group" aria-label="Range">
          {RANGES.map((r) => (
            <Button key={r} size="sm" variant={r === days ? 'primary' : 'outline'} aria-pressed={r === days} onClick={() => setDays(r)}>
              {r} days
            </Button>
          ))}
        </div>
      </header>
      {q.isPending ? (
        <div aria-busy="true" aria-label="Loading the dashboard" className="grid gap-4 md:grid-cols-2">
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} className="h-72 w-full" />
          ))}
        </div>
      ) : q.error ? (
        <p role="alert" className="rounded border border-red-200 bg-red-50 p-4 text-red-800">
          {(q.error as Error).message}
        </p>
      ) : (
        d && (
          <>
            <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
              <Stat label="Page views" value={number(sum(d.views.total))} />
              <Stat label="Sign-ups" value={number(sum(d.signUps))} />
              <Stat label="Checkouts" value={number(sum(d.checkouts))} />
              <Stat label="Paid orders" value={number(sum(d.payments.map((p) => p.totalOrders)))} />
            </div>
            <div className="grid gap-4 lg:grid-cols-2">
              <Card title="Views per page" subtitle="all pages, and the five most viewed">
                <Chart>
                  <LineChart data={rows} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
                    <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
                    <XAxis dataKey="day" fontSize={12} />
                    <YAxis allowDecimals={false} fontSize={12} width={40} />
                    <Tooltip />
                    <Legend />
                    <Line isAnimationActive={false} type="monotone" dataKey="views" name="All pages" stroke="#0f172a" strokeWidth={2} dot={false} />
                    {d.views.pages.slice(0, 5).map((p, i) => (
                      <Line isAnimationActive={false} key={p.page} type="monotone" dataKey={`page:${p.page}`} name={p.page} stroke={COLORS[i % COLORS.length]} dot={false} />
                    ))}
                  </LineChart>
                </Chart>
                {d.views.pages.length ? (
                  <table className="mt-3 w-full text-sm">
                    <thead className="text-left text-xs uppercase text-slate-500">
                      <tr>
                        <th className="py-1">Page</th>
                        <th className="py-1 text-right">Views</th>
                      </tr>
                    </thead>
                    <tbody>
                      {d.views.pages.map((p) => (
                        <tr key={p.page} className="border-t border-slate-100">
                          <td className="max-w-xs truncate py-1 font-mono text-xs">{p.page}</td>
                          <td className="py-1 text-right">{number(p.total)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                ) : (
                  <p className="mt-3 text-sm text-slate-500">No page views yet</p>
                )}
              </Card>
              <Card title="Orders per currency" subtitle="paid orders (succeeded payments) per day">
                <Chart>
                  <BarChart data={rows} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
                    <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
                    <XAxis dataKey="day" fontSize={12} />
                    <YAxis allowDecimals={false} fontSize={12} width={40} />
                    <Tooltip />
                    <Legend />
                    {d.payments.map((p, i) => (
                      <Bar isAnimationActive={false} key={p.currency} dataKey={`orders:${p.currency}`} name={p.currency || 'no currency'} stackId="orders" fill={COLORS[i % COLORS.length]} />
                    ))}
                  </BarChart>
                </Chart>
                {!d.payments.length && <p className="text-sm text-slate-500">No paid orders yet</p>}
              </Card>
              <Card title="Revenue per currency" subtitle={d.payments.map((p) => `${p.currency || '—'}: ${number(p.totalRevenue)}`).join(' · ') || 'no revenue yet'}>
                <Chart>
                  <LineChart data={rows} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
                    <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
                    <XAxis dataKey="day" fontSize={12} />
                    <YAxis fontSize={12} width={56} />
                    <Tooltip />
                    <Legend />
                    {d.payments.map((p, i) => (
                      <Line isAnimationActive={false} key={p.currency} type="monotone" dataKey={`revenue:${p.currency}`} name={p.currency || 'no currency'} stroke={COLORS[i % COLORS.length]} strokeWidth={2} dot={false} />
                    ))}
                  </LineChart>
                </Chart>
              </Card>
              <Card title="Sign-ups and carts" subtitle="new subjects, products added to carts, checkouts">
                <Chart>
                  <AreaChart data={rows} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
                    <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" />
                    <XAxis dataKey="day" fontSize={12} />
                    <YAxis allowDecimals={false} fontSize={12} width={40} />
                    <Tooltip />
                    <Legend />
                    <Area isAnimationActive={false} type="monotone" dataKey="signUps" name="Sign-ups" stroke="#2563eb" fill="#bfdbfe" />
                    <Area isAnimationActive={false} type="monotone" dataKey="addToCart" name="Added to cart" stroke="#ea580c" fill="#fed7aa" />
                    <Area isAnimationActive={false} type="monotone" dataKey="checkouts" name="Checkouts" stroke="#16a34a" fill="#bbf7d0" />
                  </AreaChart>
                </Chart>
              </Card>
            </div>
          </>
        )
      )}
    </div>
  );
}
