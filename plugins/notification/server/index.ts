import type { Plugin, PluginContext } from '../../../runtime/plugin.js';
import { emailChannel } from './channels/email.js';
import { telegramChannel } from './channels/telegram.js';
import { notificationService, type NotificationService } from './service.js';
import { notificationRoutes } from './routes.js';

export type { NotificationService, EmailMessage, Message, Sent } from './service.js';
export { renderTemplate, templates, TEMPLATE_VARIANTS } from './templates/index.js';

export interface NotificationOptions {
  /** the Bot API's address (default TELEGRAM_API_URL, else https://api.telegram.org) */
  telegramApiUrl?: string;
}

/**
 * The notification module: templates (React components rendered to an HTML email and plain text), two channels
 * (email over SMTP_URL, Telegram over TELEGRAM_BOT_TOKEN), scheduling and retries with backoff, and sending to
 * subjects, topics and admins, for the other modules through ctx.services.notification.
 */
export function createNotificationPlugin(options: NotificationOptions = {}): Plugin {
  const services = new WeakMap<PluginContext, NotificationService>();
  const serviceOf = (ctx: PluginContext) => {
    let s = services.get(ctx);
    if (!s) {
      const channels = {
        email: emailChannel(ctx.config.smtpUrl, ctx.config.mailFrom),
        telegram: telegramChannel(ctx.config.telegramBotToken, options.telegramApiUrl ?? process.env.TELEGRAM_API_URL),
      };
      services.set(ctx, (s = notificationService(ctx, channels)));
    }
    return s;
  };
  return {
    name: 'notification',
    services: (ctx) => ({ notification: serviceOf(ctx) }),
    routes: (app, ctx) => notificationRoutes(app, ctx, serviceOf(ctx)),
  };
}

export const notification = createNotificationPlugin();
