import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import type { Hono } from 'hono';
import type { Plugin, PluginContext } from '../../../runtime/plugin.js';
import { HttpError, badRequest } from '../../../runtime/http/errors.js';
import type { Drizzle } from '../../../runtime/db/index.js';
import { bodyOverflowed, raiseBodyLimit, tooLarge, UPLOAD_BODY_BYTES } from '../../../runtime/http/limits.js';

/** what may be uploaded, by the type its bytes show (never by its name or declared type) */
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
const BY_EXT = Object.fromEntries(Object.entries(ALLOWED).map(([mime, v]) => [v.ext, { mime, ...v }]));
const STORED_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.([a-z0-9]{2,5})$/;

/** the local storage root; every path used is checked to be inside it */
export function storageRoot() {
  const root = resolve(process.env.FILE_STORAGE_DIR ?? join('data', 'files'));
  mkdirSync(root, { recursive: true });
  return root;
}

function inside(root: string, name: string) {
  const path = resolve(root, name);
  if (!path.startsWith(root + sep)) throw new HttpError(404, 'Not found');
  return path;
}

function routes(app: Hono, ctx: PluginContext) {
  const entity = ctx.model.byId['file-storage/file'];

  /**
   * POST /api/file-storage/files/upload (multipart, part `file`): stores it under a generated name. The body
   * may be as large as UPLOAD_BODY_BYTES only once the caller is authorized (and signed: anonymous
   * bodies stay small whatever happens here); nothing is read before.
   */
  app.post('/api/file-storage/files/upload', async (c) => {
    await ctx.authorize(c, { entity, operation: 'create' });
    raiseBodyLimit(c, UPLOAD_BODY_BYTES);
    let form: Record<string, string | File>;
    try {
      form = (await c.req.parseBody()) as Record<string, string | File>;
    } catch {
      if (bodyOverflowed(c)) throw tooLarge(c.get('bodyLimit'));
      throw badRequest('Send multipart/form-data with a file part named file');
    }
    const file = form.file;
    if (!(file instanceof File)) throw badRequest('file is required', [{ field: 'file', rule: 'required', message: 'file is required' }]);
    const bytes = Buffer.from(await file.arrayBuffer());
    const type = await fileTypeFromBuffer(bytes);
    const allowed = type && ALLOWED[type.mime];
    if (!allowed) {
      throw new HttpError(415, `file must be an image (png, jpeg, gif, webp, avif), a video (mp4, webm) or a PDF; its content is ${type?.mime ?? 'not one of them'}`, [
        { field: 'file', rule: 'type', message: 'file type is not allowed' },
      ]);
    }
    const root = storageRoot();
    const name = `${randomUUID()}.${allowed.ext}`;
    await writeFile(inside(root, name), bytes, { flag: 'wx' });
    return c.json({ data: { url: `/files/${name}`, file: `/files/${name}`, mimeType: type.mime, extension: allowed.ext, size: bytes.length } }, 201);
  });

  /** GET /files/<generated name>: nosniff, a strict CSP, and anything not shown inline as an attachment */
  app.get('/files/:name', async (c) => {
    const name = c.req.param('name');
    const m = STORED_NAME.exec(name);
    const kind = m && BY_EXT[m[1]];
    if (!kind) throw new HttpError(404, 'Not found');
    let bytes: Buffer;
    try {
      bytes = await readFile(inside(storageRoot(), name));
    } catch {
      throw new HttpError(404, 'Not found');
    }
    return c.body(new Uint8Array(bytes), 200, {
      'content-type': kind.mime,
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      'content-disposition': kind.inline ? 'inline' : `attachment; filename="${name}"`,
      'cache-control': 'public, max-age=31536000, immutable',
    });
  });
}

/** what other modules store files through (ctx.services.fileStorage) */
export interface FileStorageService {
  /** stores bytes under a generated name (the type judged by the bytes, as uploads are) and creates the file-storage/file row */
  store(input: { bytes: Uint8Array; name?: string; alt?: string }, tx?: Drizzle): Promise<Record<string, unknown>>;
  /** deletes the row and its bytes */
  remove(id: string): Promise<void>;
}

function fileStorageService(ctx: PluginContext): FileStorageService {
  const entity = ctx.model.byId['file-storage/file'];
  return {
    async store({ bytes, name, alt }, tx) {
      const buffer = Buffer.from(bytes);
      const type = await fileTypeFromBuffer(buffer);
      const allowed = type && ALLOWED[type.mime];
      if (!allowed) throw badRequest(`file type ${type?.mime ?? 'unknown'} is not allowed`, [{ field: 'file', rule: 'type', message: 'file type is not allowed' }]);
      const stored = `${randomUUID()}.${allowed.ext}`;
      await writeFile(inside(storageRoot(), stored), buffer, { flag: 'wx' });
      return ctx.repo.create(
        entity,
        { file: `/files/${stored}`, adminTitle: name || stored, ...(alt && { alt: { en: alt } }), size: buffer.length, extension: allowed.ext, mimeType: type.mime },
        tx,
      );
    },
    async remove(id) {
      const row = await ctx.repo.delete(entity, id);
      const m = /^\/files\/(.+)$/.exec(String(row.file ?? ''));
      if (m && STORED_NAME.test(m[1])) await rm(inside(storageRoot(), m[1]), { force: true });
    },
  };
}

/** the file-storage module: local uploads, checked by content and served safely; ctx.services.fileStorage for other modules */
export const fileStorage: Plugin = { name: 'file-storage', routes, services: (ctx) => ({ fileStorage: fileStorageService(ctx) }) };
