import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { HttpError, badRequest } from '../../../runtime/http/errors.js';

/**
 * How old a Login Widget payload may be: the widget posts it right after the person confirms (F11: a day let one
 * payload, from a log or a shared screen, sign in again and again; each is now also used once)
 */
export const TELEGRAM_MAX_AGE_SECONDS = 10 * 60;

export interface TelegramUser {
  id: string;
  username?: string;
  firstName?: string;
  lastName?: string;
  /** the payload's signature: what makes it usable once */
  hash: string;
  /** when the payload is too old to sign in with */
  expiresAt: Date;
}

/**
 * Verifies a Telegram Login Widget payload: the HMAC-SHA256 of its data-check string, keyed by the
 * SHA-256 of the bot token, and the freshness of auth_date.
 */
export function verifyTelegramLogin(botToken: string | undefined, payload: unknown, now = Date.now()): TelegramUser {
  if (!botToken) throw new HttpError(404, 'Telegram sign-in is not configured (TELEGRAM_BOT_TOKEN)');
  if (!payload || typeof payload !== 'object' || Array.isArray(payload)) throw badRequest('Data is undefined');
  const data = payload as Record<string, unknown>;
  const { hash, ...fields } = data;
  if (typeof hash !== 'string' || !/^[0-9a-f]{64}$/.test(hash)) throw badRequest('hash is required', [{ field: 'hash', rule: 'required', message: 'hash is required' }]);
  for (const [k, v] of Object.entries(fields)) {
    if (!/^[a-z_]{1,32}$/.test(k) || !['string', 'number'].includes(typeof v)) throw badRequest(`${k} is not a Telegram login field`);
  }
  if (fields.id === undefined || fields.auth_date === undefined) throw badRequest('id and auth_date are required');
  const checkString = Object.keys(fields).sort().map((k) => `${k}=${fields[k]}`).join('\n');
  const key = createHash('sha256').update(botToken).digest();
  const expected = Buffer.from(createHmac('sha256', key).update(checkString).digest('hex'));
  if (!timingSafeEqual(expected, Buffer.from(hash))) throw new HttpError(401, 'Not authorized: the Telegram signature does not match');
  const authDate = Number(fields.auth_date);
  const age = now / 1000 - authDate;
  if (!Number.isFinite(authDate) || age > TELEGRAM_MAX_AGE_SECONDS || age < -60) throw new HttpError(401, 'Not authorized: the Telegram login is too old');
  return {
    id: String(fields.id),
    username: fields.username as string | undefined,
    firstName: fields.first_name as string | undefined,
    lastName: fields.last_name as string | undefined,
    hash,
    expiresAt: new Date((authDate + TELEGRAM_MAX_AGE_SECONDS) * 1000),
  };
}
