import { and, count, eq, lt, notExists } from 'drizzle-orm';
import type { Hono } from 'hono';
import type { PluginContext } from '../../../runtime/plugin.js';
import type { NotificationService } from '../../notification/server/index.js';

type Row = Record<string, unknown>;

/** what a job is given for one run */
export interface JobRun {
  ctx: PluginContext;
  /** the app, for jobs that go through a route as any client would */
  app: Hono;
  /** the time of the run (the scheduler's clock) */
  now: Date;
  /** the cron slot this run is for (for a manual run, the time it was asked) */
  slot: Date;
  agent: Row;
}

/** one agent's work: its result (JSON) is kept on the run row; a throw marks the run failed with the message */
export interface AgentJob {
  title: string;
  run(run: JobRun): Promise<unknown>;
}

/** a cart order untouched this long is cleared */
export const CART_TTL_DAYS = 30;
/** a subject without any identity, untouched this long, is deleted */
export const ANONYMOUS_SUBJECT_TTL_DAYS = 30;
/** rows one run deletes at most (the next run goes on) */
const BATCH = 500;
const daysBefore = (now: Date, days: number) => new Date(now.getTime() - days * 86_400_000);

/** deletes rows one by one through the repository, so that every module's hooks (cache, events, files) see them */
async function deleteRows(ctx: PluginContext, entityId: string, ids: string[]) {
  let deleted = 0;
  for (const id of ids) {
    try {
      await ctx.repo.delete(ctx.model.byId[entityId], id);
      deleted++;
    } catch (err) {
      ctx.log.warn({ err, entity: entityId, id }, 'agent: a row could not be deleted');
    }
  }
  return deleted;
}

/** a module's own implementation of a job, when it offers one through its service */
const offered = (ctx: PluginContext, service: string, method: string) => {
  const s = ctx.services[service] as Record<string, unknown> | undefined;
  return typeof s?.[method] === 'function' ? (s[method] as (options: { now: Date }) => Promise<unknown>).bind(s) : undefined;
};

/**
 * The built-in jobs, by the agent slug that runs them. Where the owning module offers the work through its
 * service (`ecommerce.clearOldOrders`, `billing.checkPendingPaymentIntents`), the job calls it; otherwise the
 * job does what it can from the model alone, and says so in its result.
 */
export const BUILT_IN_JOBS: Record<string, AgentJob> = {
  'clear-old-cart-orders': {
    title: `Clear cart orders untouched for ${CART_TTL_DAYS} days`,
    async run({ ctx, now }) {
      const own = offered(ctx, 'ecommerce', 'clearOldOrders');
      if (own) return own({ now });
      const t = ctx.database.tables['ecommerce/order'];
      const rows: { id: string }[] = await ctx.database.db.select({ id: t.id }).from(t).where(and(eq(t.type, 'cart'), lt(t.updatedAt, daysBefore(now, CART_TTL_DAYS)))).limit(BATCH);
      return { deleted: await deleteRows(ctx, 'ecommerce/order', rows.map((r) => r.id)) };
    },
  },
  'check-pending-payment-intents': {
    title: 'Check pending payment intents with their provider',
    async run({ ctx, now }) {
      const own = offered(ctx, 'billing', 'checkPendingPaymentIntents');
      if (own) return own({ now });
      const t = ctx.database.tables['billing/payment-intent'];
      const [{ n }] = await ctx.database.db.select({ n: count() }).from(t).where(eq(t.status, 'pending'));
      return { pending: Number(n), checked: 0, note: 'no payment provider check is registered (billing.checkPendingPaymentIntents)' };
    },
  },
  'send-due-notifications': {
    title: 'Send scheduled notifications and retry failed ones',
    async run({ ctx, now }) {
      const notification = ctx.services.notification as NotificationService | undefined;
      if (!notification) throw new Error('the notification module is not installed');
      return notification.deliverDue({ now });
    },
  },
  'delete-expired-broadcast-messages': {
    title: 'Delete broadcast messages and channels past their expiry',
    async run({ ctx, now }) {
      const result: Record<string, number> = {};
      for (const id of ['broadcast/message', 'broadcast/channel']) {
        const t = ctx.database.tables[id];
        if (!t?.expiresAt) continue;
        const rows: { id: string }[] = await ctx.database.db.select({ id: t.id }).from(t).where(lt(t.expiresAt, now)).limit(BATCH);
        result[id] = await deleteRows(ctx, id, rows.map((r) => r.id));
      }
      return { deleted: result };
    },
  },
  'delete-stale-anonymous-subjects': {
    title: `Delete subjects without any sign-in method, untouched for ${ANONYMOUS_SUBJECT_TTL_DAYS} days`,
    async run({ ctx, now }) {
      const t = ctx.database.tables['rbac/subject'];
      const rel = ctx.database.tables['rbac/subjects-to-identities'];
      const rows: { id: string }[] = await ctx.database.db
        .select({ id: t.id })
        .from(t)
        .where(and(lt(t.updatedAt, daysBefore(now, ANONYMOUS_SUBJECT_TTL_DAYS)), notExists(ctx.database.db.select({ x: rel.id }).from(rel).where(eq(rel.subjectId, t.id)))))
        .limit(BATCH);
      return { deleted: await deleteRows(ctx, 'rbac/subject', rows.map((r) => r.id)) };
    },
  },
  'refresh-page-cache': {
    title: 'Drop every cached page on every instance, so pages are rendered afresh',
    async run({ ctx, app }) {
      // through the public revalidation route, as the system: the host module's own rules and cross-instance bus
      const res = await app.request('/api/revalidation/revalidate?path=/&type=layout', { headers: { 'x-rbac-secret-key': ctx.config.rbacSecretKey } });
      if (res.status === 404) return { skipped: 'the host module is not installed' };
      const body = (await res.json()) as { data?: unknown; message?: string };
      if (!res.ok) throw new Error(`revalidation answered ${res.status}: ${body.message ?? ''}`);
      return body.data;
    },
  },
};
