import { s3Driver } from '../../plugins/file-storage/server/drivers/index.js';
import { startS3 } from '../helpers/s3.js';
import { runStorageCases } from './storage.case.js';

/** against a real S3-compatible server (s3rver) on loopback */
runStorageCases('aws-s3', async () => {
  const s3 = await startS3();
  return {
    driver: s3Driver({ bucket: s3.bucket, endpoint: s3.endpoint, region: 'us-east-1', ...s3.credentials }),
    servesOwnUrls: false,
    keys: () => s3.keys(),
    bytes: (key) => s3.bytes(key),
    close: () => s3.close(),
  };
});
