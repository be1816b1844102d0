import type { Context, MiddlewareHandler, Next } from 'hono';
import { HttpError, badRequest } from './errors.js';

/** any body of an anonymous caller: JSON, form, multipart alike */
export const PUBLIC_BODY_BYTES = 64 * 1024;
/** any body of a caller with the system key or a signed session token (admins' bulk writes, long articles) */
export const SIGNED_BODY_BYTES = 4 * 1024 * 1024;
/** what a route may raise a signed caller's limit to, after its own authorization (file uploads) */
export const UPLOAD_BODY_BYTES = 20 * 1024 * 1024;
/** arrays and objects inside one another, in a JSON body or a multipart `data` part */
export const MAX_JSON_DEPTH = 32;

declare module 'hono' {
  interface ContextVariableMap {
    /** the most bytes this request's body may still have; a route may raise it with raiseBodyLimit */
    bodyLimit: number;
    /** the cap raiseBodyLimit may go up to for this caller */
    bodyCeiling: number;
    bodyOverflow: boolean;
    /** how the caller is trusted with body sizes (limitBodies) */
    bodyTrust: BodyTrust;
  }
}

/**
 * How far a request's caller is trusted with body sizes:
 * - `signed`: the system key or a signed-in subject (one with a login, or an admin): SIGNED_BODY_BYTES, and a route
 *   may raise a multipart body to UPLOAD_BODY_BYTES after its own authorization;
 * - `lapsed`: a session token signed here whose session no longer answers (expired, revoked): PUBLIC_BODY_BYTES, and a
 *   body past it is a 401, so that the client refreshes its session and sends it again rather than give up on a 413;
 * - `public`: anyone else, the subject of an anonymous session (authentication/init) included: PUBLIC_BODY_BYTES.
 */
export type BodyTrust = 'signed' | 'lapsed' | 'public';

const size = (n: number) => (n >= 1024 * 1024 ? `${n / 1024 / 1024} MiB` : `${n / 1024} KiB`);
export const tooLarge = (limit: number) => new HttpError(413, `The body is larger than ${size(limit)}`);
/** a body past the public limit under a session that no longer answers: refresh it, then send again */
const sessionLapsed = () => new HttpError(401, 'Not authorized: the session has expired; refresh it and send the body again');
/** the refusal of a body past this request's limit: a 413, or a 401 for a lapsed session (BodyTrust) */
const overLimit = (c: Context, limit: number) => (c.get('bodyTrust') === 'lapsed' ? sessionLapsed() : tooLarge(limit));
const nulRefused = () => badRequest('NUL characters are not accepted', [{ message: 'NUL characters are not accepted', rule: 'nul' }]);
const tooDeep = (depth: number) => badRequest(`The body nests deeper than ${depth} levels`, [{ message: `at most ${depth} nested levels`, rule: 'depth' }]);

/**
 * One linear pass over JSON text, before JSON.parse: how deep arrays and objects nest (outside strings),
 * whether a string holds NUL (`\u0000`), and whether it holds half of a UTF-16 pair alone (`\ud83d` with no low
 * half after it, or a low half alone): text that is not Unicode, which PostgreSQL refuses to store (a 500) and
 * SQLite stores mangled. Invalid JSON is left for the parser to refuse.
 */
export function scanJson(text: string, maxDepth = MAX_JSON_DEPTH): 'depth' | 'nul' | 'surrogate' | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 0) return 'nul';
    if (ch >= 0xd800 && ch <= 0xdfff) {
      // a written (unescaped) surrogate: a high half must have its low half next
      if (ch > 0xdbff || !isLowHalf(text.charCodeAt(i + 1))) return 'surrogate';
      i++;
    } else if (inString) {
      if (ch === 0x5c /* \ */) {
        if (text.charCodeAt(i + 1) === 0x75 /* u */) {
          if (text.startsWith('0000', i + 2)) return 'nul';
          const unit = hex4(text, i + 2);
          if (unit >= 0xd800 && unit <= 0xdfff) {
            // an escaped surrogate: a high half must be followed by an escaped low half
            if (unit > 0xdbff || text.charCodeAt(i + 6) !== 0x5c || text.charCodeAt(i + 7) !== 0x75 || !isLowHalf(hex4(text, i + 8))) return 'surrogate';
            i += 6;
          }
          i += 4;
        }
        i++;
      } else if (ch === 0x22 /* " */) inString = false;
    } else if (ch === 0x22) inString = true;
    else if (ch === 0x7b /* { */ || ch === 0x5b /* [ */) {
      if (++depth > maxDepth) return 'depth';
    } else if (ch === 0x7d /* } */ || ch === 0x5d /* ] */) depth--;
  }
  return undefined;
}

