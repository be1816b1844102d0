import type { Context, Hono, Next } from 'hono';
import parseRange from 'range-parser';
import type { PluginContext } from '../../../runtime/plugin.js';
import { readBody, readForm } from '../../../runtime/crud/body.js';
import { bodyValidator } from '../../../runtime/crud/validate.js';
import { HttpError, badRequest } from '../../../runtime/http/errors.js';
import { raiseBodyLimit, UPLOAD_BODY_BYTES } from '../../../runtime/http/limits.js';
import { BY_EXT } from './content.js';
import { STORED_KEY } from './drivers/index.js';
import { fetchPublic, OutboundRefused, type OutboundOptions } from './outbound.js';
import { publicFileUrl, type FileStorageService, type Stored } from './store.js';

/** the url to fetch; every other field is the row's, checked by the generic route */
const fromUrlBody = bodyValidator<{ url: string } & Record<string, unknown>>({
  type: 'object',
  required: ['url'],
  // the scheme in any case (HTTPS:// is https://, RFC 3986 §3.1); outbound.ts parses it and allows only these two
  properties: { url: { type: 'string', minLength: 1, maxLength: 2048, pattern: '^[hH][tT][tT][pP][sS]?://' } },
});

const isMultipart = (c: Context) => (c.req.header('content-type') ?? '').toLowerCase().startsWith('multipart/form-data');

/**
 * The file routes: uploads through the generic create and update routes (multipart: a `data` JSON part plus
 * file parts named after the entity's file fields), the bare upload the admin's file widget uses, and
 * `/files/<key>` for objects this server serves.
 */
