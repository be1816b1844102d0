import { registerLazy } from '../../../web/registry.js';

/** the analytic module's web variants: a widget that shows one public metric on a page */
export function registerAnalyticWeb() {
  registerLazy('plugins/analytic/web/metric', () => import('./metric.js'), { 'analytic/widget/default': 'MetricWidget' });
}
