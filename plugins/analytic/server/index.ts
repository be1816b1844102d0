import type { Plugin, PluginContext } from '../../../runtime/plugin.js';
import { seedFile } from '../../../runtime/seed-file.js';
import { Recorder } from './recorder.js';
import { keyEventHooks, pageViews } from './events.js';
import { analyticRoutes } from './queries.js';

export { Recorder, METRICS } from './recorder.js';

export interface AnalyticOptions {
  /** how often counted events are written (default 5 s) */
  flushMs?: number;
}

/** what the analytic module offers the others (`ctx.services.analytics`) */
export interface AnalyticsService {
  /** counts an event (written in the next batch): `record('checkout')`, `record('payment', { value: 12.5, dimension: 'usd' })` */
  record(name: string, options?: { dimension?: string; value?: number; at?: Date }): void;
  /** writes what is counted now (tests, shutdown) */
  flush(): Promise<void>;
}

/**
 * The analytic module: page views and the key events counted in memory and written in batches as daily metrics,
 * the admin dashboard's numbers, and the analytic widget's public value.
 */
export function createAnalyticPlugin(options: AnalyticOptions = {}): Plugin {
  const recorders = new WeakMap<PluginContext, Recorder>();
  const recorderOf = (ctx: PluginContext) => {
    let r = recorders.get(ctx);
    if (!r) {
      const made = new Recorder(ctx);
      recorders.set(ctx, (r = made));
      made.start(options.flushMs ?? 5000);
      // no lifecycle hook in the plugin interface: what is counted is written before the database closes
      const close = ctx.database.close.bind(ctx.database);
      ctx.database.close = async () => {
        await made.stop();
        await close();
      };
    }
    return r;
  };
  return {
    name: 'analytic',
    services: (ctx) => ({ analytics: { record: (name, o) => recorderOf(ctx).record(name, o), flush: () => recorderOf(ctx).flush() } satisfies AnalyticsService }),
    hooks: (ctx) => keyEventHooks(ctx, recorderOf(ctx)),
    routes: (app, ctx) => {
      pageViews(app, recorderOf(ctx), ctx.model.defaultLanguage);
      analyticRoutes(app, ctx);
    },
    defaults: seedFile(new URL('../defaults.json', import.meta.url)),
  };
}

export const analytic = createAnalyticPlugin();