export function fileRoutes(app: Hono, ctx: PluginContext, service: () => FileStorageService, outbound: OutboundOptions = {}) {
  const entity = ctx.model.byId['file-storage/file'];
  const fileFields = new Set(entity.fields.filter((f) => f.kind === 'file').map((f) => f.name));
  const base = `/api/${entity.module}/${entity.route}`;

  /**
   * Hands a write whose files are already stored to the generic route as JSON (validation, field access,
   * ownership, hooks: exactly what a JSON write gets); the stored objects are removed again if it is refused.
   */
  async function writeThroughGenericRoute(c: Context, fields: Record<string, unknown>, stored: Stored[], path = c.req.path) {
    const headers = new Headers(c.req.raw.headers);
    headers.set('content-type', 'application/json');
    headers.delete('content-length');
    const res = await app.request(new URL(path, c.req.url).toString(), { method: c.req.method, headers, body: JSON.stringify({ data: fields }) }, c.env);
    if (!res.ok) await Promise.all(stored.map((s) => service().driver.remove(s.file).catch(() => undefined)));
    return res;
  }

  /**
   * A multipart create or update of a file row: once the caller may write the entity, the file parts are judged
   * by their bytes and stored, and their size, extension, mimeType, width and height fill the row; the write
   * itself then goes through the generic route as JSON (validation, field access, ownership, hooks), and the
   * stored objects are removed again if that write is refused.
   */
  async function multipartWrite(c: Context, next: Next, operation: 'create' | 'update') {
    if (!isMultipart(c)) return next();
    await ctx.authorize(c, { entity, operation });
    raiseBodyLimit(c, UPLOAD_BODY_BYTES);
    const { data, files } = await readBody(c);
    if (data !== undefined && (typeof data !== 'object' || data === null || Array.isArray(data))) throw badRequest('data must be an object');
    const fields: Record<string, unknown> = { ...(data as Record<string, unknown> | undefined) };
    const stored: Stored[] = [];
    const unknown = Object.keys(files).filter((name) => !fileFields.has(name));
    if (unknown.length) throw badRequest(`${unknown[0]} is not a file field`, unknown.map((field) => ({ field, rule: 'unknown', message: `${field} is not a file field of ${entity.id}` })));
    try {
      for (const [name, parts] of Object.entries(files)) {
        if (parts.length > 1) throw badRequest(`${name} takes one file`, [{ field: name, rule: 'maxItems', message: `${name} takes one file` }]);
        const s = await service().put(new Uint8Array(await parts[0].arrayBuffer()), name);
        stored.push(s);
        const { file, ...judged } = s;
        // a replaced file's pixel size goes with it: a PDF or webm after an image has none
        Object.assign(fields, { [name]: file, width: null, height: null, ...judged });
        if (fields.adminTitle === undefined && operation === 'create' && parts[0].name) fields.adminTitle = parts[0].name.slice(0, 200);
      }
    } catch (e) {
      await Promise.all(stored.map((s) => service().driver.remove(s.file).catch(() => undefined)));
      throw e;
    }
    return writeThroughGenericRoute(c, fields, stored);
  }
  app.post(base, (c, next) => multipartWrite(c, next, 'create'));
  app.patch(`${base}/:id`, (c, next) => multipartWrite(c, next, 'update'));

  /**
   * POST /api/file-storage/files/create-from-url `{ data: { url, ...file fields } }` (spec §7): fetches the file
   * (outbound.ts: only public addresses, checked where the socket connects, on every redirect; size and time
   * bounded), judges it by its bytes as an upload, and creates the row through the generic route.
   */
  app.post(`${base}/create-from-url`, async (c) => {
    await ctx.authorize(c, { entity, operation: 'create' });
    const { url, ...fields } = fromUrlBody((await readBody(c)).data);
    let fetched: Awaited<ReturnType<typeof fetchPublic>>;
    try {
      fetched = await fetchPublic(url, outbound);
    } catch (e) {
      if (!(e instanceof OutboundRefused)) throw e;
      const status = { scheme: 400, address: 400, redirects: 400, size: 413, time: 504, status: 502, network: 502 }[e.reason];
      throw new HttpError(status, e.message, [{ field: 'url', rule: e.reason, message: e.message }]);
    }
    const s = await service().put(new Uint8Array(fetched.bytes), 'url');
    const { file, ...judged } = s;
    const name = decodeURIComponent(new URL(fetched.url).pathname.split('/').pop() ?? '').slice(0, 200);
    return writeThroughGenericRoute(c, { ...(name && { adminTitle: name }), ...fields, file, ...judged }, [s], base);
  });

  /**
   * POST /api/file-storage/files/upload (multipart, part `file`): stores it without a row, for a form that fills
   * a file field. The body may be as large as UPLOAD_BODY_BYTES only once the caller is authorized (and signed:
   * anonymous bodies stay small whatever happens here); nothing is read before.
   */
  app.post(`${base}/upload`, async (c) => {
    await ctx.authorize(c, { entity, operation: 'create' });
    raiseBodyLimit(c, UPLOAD_BODY_BYTES);
    // part names checked as every form's are (runtime/crud/body.ts)
    const form = await readForm(c, 'Send multipart/form-data with a file part named file');
    const file = form.file;
    if (Array.isArray(file)) throw badRequest('file takes one file', [{ field: 'file', rule: 'maxItems', message: 'file takes one file' }]);
    if (!(file instanceof File)) throw badRequest('file is required', [{ field: 'file', rule: 'required', message: 'file is required' }]);
    const s = await service().put(new Uint8Array(await file.arrayBuffer()));
    return c.json({ data: { ...s, url: publicFileUrl(s.file) } }, 201);
  });

  /**
   * GET /files/<generated key>: nosniff, a strict CSP, and anything not shown inline as an attachment. Files are
   * the site's public media, so other sites may embed them (Cross-Origin-Resource-Policy: cross-origin, where
   * every other answer is same-origin). One byte range (`Range: bytes=…`) is answered 206, as a video player
   * asks; a range past the end 416; several ranges or a malformed one get the whole file.
   */
  app.get('/files/:name', async (c) => {
    const name = c.req.param('name');
    const kind = STORED_KEY.test(name) ? BY_EXT[name.slice(name.lastIndexOf('.') + 1)] : undefined;
    if (!kind) throw new HttpError(404, 'Not found');
    const bytes = await service().driver.get(name);
    if (!bytes) throw new HttpError(404, 'Not found');
    const headers: Record<string, string> = {
      'content-type': kind.mime,
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      'content-disposition': kind.inline ? 'inline' : `attachment; filename="${name}"`,
      'cache-control': 'public, max-age=31536000, immutable',
      'cross-origin-resource-policy': 'cross-origin',
      'accept-ranges': 'bytes',
    };
    const size = bytes.length;
    const asked = c.req.header('range');
    const ranges = asked ? parseRange(size, asked, { combine: true }) : -2;
    if (ranges === -1) return c.body(null, 416, { ...headers, 'content-range': `bytes */${size}` });
    if (Array.isArray(ranges) && ranges.type === 'bytes' && ranges.length === 1) {
      const { start, end } = ranges[0];
      return c.body(bytes.subarray(start, end + 1) as Uint8Array<ArrayBuffer>, 206, {
        ...headers,
        'content-range': `bytes ${start}-${end}/${size}`,
        'content-length': String(end - start + 1),
      });
    }
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200, { ...headers, 'content-length': String(size) });
  });
}
