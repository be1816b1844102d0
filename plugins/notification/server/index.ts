import nodemailer, { type Transporter } from 'nodemailer';
import type { Plugin, PluginContext } from '../../../runtime/plugin.js';

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  /** the template variant this message was made from, e.g. 'reset-password' */
  template?: string;
  /** strings (one-time codes, links holding them) kept out of logs and, once delivered, out of the stored row */
  secrets?: string[];
}

export interface NotificationService {
  /**
   * Sends an email over SMTP_URL and records it as a notification row. Without SMTP_URL the row
   * is the outbox: it keeps the whole message, and the log line says where to find it.
   */
  sendEmail(message: EmailMessage): Promise<{ id: string; status: 'sent' | 'new' | 'failed' }>;
}

const redact = (s: string, secrets: string[] = []) => secrets.reduce((acc, x) => (x ? acc.split(x).join('[redacted]') : acc), s);

export function notificationService(ctx: PluginContext): NotificationService {
  const entity = ctx.model.byId['notification/notification'];
  let transport: Transporter | undefined;
  const transporter = () => (transport ??= nodemailer.createTransport(ctx.config.smtpUrl));
  return {
    async sendEmail(message) {
      const row = await ctx.repo.create(entity, {
        method: 'email',
        status: ctx.config.smtpUrl ? 'sending' : 'new',
        title: message.subject,
        recipient: message.to,
        payload: { subject: message.subject, text: ctx.config.smtpUrl ? redact(message.text, message.secrets) : message.text, template: message.template ?? 'default' },
      });
      const id = row.id as string;
      if (!ctx.config.smtpUrl) {
        const text = ctx.config.production ? redact(message.text, message.secrets) : message.text;
        ctx.log.info({ notification: id, to: message.to }, `SMTP_URL is not set: email "${message.subject}" stored as notification ${id}${ctx.config.production ? '' : `:\n${text}`}`);
        return { id, status: 'new' };
      }
      try {
        await transporter().sendMail({ from: ctx.config.mailFrom, to: message.to, subject: message.subject, text: message.text });
        await ctx.repo.update(entity, id, { status: 'sent', sentAt: new Date().toISOString() });
        return { id, status: 'sent' };
      } catch (e) {
        const error = redact((e as Error).message, message.secrets).slice(0, 1000);
        ctx.log.warn({ notification: id, to: message.to, error }, 'email could not be sent');
        await ctx.repo.update(entity, id, { status: 'failed', error });
        return { id, status: 'failed' };
      }
    },
  };
}

/** the notification module: email delivery for the other modules, through ctx.services.notification */
export const notification: Plugin = {
  name: 'notification',
  services: (ctx) => ({ notification: notificationService(ctx) }),
};
