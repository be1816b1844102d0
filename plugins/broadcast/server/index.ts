import type { Plugin, PluginContext } from '../../../runtime/plugin.js';
import { seedFile } from '../../../runtime/seed-file.js';
import { createEventBus, type EventBus } from '../../../runtime/events.js';
import { eventsOf, type RevalidationEvent } from './revalidation.js';
import { eventStreamRoute, type StreamOptions } from './stream.js';

export type { RevalidationEvent } from './revalidation.js';

export interface BroadcastOptions extends StreamOptions {
  /** the Redis channel the processes share (default 'revalidation') */
  channel?: string;
}

/** what the broadcast module offers the others (`ctx.services.broadcast`) */
export interface BroadcastService {
  /** every committed write, in this process and (with REDIS_URL) every other */
  events: EventBus<RevalidationEvent>;
}

/**
 * The broadcast module: channels and messages with an expiry (deleted by the agent
 * 'delete-expired-broadcast-messages'), and live revalidation — after every committed write a '*' afterCommit
 * hook publishes `{ module, route, ids }` on a bus every server process shares (Redis with REDIS_URL), and
 * browsers hear of the writes they may know of over one Server-Sent Events stream.
 */
export function createBroadcastPlugin(options: BroadcastOptions = {}): Plugin {
  const buses = new WeakMap<PluginContext, EventBus<RevalidationEvent>>();
  const busOf = (ctx: PluginContext) => {
    let bus = buses.get(ctx);
    if (!bus) {
      const made = createEventBus<RevalidationEvent>(`${ctx.config.redisPrefix}${options.channel ?? 'revalidation'}`, ctx.config.redisUrl, ctx.log);
      buses.set(ctx, (bus = made));
      // no lifecycle hook in the plugin interface: the bus closes with the database
      const close = ctx.database.close.bind(ctx.database);
      ctx.database.close = async () => {
        await made.close();
        await close();
      };
    }
    return bus;
  };
  return {
    name: 'broadcast',
    services: (ctx) => ({ broadcast: { get events() { return busOf(ctx); } } satisfies BroadcastService }),
    hooks: (ctx) => ({
      '*': {
        async afterCommit({ entity, operation, row, previous }) {
          for (const e of await eventsOf(ctx, entity, operation, row, previous)) busOf(ctx).publish(e);
        },
      },
    }),
    routes: (app, ctx) => {
      busOf(ctx);
      eventStreamRoute(app, ctx, () => busOf(ctx), options);
    },
    defaults: seedFile(new URL('../defaults.json', import.meta.url)),
  };
}

export const broadcast = createBroadcastPlugin();
