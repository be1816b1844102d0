import { HttpError } from '../../../runtime/http/errors.js';
import { dimensionsOf } from './dimensions.js';

/** what may be stored, by the type its bytes show (never by its name or declared type) */
export const ALLOWED: Record<string, { ext: string; inline: boolean }> = {
  'image/png': { ext: 'png', inline: true },
  'image/jpeg': { ext: 'jpg', inline: true },
  'image/gif': { ext: 'gif', inline: true },
  'image/webp': { ext: 'webp', inline: true },
  'image/avif': { ext: 'avif', inline: true },
  'video/mp4': { ext: 'mp4', inline: true },
  'video/webm': { ext: 'webm', inline: true },
  'application/pdf': { ext: 'pdf', inline: false },
};
export const BY_EXT: Record<string, { mime: string; ext: string; inline: boolean }> = Object.fromEntries(Object.entries(ALLOWED).map(([mime, v]) => [v.ext, { mime, ...v }]));

/** what the bytes of a file are: the row fields size, extension, mimeType, width and height */
export interface Judged {
  mimeType: string;
  extension: string;
  size: number;
  width?: number;
  height?: number;
}

/**
 * Judges a file by its bytes: an allowed image, video or PDF, with its size and, for images and mp4, its
 * pixel size. Anything else (HTML, SVG, scripts, whatever their name) is a 415 naming the field.
 */
export async function judge(bytes: Uint8Array, field = 'file'): Promise<Judged> {
  const { fileTypeFromBuffer } = await import('file-type'); // loaded on the first upload, not at start
  const type = await fileTypeFromBuffer(bytes);
  const allowed = type && ALLOWED[type.mime];
  if (!type || !allowed) {
    throw new HttpError(415, `${field} must be an image (png, jpeg, gif, webp, avif), a video (mp4, webm) or a PDF; its content is ${type?.mime ?? 'not one of them'}`, [
      { field, rule: 'type', message: 'file type is not allowed' },
    ]);
  }
  const size = dimensionsOf(bytes, type.mime);
  return { mimeType: type.mime, extension: allowed.ext, size: bytes.length, ...(size && { width: size.width, height: size.height }) };
}