const isLowHalf = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;
/** the four hex digits at `at` as a number (NaN when they are not hex digits: the parser refuses those) */
const hex4 = (text: string, at: number) => (/^[0-9a-fA-F]{4}$/.test(text.slice(at, at + 4)) ? parseInt(text.slice(at, at + 4), 16) : NaN);

/**
 * The 400 for JSON text holding half a UTF-16 pair, naming where: the first string (a value, or a key) that is not
 * well-formed, as a field path from the body's `data` (`title.en`, `data[1].name`), like validation errors.
 */
/** the place in a JSON text's data of the first string (or key) `bad` holds for, relative to the body's data object */
function fieldWhere(text: string, bad: (s: string) => boolean): string {
  let field = '';
  const visit = (v: unknown, path: string): boolean => {
    if (typeof v === 'string') return bad(v) && ((field = path), true);
    if (Array.isArray(v)) return v.some((x, i) => visit(x, `${path}[${i}]`));
    if (v && typeof v === 'object') {
      return Object.entries(v).some(([k, x]) => {
        const at = path ? `${path}.${k}` : k;
        if (bad(k)) return (field = path || 'data'), true;
        return visit(x, at);
      });
    }
    return false;
  };
  try {
    visit(JSON.parse(text), '');
  } catch {
    /* not JSON: named as the body */
  }
  // relative to the body's data object, as validation names fields (data[1] stays for a list)
  return field.replace(/^data\./, '').replace(/\.\.+/g, '.') || 'data';
}

function surrogateRefused(text: string): HttpError {
  const field = fieldWhere(text, (s) => !s.isWellFormed());
  const message = `${field} is not valid Unicode: half of a UTF-16 surrogate pair alone is not a character`;
  return badRequest(message, [{ field, rule: 'unicode', message }]);
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });
const LENIENT_UTF8 = new TextDecoder('utf-8');

/**
 * A JSON body's bytes as text, refused (400 naming the field) unless they are valid UTF-8: a lenient decoding would
 * store each broken sequence as U+FFFD, so that different bytes (a password, say) became the same text.
 */
export function utf8Text(bytes: Uint8Array): string {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    const field = fieldWhere(LENIENT_UTF8.decode(bytes), (s) => s.includes('\uFFFD'));
    const message = `${field} is not valid UTF-8: the bytes sent are not text`;
    throw badRequest(message, [{ field, rule: 'unicode', message }]);
  }
}

/** the 400 for each problem scanJson finds */
export function jsonRefused(problem: 'depth' | 'nul' | 'surrogate', text: string): HttpError {
  if (problem === 'nul') return nulRefused();
  if (problem === 'depth') return tooDeep(MAX_JSON_DEPTH);
  return surrogateRefused(text);
}

/** JSON.parse behind the depth, NUL and surrogate checks; throws a 400 with `invalid` when the text is not JSON */
export function parseJsonSafely(text: string, invalid: () => HttpError): unknown {
  const problem = scanJson(text);
  if (problem) throw jsonRefused(problem, text);
  try {
    return JSON.parse(text);
  } catch {
    throw invalid();
  }
}

/** a 400 when a submitted text holds NUL, which PostgreSQL cannot store and no field needs */
export function assertNoNul(value: string) {
  if (value.includes('\0')) throw nulRefused();
}

/** a url with %00 anywhere (path or query) is refused before any route reads it (a step of limitBodies) */
function refuseNulInUrl(c: Context) {
  const url = c.req.url;
  if (/%00/i.test(url) || url.includes('\0')) throw nulRefused();
}

/**
 * Lets the current request's body grow up to `bytes` (at most UPLOAD_BODY_BYTES, and only for a caller
 * with the system key or a signed session): for a route that has authorized the caller and takes files.
 * Anonymous callers keep PUBLIC_BODY_BYTES whatever a route asks.
 */
