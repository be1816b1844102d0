import { createHash, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { PluginContext } from '../../../runtime/plugin.js';
import { GROUPED_TEXT_MAX } from '../../../engine/json-schema.js';

/** the key events the platform counts (modules may record names of their own) */
export const METRICS = ['page-view', 'sign-up', 'add-to-cart', 'checkout', 'payment'] as const;

/** the UTC day a moment falls in */
export const dayOf = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));

interface Pending {
  name: string;
  dimension: string;
  day: Date;
  count: number;
  value: number;
}

/**
 * Counts events in memory and writes them in batches: one upsert per (metric, dimension, day) per flush, adding to
 * the stored count and value in the database itself (`on conflict … do update set count = count + …`), so several
 * processes add up and a page view costs its request no write at all.
 */
export class Recorder {
  private pending = new Map<string, Pending>();
  private timer?: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(private ctx: PluginContext) {}

  /** counts one event (value: an amount to add up, e.g. a payment's) */
  record(name: string, options: { dimension?: string; value?: number; at?: Date } = {}) {
    // as much as the API lets a metric's dimension hold (one of a unique group: engine/json-schema.ts)
    const dimension = (options.dimension ?? '').slice(0, GROUPED_TEXT_MAX);
    const day = dayOf(options.at ?? new Date());
    const key = `${name}\u0000${dimension}\u0000${day.getTime()}`;
    const p = this.pending.get(key) ?? this.pending.set(key, { name, dimension, day, count: 0, value: 0 }).get(key)!;
    p.count += 1;
    p.value += Number.isFinite(options.value) ? options.value! : 0;
  }

  get size() {
    return this.pending.size;
  }

  start(everyMs: number) {
    this.timer ??= setInterval(() => void this.flush(), everyMs);
    this.timer.unref();
  }

  async stop() {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  /** writes what was counted; on failure the counts stay for the next flush */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  private async write() {
    if (!this.pending.size) return;
    const batch = [...this.pending.values()];
    this.pending.clear();
    const t = this.ctx.database.tables['analytic/metric'];
    const now = new Date();
    try {
      await this.ctx.database.transaction(async (tx) => {
        for (const p of batch) {
          const day = p.day.toISOString().slice(0, 10);
          const tag = createHash('sha256').update(p.dimension).digest('hex').slice(0, 10);
          await tx
            .insert(t)
            .values({
              id: randomUUID(),
              createdAt: now,
              updatedAt: now,
              variant: 'default',
              name: p.name,
              dimension: p.dimension,
              period: 'day',
              recordedAt: p.day,
              count: p.count,
              value: p.value,
              slug: `${p.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${day}-${tag}`,
              adminTitle: `${p.name}${p.dimension ? ` ${p.dimension}` : ''} ${day}`.slice(0, 300),
              title: p.name,
            })
            .onConflictDoUpdate({ target: [t.name, t.dimension, t.recordedAt], set: { count: sql`${t.count} + ${p.count}`, value: sql`${t.value} + ${p.value}`, updatedAt: now } });
        }
      });
    } catch (err) {
      this.ctx.log.warn({ err, metrics: batch.length }, 'analytics: metrics could not be written; they are kept for the next flush');
      for (const p of batch) {
        const key = `${p.name}\u0000${p.dimension}\u0000${p.day.getTime()}`;
        const q = this.pending.get(key);
        if (q) {
          q.count += p.count;
          q.value += p.value;
        } else this.pending.set(key, p);
      }
      return;
    }
    // the admin's dashboard hears of new numbers like of any write (metrics are private: admins only)
    const bus = (this.ctx.services.broadcast as { events?: { publish(e: unknown): void } } | undefined)?.events;
    bus?.publish({ module: 'analytic', route: 'metrics', entity: 'analytic/metric', operation: 'update', ids: [], private: true });
  }
}
