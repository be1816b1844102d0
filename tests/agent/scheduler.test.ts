import { describe, it, expect, beforeAll, afterAll, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { DIALECTS, sqliteDatabase } from '../helpers/databases.js';
import { bootApp, type TestApp } from '../helpers/app.js';
import { startSmtp } from '../helpers/smtp.js';
import { createAgentPlugin, type AgentService, dueSlot } from '../../plugins/agent/server/index.js';
import { createNotificationPlugin, type NotificationService } from '../../plugins/notification/server/index.js';
import { createHostPlugin } from '../../plugins/host/server/index.js';

const DAY = 86_400_000;

for (const d of DIALECTS) {
  describe(`agents on ${d.name}`, () => {
    let t: TestApp;
    let smtp: Awaited<ReturnType<typeof startSmtp>>;
    const failing = { title: 'Fails', run: async () => Promise.reject(new Error('the remote shop is down')) };
    const echo = { title: 'Echo', run: async ({ slot }: { slot: Date }) => ({ slot: slot.toISOString() }) };
    const agents = () => t.ctx.services.agents as AgentService;
    const scheduler = () => agents().scheduler()!;
    const runsOf = async (agentId: string) => (await t.call('GET', `/api/agent/runs?filters[and][0][column]=agentId&filters[and][0][method]=eq&filters[and][0][value]=${agentId}&orderBy[and][0][column]=scheduledAt&orderBy[and][0][method]=asc`)).body.data as Record<string, any>[];
    const agentBySlug = async (slug: string) => (await t.call('GET', `/api/agent/agents?filters[and][0][column]=slug&filters[and][0][method]=eq&filters[and][0][value]=${slug}`)).body.data[0];
    /** sets updatedAt (or another date column) of a row in the past, as time would */
    const age = async (entity: string, id: string, days: number, column = 'updatedAt') => {
      const table = t.database.tables[entity];
      await t.database.transaction((tx) => tx.update(table).set({ [column]: new Date(Date.now() - days * DAY) }).where(eq(table.id, id)));
    };

    beforeAll(async () => {
      smtp = await startSmtp();
      t = await bootApp(await d.make(), {
        plugins: [createNotificationPlugin(), createHostPlugin(), createAgentPlugin({ scheduler: false, jobs: { failing, echo } })],
        env: { SMTP_URL: smtp.url },
      });
    });
    afterAll(async () => {
      await t?.close();
      await smtp?.close();
    });

    it('every installation has the built-in agents; a row needs a cron expression and a slug naming a job', async () => {
      const slugs = (await t.call('GET', '/api/agent/agents?limit=100')).body.data.map((a: { slug: string }) => a.slug).sort();
      expect(slugs).toEqual(['check-pending-payment-intents', 'clear-old-cart-orders', 'delete-expired-broadcast-messages', 'delete-stale-anonymous-subjects', 'refresh-page-cache', 'send-due-notifications']);
      const badCron = await t.call('POST', '/api/agent/agents', { data: { slug: 'echo', interval: '61 * * * *' } });
      expect(badCron.status).toBe(400);
      expect(badCron.body.cause[0]).toMatchObject({ field: 'interval', rule: 'cron' });
      expect((await t.call('POST', '/api/agent/agents', { data: { slug: 'echo', interval: 'every day' } })).body.cause[0]).toMatchObject({ field: 'interval' });
      // a day no month has: the agent would never run
      for (const interval of ['0 0 31 2 *', '0 0 31 4 *']) {
        const never = await t.call('POST', '/api/agent/agents', { data: { slug: 'echo', interval } });
        expect(never.status, interval).toBe(400);
        expect(never.body.cause[0]).toMatchObject({ field: 'interval', rule: 'cron', message: expect.stringContaining('comes round') });
      }
      const leap = await t.call('POST', '/api/agent/agents', { data: { slug: 'echo', interval: '0 0 29 2 *' } });
      expect(leap.status).toBe(201);
      expect((await t.call('DELETE', `/api/agent/agents/${leap.body.data.id}`)).status).toBe(200);
      // seven fields: the error says what the field takes, not its regular expression
      const seven = await t.call('POST', '/api/agent/agents', { data: { slug: 'echo', interval: '* * * * * * *' } });
      expect(seven.status).toBe(400);
      expect(seven.body.cause[0]).toMatchObject({ field: 'interval', rule: 'pattern', message: 'interval must be a cron expression of 5 or 6 fields, such as */5 * * * *' });
      expect(seven.body.message).not.toContain('\\S');
      // a slug too
      expect((await t.call('POST', '/api/agent/agents', { data: { slug: 'Echo!', interval: '* * * * *' } })).body.cause[0]).toMatchObject({ field: 'slug', message: 'slug must be lowercase letters, digits and dashes' });
      const noJob = await t.call('POST', '/api/agent/agents', { data: { slug: 'mine-bitcoin', interval: '* * * * *' } });
      expect(noJob.status).toBe(400);
      expect(noJob.body.cause[0]).toMatchObject({ field: 'slug', rule: 'enum' });
      // no slug, or a blank one, is not given a generated name that names no job: the slug is required
      const count = async () => (await t.call('GET', '/api/agent/agents/count')).body.data;
      const before = await count();
      for (const [route, data] of [['', { interval: '* * * * *' }], ['', { slug: '', interval: '* * * * *' }], ['/find-or-create', { interval: '*/7 * * * *' }]] as const) {
        const r = await t.call('POST', `/api/agent/agents${route}`, { data });
        expect(r.status, JSON.stringify(r.body)).toBe(400);
        expect(r.body.cause).toEqual([expect.objectContaining({ field: 'slug', rule: 'required' })]);
      }
      const bulk = await t.call('POST', '/api/agent/agents/bulk', { data: [{ slug: 'echo', interval: '* * * * *' }, { interval: '* * * * *' }] });
      expect(bulk.body.cause).toEqual([expect.objectContaining({ field: 'data[1].slug', rule: 'required' })]);
      expect(await count()).toBe(before);
      expect((await t.call('GET', '/api/agent/agents', undefined, { auth: false })).status).toBe(401);
    });

    it('the cron slot: due once its time has come, not again until the next one', () => {
      const since = new Date('2026-03-01T10:02:00Z');
      expect(dueSlot('*/5 * * * *', since, new Date('2026-03-01T10:04:59Z'))).toBeUndefined();
      expect(dueSlot('*/5 * * * *', since, new Date('2026-03-01T10:05:00Z'))).toEqual(new Date('2026-03-01T10:05:00Z'));
      // after a long stop, one run for the latest slot, not one per missed slot
      expect(dueSlot('*/5 * * * *', since, new Date('2026-03-01T13:07:00Z'))).toEqual(new Date('2026-03-01T13:05:00Z'));
      expect(dueSlot('*/5 * * * *', new Date('2026-03-01T13:05:00Z'), new Date('2026-03-01T13:09:59Z'))).toBeUndefined();
      expect(dueSlot('*/10 * * * * *', since, new Date('2026-03-01T10:02:25Z'))).toEqual(new Date('2026-03-01T10:02:20Z'));
    });

    it('a tick runs each due agent once and records start, end, result; a failure keeps its error', async () => {
      const ok = (await t.call('POST', '/api/agent/agents', { data: { slug: 'echo', interval: '*/5 * * * *' } })).body.data;
      const bad = (await t.call('POST', '/api/agent/agents', { data: { slug: 'failing', interval: '*/5 * * * *' } })).body.data;
      const created = new Date(ok.createdAt);
      const slot = dueSlot('*/5 * * * *', created, new Date(created.getTime() + 5 * 60_000 + 1))!;
      const before = await scheduler().tick(new Date(slot.getTime() - 1));
      expect(before.ran).not.toContain('echo');
      const first = await scheduler().tick(slot);
      expect(first.ran).toEqual(expect.arrayContaining(['echo', 'failing']));
      expect((await scheduler().tick(new Date(slot.getTime() + 60_000))).ran).not.toContain('echo');
      const [run] = await runsOf(ok.id);
      expect(run).toMatchObject({ status: 'succeeded', trigger: 'schedule', scheduledAt: slot.toISOString(), result: { slot: slot.toISOString() }, error: null, instance: expect.stringMatching(/:\d+$/) });
      expect(new Date(run.finishedAt).getTime()).toBeGreaterThanOrEqual(new Date(run.startedAt).getTime());
      expect((await agentBySlug('echo')).lastRunAt).toBe(slot.toISOString());
      const [failed] = await runsOf(bad.id);
      expect(failed).toMatchObject({ status: 'failed', error: 'the remote shop is down', finishedAt: expect.any(String) });
      // the next slot runs again
      await scheduler().tick(new Date(slot.getTime() + 5 * 60_000));
      expect(await runsOf(ok.id)).toHaveLength(2);
      // an inactive agent does not run
      await t.call('PATCH', `/api/agent/agents/${ok.id}`, { data: { isActive: false } });
      await scheduler().tick(new Date(slot.getTime() + 10 * 60_000));
      expect(await runsOf(ok.id)).toHaveLength(2);
    });

    it('POST /api/agent/agents/{id}/run runs it now for an admin, and no one else', async () => {
      const a = await agentBySlug('check-pending-payment-intents');
      expect((await t.call('POST', `/api/agent/agents/${a.id}/run`, {}, { auth: false })).status).toBe(401);
      const r = await t.call('POST', `/api/agent/agents/${a.id}/run`, {});
      expect(r.status).toBe(201);
      expect(r.body.data).toMatchObject({ agentId: a.id, trigger: 'manual', status: 'succeeded', result: { pending: 0, checked: 0 } });
    });

    it('send-due-notifications sends what is due over SMTP', async () => {
      const at = new Date(Date.now() + 2 * 60_000);
      const sent = await (t.ctx.services.notification as NotificationService).send({ method: 'email', to: 'due@example.com' }, { subject: 'Due', text: 'Now', sendAfter: at });
      const a = await agentBySlug('send-due-notifications');
      const run = await scheduler().run(a, at, 'manual', new Date(at.getTime() + 1000));
      expect(run).toMatchObject({ status: 'succeeded', result: { sent: 1 } });
      await smtp.mailTo('due@example.com');
      expect((await t.call('GET', `/api/notification/notifications/${sent.id}`)).body.data.status).toBe('sent');
    });

    it('clear-old-cart-orders deletes carts untouched for 30 days, nothing else', async () => {
      const make = async (type: string) => (await t.call('POST', '/api/ecommerce/orders', { data: { type } })).body.data.id as string;
      const [oldCart, newCart, oldHistory] = [await make('cart'), await make('cart'), await make('history')];
      await age('ecommerce/order', oldCart, 31);
      await age('ecommerce/order', oldHistory, 400);
      const run = await scheduler().run(await agentBySlug('clear-old-cart-orders'), new Date(), 'manual');
      expect(run).toMatchObject({ status: 'succeeded', result: { deleted: 1 } });
      expect((await t.call('GET', `/api/ecommerce/orders/${oldCart}`)).status).toBe(404);
      expect((await t.call('GET', `/api/ecommerce/orders/${newCart}`)).status).toBe(200);
      expect((await t.call('GET', `/api/ecommerce/orders/${oldHistory}`)).status).toBe(200);
    });

    it('delete-stale-anonymous-subjects deletes old subjects with no sign-in method only', async () => {
      const subject = async () => (await t.call('POST', '/api/rbac/subjects', { data: {} })).body.data.id as string;
      const [stale, fresh, signedUp] = [await subject(), await subject(), await subject()];
      const identity = (await t.call('POST', '/api/rbac/identities', { data: { provider: 'telegram', account: '1' } })).body.data;
      await t.call('POST', '/api/rbac/subjects-to-identities', { data: { subjectId: signedUp, identityId: identity.id } });
      await age('rbac/subject', stale, 45);
      await age('rbac/subject', signedUp, 45);
      const run = await scheduler().run(await agentBySlug('delete-stale-anonymous-subjects'), new Date(), 'manual');
      expect(run.status).toBe('succeeded');
      expect((await t.call('GET', `/api/rbac/subjects/${stale}`)).status).toBe(404);
      expect((await t.call('GET', `/api/rbac/subjects/${fresh}`)).status).toBe(200);
      expect((await t.call('GET', `/api/rbac/subjects/${signedUp}`)).status).toBe(200);
    });

    it('delete-expired-broadcast-messages deletes messages past their expiry', async () => {
      const expired = (await t.call('POST', '/api/broadcast/messages', { data: { payload: { a: 1 }, expiresAt: new Date(Date.now() - 60_000).toISOString() } })).body.data.id;
      const live = (await t.call('POST', '/api/broadcast/messages', { data: { payload: { a: 2 }, expiresAt: new Date(Date.now() + DAY).toISOString() } })).body.data.id;
      const run = await scheduler().run(await agentBySlug('delete-expired-broadcast-messages'), new Date(), 'manual');
      expect(run.status).toBe('succeeded');
      expect((await t.call('GET', `/api/broadcast/messages/${expired}`)).status).toBe(404);
      expect((await t.call('GET', `/api/broadcast/messages/${live}`)).status).toBe(200);
    });

    it('refresh-page-cache drops every cached page through the revalidation route', async () => {
      const run = await scheduler().run(await agentBySlug('refresh-page-cache'), new Date(), 'manual');
      expect(run).toMatchObject({ status: 'succeeded', result: { revalidated: true, path: '/', type: 'layout' } });
    });
  });
}

describe('the scheduler\'s own timer', () => {
  it('runs a due agent with no one calling it (no external crontab)', async () => {
    const seen: string[] = [];
    const t = await bootApp(sqliteDatabase(), { plugins: [createAgentPlugin({ scheduler: true, tickMs: 50, jobs: { tick: { title: 'Tick', run: async ({ slot }) => void seen.push(slot.toISOString()) } } })] });
    try {
      const a = (await t.call('POST', '/api/agent/agents', { data: { slug: 'tick', interval: '* * * * * *' } })).body.data;
      await vi.waitFor(async () => {
        const runs = (await t.call('GET', `/api/agent/runs?filters[and][0][column]=agentId&filters[and][0][method]=eq&filters[and][0][value]=${a.id}`)).body.data;
        expect(runs.filter((r: { status: string }) => r.status === 'succeeded').length).toBeGreaterThanOrEqual(2);
      }, { timeout: 30_000, interval: 100 });
      expect(new Set(seen).size).toBe(seen.length);
    } finally {
      await t.close();
    }
  });
});
