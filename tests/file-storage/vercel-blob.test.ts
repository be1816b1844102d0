import { vercelBlobDriver } from '../../plugins/file-storage/server/drivers/index.js';
import { startVercelBlobFake } from '../helpers/vercel-blob-fake.js';
import { runStorageCases } from './storage.case.js';

/** against a local fake of the Vercel Blob API (no Vercel here), reached through @vercel/blob itself */
runStorageCases('vercel-blob', async () => {
  const fake = await startVercelBlobFake();
  const previous = process.env.VERCEL_BLOB_API_URL;
  process.env.VERCEL_BLOB_API_URL = fake.url;
  return {
    driver: vercelBlobDriver({ token: fake.token }),
    servesOwnUrls: true,
    keys: async () => [...fake.blobs.keys()].sort(),
    bytes: async (key) => fake.blobs.get(key)?.bytes,
    async close() {
      if (previous === undefined) delete process.env.VERCEL_BLOB_API_URL;
      else process.env.VERCEL_BLOB_API_URL = previous;
      await fake.close();
    },
  };
});
