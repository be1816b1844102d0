import { describe, it, expect } from 'vitest';
import { dimensionsOf } from '../../plugins/file-storage/server/dimensions.js';
import { driverFromEnv } from '../../plugins/file-storage/server/drivers/index.js';
import { gif, png } from './storage.case.js';

const hex = (s: string) => Buffer.from(s.replace(/\s+/g, ''), 'hex');

describe('pixel sizes read from the bytes', () => {
  it('png, gif, jpeg (after other segments), webp VP8X, and an mp4 track header', () => {
    expect(dimensionsOf(png(640, 480), 'image/png')).toEqual({ width: 640, height: 480 });
    expect(dimensionsOf(gif, 'image/gif')).toEqual({ width: 7, height: 5 });
    // SOI, an APP0 segment of 16 bytes, then SOF0: precision 8, height 0x0102, width 0x0304
    const jpeg = hex('ffd8 ffe0 0010 4a46494600 0101 00 0001 0001 00 00 ffc0 0011 08 0102 0304 03 012200 021101 031101 ffd9');
    expect(dimensionsOf(jpeg, 'image/jpeg')).toEqual({ width: 0x0304, height: 0x0102 });
    // RIFF … WEBP VP8X: canvas width-1 and height-1 as 24-bit little-endian numbers
    const webp = hex('52494646 1e000000 57454250 56503858 0a000000 10000000 ff0100 0f0100 00000000');
    expect(dimensionsOf(webp, 'image/webp')).toEqual({ width: 0x1ff + 1, height: 0x10f + 1 });
    // ftyp, then moov > trak > tkhd (version 0) whose last two words are 1280.0 and 720.0 in 16.16 fixed point
    const tkhd = Buffer.concat([hex('0000005c 746b6864 00000003'), Buffer.alloc(72), hex('05000000 02d00000')]);
    const trak = Buffer.concat([hex((8 + tkhd.length).toString(16).padStart(8, '0') + '7472616b'), tkhd]);
    const moov = Buffer.concat([hex((8 + trak.length).toString(16).padStart(8, '0') + '6d6f6f76'), trak]);
    const mp4 = Buffer.concat([hex('00000014 66747970 69736f6d 00000200 69736f6d'), moov]);
    expect(dimensionsOf(mp4, 'video/mp4')).toEqual({ width: 1280, height: 720 });
  });

  it('no size for truncated or foreign bytes, and none for a PDF', () => {
    expect(dimensionsOf(hex('89504e47'), 'image/png')).toBeUndefined();
    expect(dimensionsOf(hex('ffd8ffe0'), 'image/jpeg')).toBeUndefined();
    expect(dimensionsOf(Buffer.from('%PDF-1.4'), 'application/pdf')).toBeUndefined();
  });
});

describe('FILE_STORAGE_PROVIDER', () => {
  it('is local by default and names what is missing for the others', () => {
    expect(driverFromEnv({ FILE_STORAGE_DIR: '.tmp/files-env' }).name).toBe('local');
    expect(() => driverFromEnv({ FILE_STORAGE_PROVIDER: 'ftp' })).toThrow(/must be one of local, aws-s3, vercel-blob/);
    expect(() => driverFromEnv({ FILE_STORAGE_PROVIDER: 'aws-s3' })).toThrow(/FILE_STORAGE_S3_BUCKET is required/);
    expect(() => driverFromEnv({ FILE_STORAGE_PROVIDER: 'vercel-blob' })).toThrow(/BLOB_READ_WRITE_TOKEN is required/);
    expect(driverFromEnv({ FILE_STORAGE_PROVIDER: 'aws-s3', FILE_STORAGE_S3_BUCKET: 'b', FILE_STORAGE_S3_ENDPOINT: 'http://127.0.0.1:9' }).name).toBe('aws-s3');
    expect(() => driverFromEnv({ FILE_STORAGE_PUBLIC_URL: 'http://cdn.example.com' })).toThrow(/must start with https/);
  });
});
