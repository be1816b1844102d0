import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { getAddress, isAddress, verifyMessage, type Hex } from 'viem';
import { HttpError, badRequest } from '../../../runtime/http/errors.js';

export const NONCE_TTL_SECONDS = 10 * 60;
export const WALLET_MESSAGE_MIN = 8;
const NONCE_RE = /([A-Za-z0-9_-]{22})\.(\d{10})\.([A-Za-z0-9_-]{43})/;

const mac = (secret: string, body: string) => createHmac('sha256', secret).update('wallet-nonce:' + body).digest('base64url');

/** a nonce the server can recognise without storing it: random.expiry.hmac */
export function issueNonce(secret: string, now = Date.now()): string {
  const body = `${randomBytes(16).toString('base64url')}.${Math.floor(now / 1000) + NONCE_TTL_SECONDS}`;
  return `${body}.${mac(secret, body)}`;
}

/** the nonce a signed message carries, if it is one the server issued and it has not expired */
export function nonceIn(secret: string, message: string, now = Date.now()): { nonce: string; expiresAt: Date } {
  const m = NONCE_RE.exec(message);
  if (!m) throw badRequest('The message must carry a nonce from authentication/init', [{ field: 'message', rule: 'nonce', message: 'message has no nonce' }]);
  const expected = Buffer.from(mac(secret, `${m[1]}.${m[2]}`));
  const given = Buffer.from(m[3]);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw new HttpError(401, 'Not authorized: unknown nonce');
  const expiresAt = new Date(Number(m[2]) * 1000);
  if (expiresAt.getTime() <= now) throw new HttpError(401, 'Not authorized: the nonce has expired');
  return { nonce: m[0], expiresAt };
}

export interface WalletSignIn {
  message?: unknown;
  signature?: unknown;
  address?: unknown;
}

/** checks the body's shape and the signature (viem); returns the checksummed address */
export async function verifyWalletSignature(body: WalletSignIn): Promise<{ address: string; message: string }> {
  if (body.address === undefined || body.address === null || body.address === '') throw new HttpError(404, 'No account found');
  if (typeof body.address !== 'string' || !isAddress(body.address, { strict: false })) {
    throw badRequest('address must be an Ethereum address', [{ field: 'address', rule: 'format', message: 'address must be an Ethereum address' }]);
  }
  if (typeof body.message !== 'string' || body.message.length < WALLET_MESSAGE_MIN) {
    throw badRequest(`message must be a string of at least ${WALLET_MESSAGE_MIN} characters`, [{ field: 'message', rule: 'minLength', message: `message must have at least ${WALLET_MESSAGE_MIN} characters` }]);
  }
  if (typeof body.signature !== 'string' || !/^0x[0-9a-fA-F]+$/.test(body.signature)) {
    throw badRequest('signature must be a hex string', [{ field: 'signature', rule: 'format', message: 'signature must be 0x-prefixed hex' }]);
  }
  const address = getAddress(body.address);
  let valid = false;
  try {
    valid = await verifyMessage({ address, message: body.message, signature: body.signature as Hex });
  } catch {
    valid = false;
  }
  if (!valid) throw new HttpError(401, 'Not authorized: the signature does not match the address');
  return { address, message: body.message };
}
