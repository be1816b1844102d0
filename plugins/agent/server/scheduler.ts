import { hostname } from 'node:os';
import { and, eq, isNull, lt, or } from 'drizzle-orm';
import { Cron } from 'croner';
import type { Hono } from 'hono';
import type { PluginContext } from '../../../runtime/plugin.js';
import { HttpError } from '../../../runtime/http/errors.js';
import type { AgentJob } from './jobs.js';

type Row = Record<string, unknown>;

/** a run still 'running' after this long belongs to a process that stopped */
const STALE_RUN_MS = 60 * 60_000;

/** a cron expression (5 or 6 fields, UTC), or the reason it is not one */
export function cronOf(expression: string): Cron {
  return new Cron(expression, { paused: true, timezone: 'Etc/UTC' });
}

/** the latest slot of the expression at or before `now`, if it is after `since` (then the agent is due) */
export function dueSlot(expression: string, since: Date, now: Date): Date | undefined {
  const [slot] = cronOf(expression).previousRuns(1, new Date(now.getTime() + 1));
  return slot && slot.getTime() > since.getTime() ? slot : undefined;
}

export interface SchedulerEvent {
  type: 'claimed' | 'lost';
  agent: string;
  slot: Date;
  instance: string;
}

/**
 * The in-process scheduler: every tick, each active agent whose cron slot has come is run once. With several
 * server processes on one database, the slot is claimed by a conditional update of the agent's lastRunAt
 * (`where lastRunAt < slot`): one process wins, the others' update changes nothing and they skip it; the run
 * row's unique (agentId, scheduledAt) is a second guard. Each run's start, end, result and error are kept
 * on its agent/run row.
 */
export class Scheduler {
  readonly instance = `${hostname()}:${process.pid}`;
  private timer?: NodeJS.Timeout;
  private ticking?: Promise<unknown>;

  constructor(
    private ctx: PluginContext,
    private app: Hono,
    private jobs: () => Record<string, AgentJob>,
    private observe?: (e: SchedulerEvent) => void,
  ) {}

  private get agents() {
    return this.ctx.database.tables['agent/agent'];
  }

  start(everyMs: number) {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (!this.ticking) this.ticking = this.tick().catch((err) => this.ctx.log.error({ err }, 'agent scheduler tick failed')).finally(() => (this.ticking = undefined));
    }, everyMs);
    this.timer.unref();
  }

  async stop() {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.ticking;
  }

  /** runs every agent due at `now`; answers the slugs this process ran and those another process had claimed */
  async tick(now = new Date()): Promise<{ ran: string[]; lost: string[] }> {
    const out = { ran: [] as string[], lost: [] as string[] };
    await this.failStaleRuns(now);
    const rows: Row[] = await this.ctx.database.db.select().from(this.agents).where(eq(this.agents.isActive, true));
    for (const agent of rows) {
      let slot: Date | undefined;
      try {
        slot = dueSlot(agent.interval as string, new Date((agent.lastRunAt ?? agent.createdAt) as Date), now);
      } catch (err) {
        this.ctx.log.warn({ err, agent: agent.slug }, 'agent has an invalid cron expression');
        continue;
      }
      if (!slot) continue;
      if (!(await this.claim(agent.id as string, slot))) {
        out.lost.push(agent.slug as string);
        this.observe?.({ type: 'lost', agent: agent.slug as string, slot, instance: this.instance });
        continue;
      }
      this.observe?.({ type: 'claimed', agent: agent.slug as string, slot, instance: this.instance });
      await this.run(agent, slot, 'schedule', now);
      out.ran.push(agent.slug as string);
    }
    return out;
  }

  /** one process wins a slot: the update only changes an agent whose last run is before it */
  private async claim(id: string, slot: Date): Promise<boolean> {
    const t = this.agents;
    const won: Row[] = await this.ctx.database.transaction((tx) =>
      tx.update(t).set({ lastRunAt: slot, updatedAt: new Date() }).where(and(eq(t.id, id), eq(t.isActive, true), or(isNull(t.lastRunAt), lt(t.lastRunAt, slot)))).returning({ id: t.id }),
    );
    return won.length === 1;
  }

  /** runs an agent's job now and records it; a manual run is not a slot of the schedule */
  async run(agent: Row, slot: Date, trigger: 'schedule' | 'manual', now = new Date()): Promise<Row> {
    const runs = this.ctx.model.byId['agent/run'];
    let run: Row;
    try {
      run = await this.ctx.repo.create(runs, { agentId: agent.id, trigger, scheduledAt: slot.toISOString(), startedAt: new Date().toISOString(), status: 'running', instance: this.instance });
    } catch (e) {
      if (e instanceof HttpError && e.status === 409) throw new HttpError(409, `The agent ${agent.slug as string} already has a run for ${slot.toISOString()}`);
      throw e;
    }
    const job = this.jobs()[agent.slug as string];
    try {
      if (!job) throw new Error(`No job is named ${agent.slug as string}; the jobs are: ${Object.keys(this.jobs()).join(', ')}`);
      const result = await job.run({ ctx: this.ctx, app: this.app, now, slot, agent });
      return await this.ctx.repo.update(runs, run.id as string, { status: 'succeeded', finishedAt: new Date().toISOString(), result: (result ?? null) as never });
    } catch (e) {
      const error = e instanceof Error ? e.message : String(e);
      this.ctx.log.warn({ agent: agent.slug, error }, 'agent run failed');
      return this.ctx.repo.update(runs, run.id as string, { status: 'failed', finishedAt: new Date().toISOString(), error: error.slice(0, 4000) });
    }
  }

  private async failStaleRuns(now: Date) {
    const t = this.ctx.database.tables['agent/run'];
    const stale: { id: string }[] = await this.ctx.database.db.select({ id: t.id }).from(t).where(and(eq(t.status, 'running'), lt(t.startedAt, new Date(now.getTime() - STALE_RUN_MS))));
    for (const { id } of stale) await this.ctx.repo.update(this.ctx.model.byId['agent/run'], id, { status: 'failed', finishedAt: now.toISOString(), error: 'The process running it stopped before it finished' });
  }
}
