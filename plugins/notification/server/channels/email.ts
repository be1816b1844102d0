import type { Transporter } from 'nodemailer';
import type { Channel } from './channel.js';

/** email over SMTP_URL (nodemailer): the HTML of the template with its plain-text part */
export function emailChannel(smtpUrl: string | undefined, from: string): Channel {
  let transport: Transporter | undefined;
  return {
    name: 'email',
    configured: Boolean(smtpUrl),
    async send({ to, subject, text, html }) {
      // loaded on the first mail, not at start
      transport ??= (await import('nodemailer')).default.createTransport(smtpUrl);
      await transport.sendMail({ from, to, subject, text, html });
    },
  };
}
