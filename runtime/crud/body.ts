import type { Context } from 'hono';
import { badRequest, HttpError } from '../http/errors.js';
import { assertNoNul, bodyOverflowed, parseJsonSafely, tooLarge } from '../http/limits.js';

/** a form body as hono parses it: each part's value, or its values when the name is given more than once */
export type FormParts = Record<string, string | File | (string | File)[]>;

/** the longest name a form part may have (a field's name; a CRM form's are at most 100) */
export const MAX_PART_NAME = 200;
/** the longest name a file part may give its file */
export const MAX_FILE_NAME = 1000;
/** C0 controls, DEL and C1 controls: no field or file is named with them */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** why a part's name (or its file's name) cannot be taken, as a cause naming the rule; undefined when it can */
function nameProblem(name: string, max: number, what: string): { message: string; rule: string } | undefined {
  if (name.includes('\0')) return { message: `${what} holds NUL, which no text may hold`, rule: 'nul' };
  if (CONTROL.test(name)) return { message: `${what} holds a control character`, rule: 'control' };
  if (name.length > max) return { message: `${what} is longer than ${max} characters`, rule: 'maxLength' };
  return undefined;
}

/**
 * A form body (multipart/form-data or form-encoded) read through the body limits and checked before anyone uses it:
 * every part's name is at most MAX_PART_NAME characters without NUL or another control character (a name is a field's:
 * it is stored as a key of a JSON column, and PostgreSQL refuses NUL there — a 500 before), a file part's file name
 * likewise (at most MAX_FILE_NAME), and no text part holds NUL. Each is a 400 naming the rule; a body cut off at its
 * limit is the limit's refusal, anything else unreadable the 400 `unreadable`.
 */
export async function readForm(c: Context, unreadable: string): Promise<FormParts> {
  let form: FormParts;
  try {
    form = await c.req.parseBody({ all: true });
  } catch {
    if (bodyOverflowed(c)) throw tooLarge(c.get('bodyLimit'));
    throw badRequest(unreadable);
  }
  for (const [name, value] of Object.entries(form)) {
    const problem = nameProblem(name, MAX_PART_NAME, "A form part's name");
    if (problem) throw badRequest(problem.message, [{ field: 'form', ...problem }]);
    for (const part of Array.isArray(value) ? value : [value]) {
      if (typeof part === 'string') assertNoNul(part);
      else {
        const file = nameProblem(part.name, MAX_FILE_NAME, `The file name of the part ${name}`);
        if (file) throw badRequest(file.message, [{ field: name, ...file }]);
      }
    }
  }
  return form;
}

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
    const form = await readForm(c, 'The multipart body could not be read');
    const files: Record<string, File[]> = {};
    for (const [name, value] of Object.entries(form)) {
      const list = (Array.isArray(value) ? value : [value]).filter((v): v is File => typeof v !== 'string');
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