export function raiseBodyLimit(c: Context, bytes = UPLOAD_BODY_BYTES) {
  const ceiling = c.get('bodyCeiling');
  if (ceiling) c.set('bodyLimit', Math.min(bytes, ceiling));
}

/** true when the body was cut off at the limit: whatever a route made of the read error, the answer is a 413 */
export const bodyOverflowed = (c: Context) => c.get('bodyOverflow') === true;

/**
 * Every request, before any route or plugin middleware sees it: a url holding NUL (`%00`) is a 400; then its body:
 * - at most PUBLIC_BODY_BYTES for anonymous callers and anonymous sessions, SIGNED_BODY_BYTES for the system key
 *   or a signed-in caller (`trustOf`, BodyTrust; raiseBodyLimit lets an authorized route take up to
 *   UPLOAD_BODY_BYTES); a declared Content-Length over the cap is refused at once, a streamed body as soon as it
 *   passes the limit;
 * - JSON bodies (any content type naming json) and form-encoded ones are read here, through the
 *   limit, and scanned in one linear pass: nesting deeper than MAX_JSON_DEPTH and NUL are 400s before
 *   anything parses them. The text stays cached, so routes parse it from memory.
 */
export function limitBodies(trustOf: (c: Context) => Promise<BodyTrust>): MiddlewareHandler {
  // first the url's NUL check, then the method, outside the async part: a GET passes without a promise of its own,
  // and reading c.req.raw makes @hono/node-server build a full Request, which a GET never needs. One middleware, not
  // two: each handler a request passes costs the router and the compose chain a step
  return function requestLimits(c, next) {
    refuseNulInUrl(c);
    return c.req.method === 'GET' || c.req.method === 'HEAD' ? next() : limited(c, next);
  };
  async function limited(c: Context, next: Next) {
    const body = c.req.raw.body;
    if (!body) return next();
    const trust = await trustOf(c);
    const trusted = trust === 'signed';
    const type = (c.req.header('content-type') ?? '').toLowerCase();
    const multipart = type.startsWith('multipart/form-data');
    const limit = trusted ? SIGNED_BODY_BYTES : PUBLIC_BODY_BYTES;
    // only a multipart body of a trusted caller may be raised later (file uploads)
    const ceiling = trusted && multipart ? UPLOAD_BODY_BYTES : limit;
    c.set('bodyTrust', trust);
    c.set('bodyLimit', limit);
    c.set('bodyCeiling', ceiling);
    const declared = Number(c.req.header('content-length'));
    if (declared > ceiling) throw overLimit(c, ceiling);

    let read = 0;
    const reader = body.getReader();
    const limited = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        read += value.byteLength;
        if (read > c.get('bodyLimit')) {
          c.set('bodyOverflow', true);
          await reader.cancel().catch(() => undefined);
          return controller.error(overLimit(c, c.get('bodyLimit')));
        }
        controller.enqueue(value);
      },
      cancel: (reason) => reader.cancel(reason),
    });
    c.req.raw = new Request(c.req.raw, { body: limited, duplex: 'half' } as RequestInit);

    if (type.includes('json') || type.startsWith('application/x-www-form-urlencoded')) {
      let bytes: Uint8Array;
      try {
        bytes = new Uint8Array(await c.req.arrayBuffer());
      } catch {
        if (bodyOverflowed(c)) throw overLimit(c, c.get('bodyLimit'));
        throw badRequest('The body could not be read');
      }
      // the text every later reader gets (hono keeps read bodies by kind): decoded once, strictly
      const text = utf8Text(bytes);
      (c.req as unknown as { bodyCache: Record<string, Promise<unknown>> }).bodyCache.text = Promise.resolve(text);
      if (type.includes('json')) {
        const problem = scanJson(text);
        if (problem) throw jsonRefused(problem, text);
      } else if (text.includes('\0') || /%00/i.test(text)) throw nulRefused();
    }
    await next();
    // whatever a route made of the cut-off body, the answer is this request's refusal
    const refusal = bodyOverflowed(c) ? overLimit(c, c.get('bodyLimit')) : undefined;
    if (refusal && c.res.status !== refusal.status) {
      const answer = { message: refusal.message, status: refusal.status };
      c.res = undefined;
      c.res = new Response(JSON.stringify(answer), { status: refusal.status, headers: { 'content-type': 'application/json' } });
    }
  }
}
