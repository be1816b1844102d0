import type { Context, Hono } from 'hono';
import { UUID_RE } from '../../../engine/fields/index.js';
import type { Plugin, PluginContext } from '../../../runtime/plugin.js';
import { seedFile } from '../../../runtime/seed-file.js';
import { HttpError, badRequest } from '../../../runtime/http/errors.js';
import type { HookSet } from '../../../runtime/crud/hooks.js';
import { BUILT_IN_JOBS, type AgentJob } from './jobs.js';
import { cronOf, Scheduler, type SchedulerEvent } from './scheduler.js';

export type { AgentJob, JobRun } from './jobs.js';
export { Scheduler, dueSlot } from './scheduler.js';

export interface AgentOptions {
  /** jobs besides (or instead of) the built-in ones, by agent slug */
  jobs?: Record<string, AgentJob>;
  /** run the scheduler's timer in this process (default: unless AGENT_SCHEDULER=off) */
  scheduler?: boolean;
  /** how often the scheduler looks for due agents (default 10 s) */
  tickMs?: number;
  /** told of every slot this process claimed or found claimed by another (metrics, tests) */
  observe?: (e: SchedulerEvent) => void;
}

/** what the agent module offers the others (`ctx.services.agents`) */
export interface AgentService {
  /** adds or replaces the job an agent slug runs (a module's own implementation of a built-in job) */
  register(slug: string, job: AgentJob): void;
  jobs(): Record<string, AgentJob>;
  scheduler(): Scheduler | undefined;
}

/** checks an agent row's cron expression and that its slug names a job, naming the field that is wrong */
function agentHooks(jobs: () => Record<string, AgentJob>): HookSet {
  const check = (data: { interval?: string; slug?: string }) => {
    if (data.interval !== undefined) {
      let next: Date | null;
      try {
        next = cronOf(data.interval).nextRun();
      } catch (e) {
        throw badRequest(`interval is not a cron expression: ${(e as Error).message.replace(/^CronPattern: /, '')}`, [{ field: 'interval', rule: 'cron', message: 'interval must be a cron expression of 5 or 6 fields' }]);
      }
      // a day that never comes (31 February): the agent would never run, and nothing would say so
      if (!next) throw badRequest('interval never comes round: no date matches it', [{ field: 'interval', rule: 'cron', message: 'interval must match a date that comes round (it names a day no month has)' }]);
    }
    if (data.slug !== undefined && !Object.hasOwn(jobs(), data.slug)) {
      const names = Object.keys(jobs()).join(', ');
      throw badRequest(`slug must name a job: ${names}`, [{ field: 'slug', rule: 'enum', message: `slug must be one of: ${names}` }]);
    }
  };
  return {
    'agent/agent': {
      // the slug names the job: a blank one is not generated (a made-up name runs nothing and fails every slot)
      beforeCreate: (data) => {
        if (data.slug === undefined || data.slug === null || data.slug === '') {
          const names = Object.keys(jobs()).join(', ');
          throw badRequest(`slug is required: it names the job the agent runs, one of: ${names}`, [{ field: 'slug', rule: 'required', message: `slug is required: one of ${names}` }]);
        }
        check(data);
      },
      beforeUpdate: (data) => check(data),
    },
  };
}

async function requirePermission(ctx: PluginContext, c: Context) {
  if (await ctx.permits(c, 'POST', c.req.path)) return;
  throw new HttpError((await ctx.caller(c)).kind === 'anonymous' ? 401 : 403, 'Not authorized');
}

/**
 * The agent module: agent rows (a slug naming a job, a cron expression) run by an in-process scheduler, once
 * per slot across every server process on the database, each run recorded as an agent/run row.
 */
export function createAgentPlugin(options: AgentOptions = {}): Plugin {
  const jobs: Record<string, AgentJob> = { ...BUILT_IN_JOBS, ...options.jobs };
  const schedulers = new WeakMap<PluginContext, Scheduler>();
  return {
    name: 'agent',
    services: (ctx) => ({
      agents: {
        register: (slug, job) => void (jobs[slug] = job),
        jobs: () => jobs,
        scheduler: () => schedulers.get(ctx),
      } satisfies AgentService,
    }),
    hooks: () => agentHooks(() => jobs),
    routes(app: Hono, ctx) {
      const scheduler = new Scheduler(ctx, app, () => jobs, options.observe);
      schedulers.set(ctx, scheduler);
      const enabled = options.scheduler ?? process.env.AGENT_SCHEDULER !== 'off';
      if (enabled) {
        scheduler.start(options.tickMs ?? 10_000);
        // no lifecycle hook in the plugin interface: the scheduler stops before the database closes
        const close = ctx.database.close.bind(ctx.database);
        ctx.database.close = async () => {
          await scheduler.stop();
          await close();
        };
      }
      /** POST /api/agent/agents/{id}/run: runs the agent's job now (admins), answering the run row */
      app.post('/api/agent/agents/:id/run', async (c) => {
        await requirePermission(ctx, c);
        const id = (c.req.param('id') ?? '').toLowerCase();
        if (!UUID_RE.test(id)) throw badRequest('id must be a UUID', [{ field: 'id', rule: 'format', message: 'id must be a UUID' }]);
        const agent = await ctx.repo.getOrThrow(ctx.model.byId['agent/agent'], id);
        return c.json({ data: await scheduler.run(agent, new Date(), 'manual') }, 201);
      });
    },
    defaults: seedFile(new URL('../defaults.json', import.meta.url)),
  };
}

export const agent = createAgentPlugin();
