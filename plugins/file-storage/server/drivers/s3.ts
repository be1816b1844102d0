import type { S3Client } from '@aws-sdk/client-s3';

/** the AWS SDK, loaded when a file is first stored or read: most servers never use S3, and it is a large import */
let sdk: Promise<typeof import('@aws-sdk/client-s3')> | undefined;
const loadSdk = () => (sdk ??= import('@aws-sdk/client-s3'));
import { keyIn, type StorageDriver } from './driver.js';

export interface S3Options {
  bucket: string;
  region?: string;
  /** any S3-compatible endpoint (MinIO, R2, s3rver); AWS itself when left out */
  endpoint?: string;
  /** bucket in the path rather than the host name (most S3-compatible servers want it) */
  forcePathStyle?: boolean;
  /** credentials; without them the SDK's default chain (AWS_ACCESS_KEY_ID, …) */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** an https address where the bucket's objects are public (a CDN): rows then keep full urls */
  publicUrl?: string;
}

/** any S3-compatible object store through @aws-sdk/client-s3 */
export function s3Driver(options: S3Options): StorageDriver {
  let made: Promise<S3Client> | undefined;
  const client = () => (made ??= loadSdk().then(({ S3Client }) => new S3Client({
    region: options.region ?? 'us-east-1',
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle ?? Boolean(options.endpoint),
    ...(options.accessKeyId && options.secretAccessKey && { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } }),
  })));
  const base = options.publicUrl?.replace(/\/$/, '');
  const Bucket = options.bucket;
  return {
    name: 'aws-s3',
    readsBack: true,
    // a PUT writes a whole object, over one of the same key when there is one (`replace`)
    async put(key, bytes, mimeType) {
      const { PutObjectCommand } = await loadSdk();
      await (await client()).send(new PutObjectCommand({ Bucket, Key: key, Body: bytes, ContentType: mimeType, CacheControl: 'public, max-age=31536000, immutable' }));
      return base ? `${base}/${key}` : key;
    },
    async get(key) {
      const { GetObjectCommand, S3ServiceException } = await loadSdk();
      try {
        const out = await (await client()).send(new GetObjectCommand({ Bucket, Key: key }));
        return out.Body ? await out.Body.transformToByteArray() : undefined;
      } catch (e) {
        if (e instanceof S3ServiceException && (e.name === 'NoSuchKey' || e.$metadata.httpStatusCode === 404)) return undefined;
        throw e;
      }
    },
    keyOf: (file) => keyIn(file, base),
    async remove(file) {
      const key = keyIn(file, base);
      if (!key) return;
      const { DeleteObjectCommand } = await loadSdk();
      await (await client()).send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
  };
}
