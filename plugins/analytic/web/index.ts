import { register } from '../../../web/registry.js';
import { MetricWidget } from './metric.js';

/** the analytic module's web variants: a widget that shows one public metric on a page */
export function registerAnalyticWeb() {
  register('analytic/widget/default', MetricWidget);
}
