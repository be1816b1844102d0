import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const PARAMS: ScryptOptions = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEY_LENGTH = 32;
export const PASSWORD_MIN = 8;

const derive = (password: string, salt: string) =>
  new Promise<Buffer>((resolve, reject) => scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, PARAMS, (e, key) => (e ? reject(e) : resolve(key))));

/** a slow, salted hash (scrypt) of a password: what the identity stores as password and salt */
export async function hashPassword(password: string): Promise<{ password: string; salt: string }> {
  const salt = randomBytes(16).toString('base64url');
  return { password: (await derive(password, salt)).toString('base64url'), salt };
}

export async function verifyPassword(password: string, stored: { password?: string | null; salt?: string | null }): Promise<boolean> {
  if (!stored.password || !stored.salt) {
    await derive(password, 'no-such-identity'); // the same work either way: timing does not tell accounts apart
    return false;
  }
  const key = await derive(password, stored.salt);
  const expected = Buffer.from(stored.password, 'base64url');
  return expected.length === key.length && timingSafeEqual(key, expected);
}
