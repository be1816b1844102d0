import type { Context, Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { HttpError } from '../../../runtime/http/errors.js';
import { isPrivileged, type Caller } from '../../../runtime/http/access.js';
import { clientKey } from '../../../runtime/http/rate-limit.js';
import type { PluginContext } from '../../../runtime/plugin.js';
import type { EventBus } from '../../../runtime/events.js';
import { wireOf, type RevalidationEvent } from './revalidation.js';

export interface StreamOptions {
  /** a connection is closed after this long; the browser's EventSource reconnects with its current session (default 10 min) */
  maxAgeMs?: number;
  /** a comment line this often keeps proxies from closing an idle stream (default 25 s) */
  heartbeatMs?: number;
  /** open streams per client address (default 20) */
  perAddress?: number;
}

/**
 * Who may hear of an event: admins and the system of every one; anyone of a public entity's; a subject of a
 * private entity's only when the row is its own (owned entities) or when its roles may list the entity (the
 * route permission, for private entities no subject owns); an anonymous visitor of nothing private.
 */
function audience(ctx: PluginContext, c: Context, caller: Caller) {
  const mayList = new Map<string, Promise<boolean>>();
  return async (e: RevalidationEvent): Promise<boolean> => {
    if (!e.private || isPrivileged(caller)) return true;
    if (caller.kind !== 'subject') return false;
    if (e.owners) return e.owners.includes(caller.subjectId!);
    let allowed = mayList.get(e.entity);
    if (!allowed) mayList.set(e.entity, (allowed = ctx.permits(c, 'GET', `/api/${e.module}/${e.route}`).catch(() => false)));
    return allowed;
  };
}

/**
 * GET /api/broadcast/events: one Server-Sent Events stream per browser tab. `event: ready` once listening, then
 * `event: revalidate` with `{ module, route, operation, ids }` for each committed write the caller may hear of.
 */
export function eventStreamRoute(app: Hono, ctx: PluginContext, bus: () => EventBus<RevalidationEvent>, options: StreamOptions = {}) {
  const open = new Map<string, number>();
  const maxAge = options.maxAgeMs ?? 10 * 60_000;
  const heartbeat = options.heartbeatMs ?? 25_000;
  const perAddress = options.perAddress ?? 20;
  app.get('/api/broadcast/events', async (c) => {
    const address = clientKey(c, ctx.config);
    if ((open.get(address) ?? 0) >= perAddress) throw new HttpError(429, `At most ${perAddress} event streams per client`, undefined, { 'retry-after': '30' });
    const caller = await ctx.caller(c);
    const hears = audience(ctx, c, caller);
    open.set(address, (open.get(address) ?? 0) + 1);
    c.header('cache-control', 'no-store');
    c.header('x-accel-buffering', 'no');
    return streamSSE(c, async (stream) => {
      // events are written in order, one at a time; a closed stream ends the loop
      const queue: RevalidationEvent[] = [];
      let wake: (() => void) | undefined;
      const stop = bus().subscribe((e) => {
        queue.push(e);
        wake?.();
      });
      let closed = false;
      const close = () => {
        closed = true;
        wake?.();
      };
      stream.onAbort(close);
      // a server shutting down ends every stream (the browser reconnects, to another process)
      ctx.closing.addEventListener('abort', close, { once: true });
      if (ctx.closing.aborted) close();
      const ageTimer = setTimeout(close, maxAge);
      const beat = setInterval(() => void stream.write(': keep-alive\n\n').catch(close), heartbeat);
      try {
        await stream.writeSSE({ event: 'ready', data: JSON.stringify({ caller: caller.kind }), retry: 3000 });
        while (!closed) {
          if (!queue.length) await new Promise<void>((r) => (wake = r));
          wake = undefined;
          while (queue.length && !closed) {
            const e = queue.shift()!;
            // the caller's session (or subject) written to: revoked at logout, a password change or a removed login,
            // or the subject deleted. The stream ends, and the browser reconnects as whoever it now is (F14)
            if (caller.kind === 'subject' && e.ids.some((id) => id === caller.session || id === caller.subjectId)) {
              close();
              break;
            }
            if (await hears(e)) await stream.writeSSE({ event: 'revalidate', data: JSON.stringify(wireOf(e)) });
          }
        }
      } finally {
        stop();
        ctx.closing.removeEventListener('abort', close);
        clearTimeout(ageTimer);
        clearInterval(beat);
        const n = (open.get(address) ?? 1) - 1;
        if (n > 0) open.set(address, n);
        else open.delete(address);
      }
    });
  });
}
