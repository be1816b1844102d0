import { and, asc, eq, inArray, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm';
import { lockKey } from '../../../runtime/db/lock.js';
import type { PluginContext } from '../../../runtime/plugin.js';
import type { Drizzle } from '../../../runtime/db/index.js';
import { renderTemplate, templates } from './templates/index.js';
import type { Channel } from './channels/channel.js';
import { recipientsOf, subjectsWithRole, subscribersOf, uniqueRecipients, type Recipient } from './recipients.js';

type Row = Record<string, unknown>;

/** what a module asks to send, before it is addressed */
export interface Message {
  /** the template variant ('reset-password', 'crm-form-request', 'order-status-changed', …); 'default' lays out `text` */
  template?: string;
  /** the subject line; a template makes one from its data when left out */
  subject?: string;
  /** the body as plain text (paragraphs separated by blank lines; urls become links) */
  text?: string;
  /** the template's own values */
  data?: Record<string, unknown>;
  /** not sent before this time */
  sendAfter?: Date | string;
  /** strings (one-time codes, links holding them) kept out of logs and removed from the stored row once it is delivered */
  secrets?: string[];
  /** the recipient's language (a configured one), which the template's own words are in; the sender writes `subject` and `text` in it */
  language?: string;
}

export interface EmailMessage extends Message {
  to: string;
  subject: string;
  text: string;
}

/**
 * One entry of a digest: many events mailed to one address as one message, sent a while after the first (an admin
 * gets one mail about the orders of ten minutes, not one per order)
 */
export interface DigestEntry {
  /** the email address the digest goes to */
  to: string;
  /** what the digest collects ('ecommerce-orders'): an address has one pending digest per key */
  key: string;
  /** this event's text (a paragraph or a few lines); a digest lists its entries oldest first */
  entry: string;
  /** the digest's subject, for the number of entries it holds */
  subject: (count: number) => string;
  /** text under the entries (a link to the admin) */
  footer?: string;
  /** how long the digest waits for more entries after its first: it is sent this long after it is made */
  windowMs: number;
  /** the recipient's language, which the template's own words are in */
  language?: string;
}

export interface Sent {
  id: string;
  /** 'sent'; 'new' while it waits (scheduled, its channel not set up, or a retry pending); 'failed' once given up */
  status: 'sent' | 'new' | 'failed' | 'sending';
}

export interface NotificationService {
  /**
   * Sends an email (kept for the accounts module and the shop): rendered with the template, recorded as a
   * notification row, delivered at once over SMTP_URL. Without SMTP_URL the row is the outbox.
   */
  sendEmail(message: EmailMessage): Promise<Sent>;
  /** one notification on one channel */
  send(recipient: Recipient, message: Message, tx?: Drizzle): Promise<Sent>;
  /** to every address of a subject (its emails and Telegram accounts) */
  toSubject(subjectId: string, message: Message): Promise<Sent[]>;
  /** to every subscriber of a topic; each notification is linked to the topic */
  toTopic(topicId: string, message: Message): Promise<Sent[]>;
  /** to the admins: ADMIN_EMAILS and the subjects holding the admin role */
  toAdmins(message: Message): Promise<Sent[]>;
  /**
   * Adds an entry to the address's pending digest of that key, or makes one sent `windowMs` from now: one row, found
   * and written under a lock on (key, address), so two processes never make two digests of one window; one that
   * delivery already claimed is left alone and a new one begins.
   */
  digest(entry: DigestEntry): Promise<Sent>;
  /** delivers what is due (scheduled and retried notifications); the agent 'send-due-notifications' runs it */
  deliverDue(options?: { now?: Date; limit?: number }): Promise<{ sent: number; retried: number; failed: number }>;
}

/** attempts before a notification is given up */
export const MAX_ATTEMPTS = 5;
/** the wait before attempt n + 1: 30 s, 2 min, 8 min, 32 min */
export const backoffMs = (attempts: number) => 30_000 * 4 ** (attempts - 1);
/** a row left 'sending' this long (its process stopped mid-send) is tried again */
const STALE_SENDING_MS = 10 * 60_000;
/** entries a digest lists; later ones are counted in its subject and said to be left out (a row stays bounded) */
export const DIGEST_MAX_ENTRIES = 200;

const redactString = (s: string, secrets: string[]) => secrets.reduce((acc, x) => (x ? acc.split(x).join('[redacted]') : acc), s);
function redactDeep(v: unknown, secrets: string[]): unknown {
  if (typeof v === 'string') return redactString(v, secrets);
  if (Array.isArray(v)) return v.map((x) => redactDeep(x, secrets));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, redactDeep(x, secrets)]));
  return v;
}

