import { describe, it, expect, beforeAll, afterAll, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { createServer } from 'node:net';
import { DIALECTS } from '../helpers/databases.js';
import { bootApp, type TestApp } from '../helpers/app.js';
import { startSmtp } from '../helpers/smtp.js';
import { startTelegramFake } from '../helpers/telegram-fake.js';
import { GENEROUS } from '../helpers/accounts.js';
import { createNotificationPlugin, type NotificationService } from '../../plugins/notification/server/index.js';
import { createRbacPlugin } from '../../plugins/rbac/server/index.js';
import { createCrmPlugin } from '../../plugins/crm/server/index.js';
import { backoffMs, MAX_ATTEMPTS } from '../../plugins/notification/server/service.js';

const textOf = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
/** a port nothing listens on: connections to it are refused */
async function closedPort() {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const { port } = s.address() as { port: number };
  await new Promise((r) => s.close(r));
  return port;
}

for (const d of DIALECTS) {
  describe(`notifications on ${d.name}: email over a real SMTP server, Telegram over a Bot API fake`, () => {
    let t: TestApp;
    let smtp: Awaited<ReturnType<typeof startSmtp>>;
    let telegram: Awaited<ReturnType<typeof startTelegramFake>>;
    const service = () => t.ctx.services.notification as NotificationService;
    const row = async (id: string) => (await t.call('GET', `/api/notification/notifications/${id}`)).body.data;

    /** a subject with an email login and a Telegram account */
    async function subject(email: string | undefined, chat: string | undefined) {
      const s = (await t.call('POST', '/api/rbac/subjects', { data: {} })).body.data;
      for (const identity of [email && { provider: 'email_and_password', email, account: email }, chat && { provider: 'telegram', account: chat }].filter(Boolean)) {
        const i = (await t.call('POST', '/api/rbac/identities', { data: identity })).body.data;
        expect((await t.call('POST', '/api/rbac/subjects-to-identities', { data: { subjectId: s.id, identityId: i.id } })).status).toBe(201);
      }
      return s.id as string;
    }

    beforeAll(async () => {
      smtp = await startSmtp();
      telegram = await startTelegramFake();
      t = await bootApp(await d.make(), {
        plugins: [createNotificationPlugin({ telegramApiUrl: telegram.url }), createRbacPlugin({ limits: GENEROUS }), createCrmPlugin({ formLimit: { points: 1000, duration: 60 } })],
        env: { SMTP_URL: smtp.url, MAIL_FROM: 'shop@example.com', TELEGRAM_BOT_TOKEN: telegram.token, ADMIN_EMAILS: 'boss@example.com', PUBLIC_URL: 'https://shop.example.com' },
      });
    });
    afterAll(async () => {
      await t?.close();
      await smtp?.close();
      await telegram?.close();
    });

    it('an email is the template as HTML with its plain-text part, and the row says sent after one attempt', async () => {
      const sent = await service().sendEmail({ to: 'ann@example.com', subject: 'Welcome', text: 'Hello Ann,\n\nsee https://shop.example.com/x', template: 'default' });
      expect(sent.status).toBe('sent');
      const mail = await smtp.mailTo('ann@example.com');
      expect(mail.raw).toMatch(/multipart\/alternative/);
      expect(mail.raw).toMatch(/Content-Type: text\/plain/);
      expect(mail.raw).toMatch(/Content-Type: text\/html/);
      expect(textOf(mail.raw)).toContain('<a href="https://shop.example.com/x"');
      // delivery lays out the sender's text, not the text already rendered: the footer once per part (text, HTML)
      expect(textOf(mail.raw).split('You get this email because of your account').length - 1).toBe(2);
      expect(await row(sent.id)).toMatchObject({ status: 'sent', method: 'email', attempts: 1, recipient: 'ann@example.com', title: 'Welcome', error: null });
    });

    it('POST /api/rbac/subjects/{id}/notify reaches every address of the subject: its email and its Telegram chat', async () => {
      const id = await subject('bea@example.com', '424242');
      const r = await t.call('POST', `/api/rbac/subjects/${id}/notify`, { data: { title: 'Your order shipped', text: 'It is on its way & soon <there>.' } });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.data).toEqual([{ id: expect.any(String), status: 'sent' }, { id: expect.any(String), status: 'sent' }]);
      expect(textOf((await smtp.mailTo('bea@example.com')).raw)).toContain('It is on its way & soon <there>.');
      const message = telegram.messages.find((m) => String(m.chat_id) === '424242')!;
      expect(message.parse_mode).toBe('HTML');
      expect(message.text).toContain('<b>Your order shipped</b>');
      expect(message.text).toContain('It is on its way &amp; soon &lt;there&gt;.');
      const onlyTelegram = await subject(undefined, '515151');
      expect((await t.call('POST', `/api/rbac/subjects/${onlyTelegram}/notify`, { data: { title: 'Hi', text: 'Telegram only' } })).status).toBe(200);
      expect(telegram.messages.some((m) => String(m.chat_id) === '515151' && m.text.includes('Telegram only'))).toBe(true);
      const nobody = await subject(undefined, undefined);
      expect((await t.call('POST', `/api/rbac/subjects/${nobody}/notify`, { data: { title: 'Hi', text: 'x' } })).status).toBe(400);
    });

    it('sendAfter schedules: nothing goes before its time, the due run sends it then', async () => {
      const at = new Date(Date.now() + 60 * 60_000);
      const sent = await service().send({ method: 'email', to: 'cid@example.com' }, { subject: 'Later', text: 'In an hour', sendAfter: at });
      expect(sent.status).toBe('new');
      expect(await service().deliverDue()).toMatchObject({ sent: 0 });
      expect(smtp.mails.some((m) => m.to.includes('cid@example.com'))).toBe(false);
      expect((await row(sent.id)).status).toBe('new');
      expect((await service().deliverDue({ now: new Date(at.getTime() + 1000) })).sent).toBeGreaterThanOrEqual(1);
      await smtp.mailTo('cid@example.com');
      expect(await row(sent.id)).toMatchObject({ status: 'sent', attempts: 1 });
    });

    it('a failed send is retried with backoff, keeping the last error and the attempt count', async () => {
      telegram.failNext(2);
      const before = Date.now();
      const sent = await service().send({ method: 'telegram', to: '777' }, { subject: 'Retry me', text: 'x' });
      expect(sent.status).toBe('new');
      const first = await row(sent.id);
      expect(first).toMatchObject({ status: 'new', attempts: 1, error: expect.stringContaining('Too Many Requests') });
      expect(new Date(first.sendAfter).getTime()).toBeGreaterThanOrEqual(before + backoffMs(1));
      // not due yet: the next run leaves it
      await service().deliverDue();
      expect((await row(sent.id)).attempts).toBe(1);
      await service().deliverDue({ now: new Date(new Date(first.sendAfter).getTime() + 1) });
      const second = await row(sent.id);
      expect(second).toMatchObject({ status: 'new', attempts: 2, error: expect.stringContaining('429') });
      expect(new Date(second.sendAfter).getTime() - new Date(first.sendAfter).getTime()).toBeGreaterThanOrEqual(backoffMs(2));
      await service().deliverDue({ now: new Date(new Date(second.sendAfter).getTime() + 1) });
      expect(await row(sent.id)).toMatchObject({ status: 'sent', attempts: 3, error: null });
      expect(telegram.messages.filter((m) => String(m.chat_id) === '777')).toHaveLength(1);
    });

    it(`after ${MAX_ATTEMPTS} failed attempts it is given up, and its secrets are removed from the row`, async () => {
      const broken = (await import('../../plugins/notification/server/channels/email.js')).emailChannel(`smtp://127.0.0.1:${await closedPort()}`, 'shop@example.com');
      const svc = (await import('../../plugins/notification/server/service.js')).notificationService(t.ctx, { email: broken, telegram: { name: 'telegram', configured: false, send: async () => undefined } });
      const sent = await svc.send({ method: 'email', to: 'dan@example.com' }, { subject: 'Your code', text: 'Your code: S3CR3T-42', secrets: ['S3CR3T-42'] });
      let now = Date.now();
      for (let i = 1; i < MAX_ATTEMPTS; i++) {
        const r = await row(sent.id);
        expect(r).toMatchObject({ status: 'new', attempts: i, error: expect.stringMatching(/ECONNREFUSED|connect/) });
        expect(JSON.stringify(r.payload)).toContain('S3CR3T-42'); // kept while it may still be sent
        now = new Date(r.sendAfter).getTime() + 1;
        await svc.deliverDue({ now: new Date(now) });
      }
      const last = await row(sent.id);
      expect(last).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, error: expect.any(String) });
      expect(JSON.stringify(last)).not.toContain('S3CR3T-42');
      expect((await svc.deliverDue({ now: new Date(now + 24 * 3600_000) })).failed).toBe(0);
    });

    it('two delivery runs at once send each due notification once (a conditional claim)', async () => {
      const at = new Date(Date.now() + 3 * 3600_000);
      const ids = [];
      for (let i = 0; i < 6; i++) ids.push((await service().send({ method: 'telegram', to: `90${i}` }, { subject: 'Once', text: `n${i}`, sendAfter: at })).id);
      const later = new Date(at.getTime() + 1000);
      const [a, b] = await Promise.all([service().deliverDue({ now: later }), service().deliverDue({ now: later })]);
      expect(a.sent + b.sent).toBe(6);
      for (let i = 0; i < 6; i++) expect(telegram.messages.filter((m) => String(m.chat_id) === `90${i}`)).toHaveLength(1);
    });

    const table = () => t.ctx.database.tables['notification/notification'];
    it('a claim left sending by a process that died is taken again once it is stale by the clock, not before', async () => {
      const { id } = await service().send({ method: 'telegram', to: '9100' }, { subject: 'Stale', text: 'stale', sendAfter: new Date(Date.now() + 3600_000) });
      const later = new Date(Date.now() + 24 * 3600_000);
      // a run that claimed it and died: 'sending', claimed just now
      await t.ctx.database.transaction((tx) => tx.update(table()).set({ status: 'sending', updatedAt: new Date() }).where(eq(table().id, id)));
      // a run asked about a much later time does not take a fresh claim for a stale one
      await service().deliverDue({ now: later });
      expect(telegram.messages.filter((m) => String(m.chat_id) === '9100')).toHaveLength(0);
      // eleven minutes later by the clock it is stale: sent once
      await t.ctx.database.transaction((tx) => tx.update(table()).set({ updatedAt: new Date(Date.now() - 11 * 60_000) }).where(eq(table().id, id)));
      await service().deliverDue({ now: later });
      expect(telegram.messages.filter((m) => String(m.chat_id) === '9100')).toHaveLength(1);
    });

    it('a topic sends to all its subscribers, linked to the topic; only admins may send', async () => {
      const topic = (await t.call('POST', '/api/notification/topics', { data: { title: { en: 'News' } } })).body.data;
      const subs = [await subject('eve@example.com', undefined), await subject('fay@example.com', '616161')];
      for (const s of subs) expect((await t.call('POST', '/api/rbac/subjects-to-notification-module-topics', { data: { notificationModuleTopicId: topic.id, subjectId: s } })).status).toBe(201);
      // subscribed once: a second subscription is a conflict, not a second copy of every message
      const again = await t.call('POST', '/api/rbac/subjects-to-notification-module-topics', { data: { notificationModuleTopicId: topic.id, subjectId: subs[0] } });
      expect(again.status).toBe(409);
      expect(again.body.cause).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'subjectId', rule: 'unique' })]));
      await subject('gil@example.com', undefined); // not subscribed
      const body = { data: { title: 'Spring sale', text: 'Everything half price.' } };
      expect((await t.call('POST', `/api/notification/topics/${topic.id}/notify`, body, { auth: false })).status).toBe(401);
      const r = await t.call('POST', `/api/notification/topics/${topic.id}/notify`, body);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.data).toHaveLength(3);
      await smtp.mailTo('eve@example.com');
      await smtp.mailTo('fay@example.com');
      expect(telegram.messages.some((m) => String(m.chat_id) === '616161' && m.text.includes('Everything half price.'))).toBe(true);
      expect(smtp.mails.some((m) => m.to.includes('gil@example.com'))).toBe(false);
      const links = await t.call('GET', `/api/notification/topics-to-notifications?filters[and][0][column]=topicId&filters[and][0][method]=eq&filters[and][0][value]=${topic.id}`);
      expect(links.body.data.map((l: { notificationId: string }) => l.notificationId).sort()).toEqual(r.body.data.map((s: { id: string }) => s.id).sort());
      expect((await t.call('POST', `/api/notification/topics/${topic.id}/notify`, { data: { title: 'x', text: 'y', template: 'nope' } })).status).toBe(400);
    });

    it("a topic message's template gets the data it draws, and a module's own templates are not for topics: 400s that send nothing", async () => {
      const topic = (await t.call('POST', '/api/notification/topics', { data: { title: { en: 'Orders' } } })).body.data;
      const sub = await subject('hal@example.com', undefined);
      expect((await t.call('POST', '/api/rbac/subjects-to-notification-module-topics', { data: { notificationModuleTopicId: topic.id, subjectId: sub } })).status).toBe(201);
      const notify = (data: Record<string, unknown>) => t.call('POST', `/api/notification/topics/${topic.id}/notify`, { data: { title: 'Hello', text: 'Some text', ...data } });
      const sent = async () => (await t.call('GET', '/api/notification/notifications/count')).body.data as number;
      const before = await sent();
      const refusals: [Record<string, unknown>, string, string][] = [
        [{ template: 'order-status-changed' }, 'data', 'required'],
        [{ template: 'order-status-changed', data: { status: 'Paid' } }, 'data.orderId', 'required'],
        [{ template: 'order-status-changed', data: { orderId: 'x', status: 'Paid', url: 'javascript:alert(1)' } }, 'data.url', 'pattern'],
        [{ template: 'crm-form-request', data: { fields: {} } }, 'data.formTitle', 'required'],
        [{ template: 'agent-result', data: { agent: 'a', status: 'ok', colour: 'red' } }, 'data.colour', 'unknown'],
        [{ template: 'default', data: { orderId: 'x' } }, 'data', 'unknown'],
        [{ template: 'reset-password' }, 'template', 'enum'],
        [{ template: 'verify-email' }, 'template', 'enum'],
        [{ template: 'account-changed' }, 'template', 'enum'],
      ];
      for (const [body, field, rule] of refusals) {
        const r = await notify(body);
        expect(r.status, JSON.stringify(body)).toBe(400);
        expect(r.body.cause, JSON.stringify(body)).toEqual(expect.arrayContaining([expect.objectContaining({ field, rule })]));
      }
      expect(await sent()).toBe(before);
      const ok = await notify({ template: 'order-status-changed', data: { orderId: 'A-1', status: 'Shipped', url: 'https://shop.example/orders' } });
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
      const mail = textOf((await smtp.mailTo('hal@example.com')).raw);
      expect(mail).toContain('A-1');
      expect(mail).toContain('Shipped');
    });

    it('a CRM form request notifies the admins (ADMIN_EMAILS and the admin role) with the crm-form-request template', async () => {
      const admin = await subject('root@example.com', '818181');
      const role = (await t.call('GET', '/api/rbac/roles?filters[and][0][column]=slug&filters[and][0][method]=eq&filters[and][0][value]=admin')).body.data[0];
      expect((await t.call('POST', '/api/rbac/subjects-to-roles', { data: { subjectId: admin, roleId: role.id } })).status).toBe(201);
      const form = (await t.call('POST', '/api/crm/forms', { data: { title: { en: 'Contact us' } } })).body.data;
      const input = (await t.call('POST', '/api/crm/inputs', { data: { type: 'text', name: 'message' } })).body.data;
      await t.call('POST', '/api/crm/forms-to-inputs', { data: { formId: form.id, inputId: input.id } });
      expect((await t.call('POST', `/api/crm/forms/${form.id}/requests`, { data: { message: 'Call me <b>now</b>' } }, { auth: false })).status).toBe(201);
      for (const to of ['boss@example.com', 'root@example.com']) {
        const mail = textOf((await smtp.mailTo(to)).raw);
        expect(mail).toContain('Subject: New request: Contact us');
        expect(mail).toContain('message: Call me <b>now</b>');
        expect(mail).toContain('Call me &lt;b&gt;now&lt;/b&gt;');
      }
      await vi.waitFor(() => expect(telegram.messages.some((m) => String(m.chat_id) === '818181' && m.text.includes('message: Call me &lt;b&gt;now&lt;/b&gt;'))).toBe(true), { timeout: 10_000 });
    });
  });
}
