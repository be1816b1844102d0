import type { Channel } from './channel.js';

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** Telegram's limit for one message's text */
const MAX_TEXT = 4096;

/**
 * Telegram through the Bot API (`POST <api>/bot<token>/sendMessage`, HTML parse mode): the subject in bold,
 * then the template's plain text. The recipient is the chat id (a Telegram identity's account). A refusal
 * answers `{ ok: false, description }`, kept as the row's error.
 */
export function telegramChannel(token: string | undefined, apiUrl = 'https://api.telegram.org'): Channel {
  return {
    name: 'telegram',
    configured: Boolean(token),
    async send({ to, subject, text }) {
      const body = `<b>${escapeHtml(subject)}</b>\n\n${escapeHtml(text)}`;
      const res = await fetch(`${apiUrl.replace(/\/$/, '')}/bot${token}/sendMessage`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ chat_id: to, text: body.length > MAX_TEXT ? body.slice(0, MAX_TEXT - 1) + '…' : body, parse_mode: 'HTML', link_preview_options: { is_disabled: true } }),
        signal: AbortSignal.timeout(15_000),
      });
      let answer: { ok?: boolean; description?: string } = {};
      try {
        answer = (await res.json()) as typeof answer;
      } catch {
        /* not JSON: judged by the status below */
      }
      if (!res.ok || !answer.ok) throw new Error(`Telegram answered ${res.status}: ${answer.description ?? res.statusText}`);
    },
  };
}