interface Payload {
  template: string;
  subject: string;
  /** the message as the recipient reads it: the template's plain text (shown to admins in the outbox) */
  text: string;
  /** the sender's own text, which the template lays out again at delivery (rows stored before it have none) */
  body?: string;
  data?: Record<string, unknown>;
  secrets?: string[];
  /** the language the template lays the message out in (rows stored before it have none: English) */
  language?: string;
  /** a digest's state: what it collects, its entries (at most DIGEST_MAX_ENTRIES) and how many it was given */
  digest?: { key: string; entries: string[]; count: number; footer?: string };
}

export function notificationService(ctx: PluginContext, channels: Record<Recipient['method'], Channel>): NotificationService {
  const entity = ctx.model.byId['notification/notification'];
  const t = () => ctx.database.tables['notification/notification'];
  const props = (p: Payload) => ({ subject: p.subject, text: p.body ?? p.text, data: p.data ?? {}, publicUrl: ctx.config.publicUrl, language: p.language });

  /** one attempt at a row that is 'new': claimed by a conditional update, so two processes never both send it */
  async function attempt(id: string, now = new Date()): Promise<Sent['status'] | undefined> {
    const claimed: Row[] = await ctx.database.transaction((tx) =>
      tx.update(t()).set({ status: 'sending', updatedAt: new Date() }).where(and(eq(t().id, id), eq(t().status, 'new'))).returning(),
    );
    const row = claimed[0];
    if (!row) return undefined;
    const channel = channels[row.method as Recipient['method']];
    const payload = row.payload as Payload;
    const secrets = payload.secrets ?? [];
    const attempts = Number(row.attempts ?? 0) + 1;
    const done = (p: Payload) => {
      const { secrets: _, ...rest } = redactDeep(p, secrets) as Payload;
      return rest;
    };
    try {
      const rendered = await renderTemplate(payload.template, props(payload));
      await channel.send({ to: row.recipient as string, subject: rendered.subject, text: rendered.text, html: rendered.html });
      await ctx.repo.update(entity, id, { status: 'sent', sentAt: new Date().toISOString(), attempts, error: null, payload: done(payload) });
      return 'sent';
    } catch (e) {
      const error = redactString((e as Error).message ?? String(e), secrets).slice(0, 1000);
      const last = attempts >= MAX_ATTEMPTS;
      ctx.log.warn({ notification: id, method: row.method, attempts, error }, last ? 'notification given up' : 'notification failed; it will be retried');
      await ctx.repo.update(entity, id, {
        status: last ? 'failed' : 'new',
        attempts,
        error,
        ...(last ? { payload: done(payload) } : { sendAfter: new Date(now.getTime() + backoffMs(attempts)).toISOString() }),
      });
      return last ? 'failed' : 'new';
    }
  }

  async function send(recipient: Recipient, message: Message, tx?: Drizzle, digest?: Payload['digest']): Promise<Sent> {
    const template = message.template && templates[message.template] ? message.template : 'default';
    const language = message.language && ctx.model.languages.includes(message.language) ? message.language : undefined;
    const payload: Payload = { template: message.template ?? template, subject: message.subject ?? '', text: message.text ?? '', ...(message.data && { data: message.data }), ...(language && { language }) };
    // the text stored is the template's, so that an admin reads what the recipient reads; the sender's text is
    // kept as `body` for delivery, which renders the template again (from the rendered text it would say it twice)
    const rendered = await renderTemplate(template, props(payload));
    payload.subject = rendered.subject;
    payload.body = payload.text;
    payload.text = rendered.text;
    payload.template = template === 'default' && message.template ? message.template : template;
    if (message.secrets?.length) payload.secrets = message.secrets;
    if (digest) payload.digest = digest;
    const sendAfter = message.sendAfter ? new Date(message.sendAfter) : undefined;
    const row = await ctx.repo.create(entity, { method: recipient.method, status: 'new', title: rendered.subject, recipient: recipient.to, payload, attempts: 0, ...(sendAfter && { sendAfter: sendAfter.toISOString() }) }, tx);
    const id = row.id as string;
    const channel = channels[recipient.method];
    if (!channel.configured) {
      const shown = ctx.config.production ? redactString(rendered.text, message.secrets ?? []) : rendered.text;
      ctx.log.info({ notification: id, to: recipient.to }, `${recipient.method === 'email' ? 'SMTP_URL' : 'TELEGRAM_BOT_TOKEN'} is not set: "${rendered.subject}" stored as notification ${id}${ctx.config.production ? '' : `:\n${shown}`}`);
      return { id, status: 'new' };
    }
    if (tx || (sendAfter && sendAfter.getTime() > Date.now())) return { id, status: 'new' };
    return { id, status: (await attempt(id)) ?? 'new' };
  }

  /** a digest's subject and text for its state */
  const digestMessage = (d: NonNullable<Payload['digest']>, subject: DigestEntry['subject']) => {
    const left = d.count - d.entries.length;
    const text = [...d.entries, ...(left > 0 ? [`(${left} more not listed)`] : []), ...(d.footer ? [d.footer] : [])].join('\n\n');
    return { subject: subject(d.count), text };
  };

  async function digest({ to, key, entry, subject, footer, windowMs, language }: DigestEntry): Promise<Sent> {
    const address = to.trim();
    return ctx.database.transaction(async (tx: Drizzle) => {
      await lockKey(ctx.database, tx, `notification-digest:${key}:${address.toLowerCase()}`);
      const pending: Row[] = await tx
        .select()
        .from(t())
        .where(and(eq(t().method, 'email'), eq(t().recipient, address), eq(t().status, 'new'), isNotNull(t().sendAfter)))
        .orderBy(asc(t().createdAt));
      const row = pending.find((r) => (r.payload as Payload | null)?.digest?.key === key);
      if (row) {
        const payload = row.payload as Payload;
        const d = payload.digest!;
        const next = { ...d, entries: d.entries.length < DIGEST_MAX_ENTRIES ? [...d.entries, entry] : d.entries, count: d.count + 1, ...(footer && { footer }) };
        const message = digestMessage(next, subject);
        const rendered = await renderTemplate(payload.template, props({ ...payload, subject: message.subject, text: message.text, body: message.text }));
        // only while it is still 'new': once delivery has claimed it, this entry begins the next digest
        const updated: Row[] = await tx
          .update(t())
          .set({ title: rendered.subject, payload: { ...payload, subject: rendered.subject, body: message.text, text: rendered.text, digest: next }, updatedAt: new Date() })
          .where(and(eq(t().id, row.id as string), eq(t().status, 'new')))
          .returning({ id: t().id });
        if (updated.length) return { id: row.id as string, status: 'new' as const };
      }
      const first = { key, entries: [entry], count: 1, ...(footer && { footer }) };
      return send({ method: 'email', to: address }, { ...digestMessage(first, subject), template: 'default', language, sendAfter: new Date(Date.now() + windowMs) }, tx, first);
    });
  }

  const sendAll = async (recipients: Recipient[], message: Message) => {
    const sent: Sent[] = [];
    for (const r of uniqueRecipients(recipients)) sent.push(await send(r, message));
    return sent;
  };

  return {
    send: (recipient, message, tx) => send(recipient, message, tx),
    digest,
    sendEmail: ({ to, ...message }) => send({ method: 'email', to }, message),
    async toSubject(subjectId, message) {
      return sendAll((await recipientsOf(ctx, [subjectId])).get(subjectId) ?? [], message);
    },
    async toTopic(topicId, message) {
      const subjects = await subscribersOf(ctx, topicId);
      const addresses = await recipientsOf(ctx, subjects);
      const sent = await sendAll([...addresses.values()].flat(), message);
      const link = ctx.model.byId['notification/topics-to-notifications'];
      for (const s of sent) await ctx.repo.create(link, { topicId, notificationId: s.id });
      return sent;
    },
    async toAdmins(message) {
      const subjects = await subjectsWithRole(ctx, 'admin');
      const addresses = await recipientsOf(ctx, subjects);
      return sendAll([...ctx.config.adminEmails.map((to): Recipient => ({ method: 'email', to })), ...[...addresses.values()].flat()], message);
    },
    async deliverDue({ now = new Date(), limit = 100 } = {}) {
      const methods = (Object.values(channels) as Channel[]).filter((c) => c.configured).map((c) => c.name);
      const counts = { sent: 0, retried: 0, failed: 0 };
      if (!methods.length) return counts;
      // a claim left 'sending' by a process that died goes back to 'new'; judged by the clock, not by `now` (which
      // says what is due): a run asked about a later time must not take another run's fresh claim for a stale one
      await ctx.database.transaction((tx) =>
        tx.update(t()).set({ status: 'new', updatedAt: new Date() }).where(and(eq(t().status, 'sending'), lt(t().updatedAt, new Date(Date.now() - STALE_SENDING_MS)))),
      );
      const due: { id: string }[] = await ctx.database.db
        .select({ id: t().id })
        .from(t())
        .where(and(eq(t().status, 'new'), inArray(t().method, methods), or(isNull(t().sendAfter), lte(t().sendAfter, now))))
        .orderBy(sql`${t().sendAfter} is not null`, asc(t().sendAfter), asc(t().createdAt))
        .limit(limit);
      for (const { id } of due) {
        const status = await attempt(id, now);
        if (status === 'sent') counts.sent++;
        else if (status === 'new') counts.retried++;
        else if (status === 'failed') counts.failed++;
      }
      return counts;
    },
  };
}
