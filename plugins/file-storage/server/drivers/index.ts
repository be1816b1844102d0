import { join } from 'node:path';
import { PROVIDERS, type StorageDriver, type StorageProvider } from './driver.js';
import { localDriver } from './local.js';
import { s3Driver } from './s3.js';
import { vercelBlobDriver } from './vercel-blob.js';

export { localDriver, s3Driver, vercelBlobDriver };
export * from './driver.js';

/**
 * The driver FILE_STORAGE_PROVIDER names (README: environment): 'local' (default, FILE_STORAGE_DIR),
 * 'aws-s3' (FILE_STORAGE_S3_BUCKET, …) or 'vercel-blob' (BLOB_READ_WRITE_TOKEN). A missing setting stops the
 * start with a message naming it.
 */
export function driverFromEnv(env: NodeJS.ProcessEnv = process.env): StorageDriver {
  const provider = (env.FILE_STORAGE_PROVIDER || 'local') as StorageProvider;
  if (!PROVIDERS.includes(provider)) throw new Error(`FILE_STORAGE_PROVIDER must be one of ${PROVIDERS.join(', ')}, got '${provider}'`);
  const required = (name: string) => {
    const v = env[name];
    if (!v) throw new Error(`${name} is required when FILE_STORAGE_PROVIDER=${provider}`);
    return v;
  };
  const publicUrl = env.FILE_STORAGE_PUBLIC_URL || undefined;
  if (publicUrl && !publicUrl.startsWith('https://')) throw new Error('FILE_STORAGE_PUBLIC_URL must start with https://');
  switch (provider) {
    case 'aws-s3':
      return s3Driver({
        bucket: required('FILE_STORAGE_S3_BUCKET'),
        region: env.FILE_STORAGE_S3_REGION || env.AWS_REGION || undefined,
        endpoint: env.FILE_STORAGE_S3_ENDPOINT || undefined,
        forcePathStyle: env.FILE_STORAGE_S3_FORCE_PATH_STYLE ? env.FILE_STORAGE_S3_FORCE_PATH_STYLE === 'true' : undefined,
        accessKeyId: env.FILE_STORAGE_S3_ACCESS_KEY_ID || undefined,
        secretAccessKey: env.FILE_STORAGE_S3_SECRET_ACCESS_KEY || undefined,
        publicUrl,
      });
    case 'vercel-blob':
      return vercelBlobDriver({ token: required('BLOB_READ_WRITE_TOKEN') });
    default:
      return localDriver(env.FILE_STORAGE_DIR || join('data', 'files'));
  }
}
