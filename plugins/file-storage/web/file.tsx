import { FileText } from 'lucide-react';
import { useT, type Expanded } from '../../../web/storefront/context.js';
import { cn } from '../../../web/ui/cn.js';
import { isSafeFile } from '../../../engine/links.js';

const IMAGE_EXTENSIONS = ['png', 'jpg', 'jpeg', 'gif', 'webp', 'avif', 'svg', 'bmp', 'ico'];
const VIDEO_EXTENSIONS = ['mp4', 'webm', 'ogg', 'ogv', 'mov', 'm4v'];

const str = (v: unknown) => (typeof v === 'string' ? v : '');

/**
 * Where a stored file is served from: an https url or an absolute path is used as is; anything
 * else (a stored name) is prefixed with the public files location (spec §9).
 */
export function fileUrl(file: unknown): string {
  const url = str(file).trim();
  // checked again as drawn (rows stored before the check): another site or scheme is never linked
  if (!url || !isSafeFile(url)) return '';
  if (url.startsWith('https') || url.startsWith('/')) return url;
  return `/files/${url}`;
}

/** the extension of the row (its field, else the url's), lower case without the dot */
function extensionOf(row: Expanded): string {
  const own = str(row.extension).replace(/^\./, '').toLowerCase();
  if (own) return own;
  const m = /\.([a-z0-9]+)(?:[?#].*)?$/i.exec(str(row.file));
  return m ? m[1].toLowerCase() : '';
}

/** 'image', 'video' or 'other', by the mime type, else by the extension; unknown files are shown as images */
export function fileKind(row: Expanded): 'image' | 'video' | 'other' {
  const mime = str(row.mimeType).toLowerCase();
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('video/')) return 'video';
  if (mime) return 'other';
  const ext = extensionOf(row);
  if (VIDEO_EXTENSIONS.includes(ext)) return 'video';
  if (!ext || IMAGE_EXTENSIONS.includes(ext)) return 'image';
  return 'other';
}

const dimension = (v: unknown) => (typeof v === 'number' && v > 0 ? v : undefined);

/**
 * file-storage/file 'default' (and the generate-template-* variants): an image, a video with
 * controls, or, for other files (PDF), a download link. containerClassName wraps the media.
 */
export function FileView({ row }: { row: Expanded }) {
  const t = useT();
  const src = fileUrl(row.file);
  if (!src) return null;
  const alt = t(row.alt);
  const kind = fileKind(row);
  const className = str(row.className);
  const size = { width: dimension(row.width), height: dimension(row.height) };
  let media;
  if (kind === 'video') {
    media = (
      <video controls preload="metadata" playsInline className={cn('block max-w-full', className)} aria-label={alt || undefined} {...size}>
        <source src={src} type={str(row.mimeType) || undefined} />
      </video>
    );
  } else if (kind === 'image') {
    media = <img src={src} alt={alt} loading="lazy" decoding="async" className={cn('block max-w-full', className)} {...size} />;
  } else {
    media = (
      <a href={src} download className={cn('inline-flex items-center gap-2 rounded-md border border-slate-200 bg-white px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50', className)}>
        <FileText aria-hidden className="h-4 w-4" />
        {alt || str(row.adminTitle) || src.split('/').pop()}
      </a>
    );
  }
  const container = str(row.containerClassName);
  return container ? <div className={container}>{media}</div> : media;
}
