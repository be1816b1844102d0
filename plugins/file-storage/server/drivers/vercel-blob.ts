/** @vercel/blob, loaded on first use */
const blob = () => import('@vercel/blob');
import { STORED_KEY, type StorageDriver } from './driver.js';

/**
 * Vercel Blob through @vercel/blob: objects are public at the https urls the store answers, which rows keep
 * as they are. `token` is the store's BLOB_READ_WRITE_TOKEN; the API address is the library's own
 * (VERCEL_BLOB_API_URL overrides it, as a proxy or a test's fake does).
 */
export function vercelBlobDriver(options: { token: string }): StorageDriver {
  const { token } = options;
  const ours = (file: string) => {
    try {
      const url = new URL(file);
      const key = url.pathname.slice(1);
      return url.protocol === 'https:' && url.hostname.endsWith('.blob.vercel-storage.com') && STORED_KEY.test(key) ? key : undefined;
    } catch {
      return undefined;
    }
  };
  return {
    name: 'vercel-blob',
    readsBack: false,
    async put(key, bytes, mimeType, options) {
      const stored = await (await blob()).put(key, Buffer.from(bytes), { access: 'public', token, contentType: mimeType, addRandomSuffix: false, allowOverwrite: !!options?.replace, cacheControlMaxAge: 31536000 });
      return stored.url;
    },
    // the store serves its objects itself
    get: async () => undefined,
    keyOf: ours,
    async remove(file) {
      if (ours(file)) await (await blob()).del(file, { token });
    },
  };
}
