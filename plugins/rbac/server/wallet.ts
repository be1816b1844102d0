import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Hex } from 'viem';

/**
 * viem, loaded on the first wallet sign-in rather than at start: it is the largest import of the server, and
 * most starts never see a wallet. `walletReady()` resolves once it is loaded; the checks below need it.
 */
let viem: typeof import('viem') | undefined;
let siwe: typeof import('viem/siwe') | undefined;
export async function walletReady() {
  if (!viem || !siwe) [viem, siwe] = await Promise.all([import('viem'), import('viem/siwe')]);
}
const loaded = () => {
  if (!viem || !siwe) throw new Error('wallet checks need `await walletReady()` first');
  return { ...viem, ...siwe };
};
import { HttpError, badRequest } from '../../../runtime/http/errors.js';

export const NONCE_TTL_SECONDS = 10 * 60;
export const WALLET_MESSAGE_MIN = 8;
/** how far in the future a message's Issued At may be (clock skew between wallet and server) */
export const ISSUED_AT_SKEW_MS = 60 * 1000;
/** chains a Sign-In with Ethereum message may name unless the plugin is told otherwise: Ethereum mainnet */
export const DEFAULT_CHAIN_IDS = [1];

/**
 * A nonce is random (24 hex) + expiry (10 digits, unix seconds) + HMAC (32 hex): all alphanumeric,
 * as EIP-4361 asks (`[a-zA-Z0-9]{8,}`), and fixed-width, so the parts need no separator.
 */
const NONCE_RE = /^([0-9a-f]{24})(\d{10})([0-9a-f]{32})$/;

const mac = (secret: string, body: string) => createHmac('sha256', secret).update('wallet-nonce:' + body).digest('hex').slice(0, 32);

/** a nonce the server can recognise without storing it */
export function issueNonce(secret: string, now = Date.now()): string {
  const body = `${randomBytes(12).toString('hex')}${Math.floor(now / 1000) + NONCE_TTL_SECONDS}`;
  return `${body}${mac(secret, body)}`;
}

/** the nonce, if it is one the server issued and it has not expired */
export function nonceIn(secret: string, nonce: string | undefined, now = Date.now()): { nonce: string; expiresAt: Date } {
  const m = NONCE_RE.exec(nonce ?? '');
  if (!m) throw new HttpError(401, 'Not authorized: unknown nonce');
  const expected = Buffer.from(mac(secret, m[1] + m[2]));
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

export interface SiweExpectations {
  /** the server's public address (PUBLIC_URL): its host is the message's domain, its origin the uri's */
  publicUrl: string;
  /** chain ids the message may name */
  chainIds: number[];
  /** signs and checks nonces */
  secret: string;
  now?: number;
}

const refused = (why: string) => new HttpError(401, `Not authorized: ${why}`);

/**
 * Checks a Sign-In with Ethereum (EIP-4361) message against this site: it must be exactly the
 * message viem would write from its own fields (nothing appended or slipped into the statement),
 * for this domain and origin, an accepted chain, the given address, a nonce this server issued,
 * issued within the nonce's lifetime and not expired.
 */
export function checkSiweMessage(message: string, address: string, expect: SiweExpectations): { nonce: string; expiresAt: Date } {
  const { createSiweMessage, parseSiweMessage, validateSiweMessage, isAddressEqual } = loaded();
  const now = expect.now ?? Date.now();
  const site = new URL(expect.publicUrl);
  const fields = parseSiweMessage(message);
  let canonical: string | undefined;
  try {
    canonical = fields.address && fields.domain && fields.uri && fields.nonce && fields.chainId !== undefined && fields.version && fields.issuedAt
      ? createSiweMessage(fields as Parameters<typeof import('viem/siwe').createSiweMessage>[0])
      : undefined;
  } catch {
    canonical = undefined;
  }
  if (canonical !== message) {
    throw badRequest('message must be a Sign-In with Ethereum (EIP-4361) message', [
      { field: 'message', rule: 'siwe', message: 'message must be a Sign-In with Ethereum (EIP-4361) message' },
    ]);
  }
  if (fields.domain !== site.host) throw refused('the message is for another domain');
  if (fields.scheme !== undefined && `${fields.scheme}:` !== site.protocol) throw refused('the message is for another domain');
  let uri: URL | undefined;
  try {
    uri = new URL(fields.uri!);
  } catch {
    uri = undefined;
  }
  if (!uri || uri.origin !== site.origin) throw refused('the message is for another site');
  if (!expect.chainIds.includes(fields.chainId!)) throw refused(`the message names chain ${fields.chainId}, not one of ${expect.chainIds.join(', ')}`);
  if (!isAddressEqual(fields.address!, address as Hex)) throw refused('the message is signed for another address');
  const nonce = nonceIn(expect.secret, fields.nonce, now);
  const issuedAt = fields.issuedAt!.getTime();
  if (!(issuedAt <= now + ISSUED_AT_SKEW_MS) || issuedAt < nonce.expiresAt.getTime() - NONCE_TTL_SECONDS * 1000 - ISSUED_AT_SKEW_MS) {
    throw refused('the message was not issued now');
  }
  if (!validateSiweMessage({ message: fields, domain: site.host, nonce: nonce.nonce, address: address as Hex, time: new Date(now) })) {
    throw refused('the message has expired or is not valid yet');
  }
  return nonce;
}

/** the body's shape: an address (else 'No account found'), a message of at least 8 characters, a hex signature */
export function walletBody(body: WalletSignIn): { address: string; message: string; signature: Hex } {
  const { isAddress, getAddress } = loaded();
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
  return { address: getAddress(body.address), message: body.message, signature: body.signature as Hex };
}

/** checks the body's shape and the signature (viem); returns the checksummed address */
export async function verifyWalletSignature(body: WalletSignIn): Promise<{ address: string; message: string }> {
  await walletReady();
  const { verifyMessage } = loaded();
  const { address, message, signature } = walletBody(body);
  let valid = false;
  try {
    valid = await verifyMessage({ address: address as Hex, message, signature });
  } catch {
    valid = false;
  }
  if (!valid) throw new HttpError(401, 'Not authorized: the signature does not match the address');
  return { address, message };
}
