import type { Context } from 'hono';
import { badRequest, HttpError } from '../http/errors.js';
import { assertNoNul, bodyOverflowed, parseJsonSafely, tooLarge } from '../http/limits.js';

export interface ParsedBody {
  data: unknown;
  /** file parts of a multipart body, by field name; the file-storage module stores them */
  files: Record<string, File[]>;
}

/**
 * A body is JSON `{ "data": … }` or multipart/form-data with a `data` part holding JSON,
 * plus any file parts. A JSON content type with an empty body is no body (`data` undefined): each route
 * decides whether it needs one. Size, JSON depth and NUL are checked before parsing (runtime/http/limits.ts:
 * JSON bodies by the app's middleware, the multipart `data` part and text parts here).
 */
export async function readBody(c: Context): Promise<ParsedBody> {
  const type = c.req.header('content-type') ?? '';
  if (type.startsWith('multipart/form-data')) {
    let form: Record<string, string | File | (string | File)[]>;
    try {
      form = await c.req.parseBody({ all: true });
    } catch {
      if (bodyOverflowed(c)) throw tooLarge(c.get('bodyLimit'));
      throw badRequest('The multipart body could not be read');
    }
    const files: Record<string, File[]> = {};
    for (const [name, value] of Object.entries(form)) {
      const parts = Array.isArray(value) ? value : [value];
      for (const part of parts) if (typeof part === 'string') assertNoNul(part);
      const list = parts.filter((v): v is File => typeof v !== 'string');
      if (list.length) files[name] = list;
    }
    const raw = form.data;
    if (raw === undefined) return { data: undefined, files };
    if (typeof raw !== 'string') throw badRequest('the data part must be JSON text');
    return { data: parseJsonSafely(raw, () => badRequest('the data part is not valid JSON', [{ message: 'data is not valid JSON', field: 'data', rule: 'json' }])), files };
  }
  if (!type.includes('json')) {
    const message = `Unsupported content type '${type.slice(0, 80) || 'none'}': send application/json with {"data": …} or multipart/form-data with a data part`;
    throw new HttpError(415, message, [{ field: 'content-type', rule: 'type', message }]);
  }
  let text: string;
  try {
    text = await c.req.text(); // read (and scanned) through the limits already: from memory
  } catch {
    if (bodyOverflowed(c)) throw tooLarge(c.get('bodyLimit'));
    throw badRequest('The body could not be read');
  }
  // a JSON content type with no bytes (Content-Length: 0, or nothing sent) is a request without a body
  if (!text) return { data: undefined, files: {} };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw badRequest('The body is not valid JSON');
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw badRequest('The body must be an object {"data": …}');
  return { data: (body as { data?: unknown }).data, files: {} };
}

/**
 * The body of a route where one is optional (a DELETE that may carry a password): none when the request names no
 * content type and no length, else `readBody`'s.
 */
export async function readOptionalBody(c: Context): Promise<ParsedBody> {
  if (!c.req.header('content-type') && !Number(c.req.header('content-length') ?? 0)) return { data: undefined, files: {} };
  return readBody(c);
}
