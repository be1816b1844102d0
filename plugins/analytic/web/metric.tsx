import { useEffect, useState } from 'react';
import { Section, SectionHeader } from '../../../web/storefront/blocks.js';
import { usePage, type Expanded } from '../../../web/storefront/context.js';
import { Skeleton } from '../../../web/ui/skeleton.js';
import { useWords } from '../../../web/storefront/words.js';
import { useAnalyticWords } from './words.js';

export interface MetricValue {
  metric: string;
  dimension: string | null;
  days: number;
  total: number;
  series: { day: string; value: number }[];
}

const METRICS = ['page-view', 'sign-up', 'add-to-cart', 'checkout', 'payment', 'revenue'] as const;
const isMetric = (m: string): m is (typeof METRICS)[number] => (METRICS as readonly string[]).includes(m);

/**
 * analytic/widget 'default': the one metric the widget was set up with (its total over its days, and a small
 * bar per day), fetched in the browser from the widget's public value route — the page's HTML stays the same
 * for every visitor and the page cache keeps it.
 */
export function MetricWidget({ row }: { row: Expanded }) {
  const page = usePage();
  const w = useAnalyticWords();
  const sw = useWords();
  const [value, setValue] = useState<MetricValue | null | undefined>(undefined);
  useEffect(() => {
    let live = true;
    fetch(`/api/analytic/widgets/${row.id}/value`, { credentials: 'same-origin' })
      .then((r) => (r.ok ? (r.json() as Promise<{ data: MetricValue }>) : Promise.reject(new Error(String(r.status)))))
      .then((b) => live && setValue(b.data))
      .catch(() => live && setValue(null));
    return () => {
      live = false;
    };
  }, [row.id]);
  const metric = String(row.metric ?? 'page-view');
  const max = Math.max(1, ...(value?.series.map((s) => s.value) ?? [1]));
  return (
    <Section row={row}>
      <SectionHeader row={row} />
      <div className="mt-6 inline-flex flex-col rounded-xl border border-slate-200 bg-white p-6 shadow-sm" aria-live="polite">
        {value === undefined ? (
          <Skeleton className="h-12 w-40" aria-label={sw('loading')} />
        ) : value === null ? (
          <span className="text-slate-500">—</span>
        ) : (
          <>
            <span className="text-4xl font-semibold tabular-nums" data-metric-total="">
              {new Intl.NumberFormat(page.language, { maximumFractionDigits: 2 }).format(value.total)}
            </span>
            <span className="mt-1 text-sm text-slate-600">
              {isMetric(metric) ? w(metric) : metric} {w('days', { n: value.days })}
            </span>
            <div className="mt-4 flex h-10 items-end gap-px" aria-hidden>
              {value.series.slice(-30).map((s) => (
                <span key={s.day} className="w-1.5 rounded-sm bg-blue-500" style={{ height: `${Math.max(4, (s.value / max) * 100)}%`, opacity: s.value ? 1 : 0.25 }} title={`${s.day}: ${s.value}`} />
              ))}
            </div>
          </>
        )}
      </div>
    </Section>
  );
}
