import * as crypto from 'node:crypto';
import { createHash } from 'node:crypto';

const hash = (crypto as { hash?: (algorithm: string, data: string | Uint8Array, encoding: 'base64url') => string }).hash;
import { brotliCompress, constants, gzip } from 'node:zlib';
import { promisify } from 'node:util';
import type { Context, MiddlewareHandler } from 'hono';
import { requestHeader } from './headers.js';
import { keptBy } from '../kept.js';

/**
 * What goes over the wire: compression (br or gzip, chosen by Accept-Encoding) and validators (a weak ETag,
 * 304 to a matching If-None-Match) for answers whose body is text the server made in full — pages, JSON, the
 * API docs' scripts and styles. Built assets are compressed once at build time (`precompress`, served by
 * runtime/web.ts). Streams (Server-Sent Events), files and answers that already name an encoding pass untouched.
 */

export type Encoding = 'br' | 'gzip';

/** bodies smaller than this are sent as they are: the headers would cost more than the bytes saved */
export const MIN_COMPRESS_BYTES = 1024;

/**
 * text formats worth compressing; images, video, fonts in woff2, zip and PDF are compressed already. Kept by the
 * header's text: an answer's type is one of a few, and parsing it cost each answer about a microsecond.
 */
export function isCompressible(contentType: string | null | undefined): boolean {
  return !!contentType && compressibleType(contentType);
}
const compressibleType = keptBy(200, (contentType: string): boolean => {
  const type = contentType.split(';')[0].trim().toLowerCase();
  if (type === 'text/event-stream') return false;
  return (
    type.startsWith('text/') ||
    type === 'application/json' ||
    type === 'application/javascript' ||
    type === 'application/xml' ||
    type === 'application/manifest+json' ||
    type === 'image/svg+xml' ||
    /\+(json|xml)$/.test(type)
  );
});

/**
 * The encoding to answer with for an Accept-Encoding header: br, else gzip, each only when accepted with a
 * q above 0 (`*` accepts both); undefined means the identity body.
 * @example negotiate('gzip, deflate, br') // 'br'
 * @example negotiate('br;q=0, gzip') // 'gzip'
 */
export function negotiate(accept: string | null | undefined): Encoding | undefined {
  return accepted(accept)[0];
}

/**
 * the encodings an Accept-Encoding header allows, best first (br before gzip at equal weight); kept by the header's
 * text (browsers send one of a few), so the list is frozen
 */
export function accepted(accept: string | null | undefined): readonly Encoding[] {
  return accept ? acceptedBy(accept) : NONE;
}
const NONE: readonly Encoding[] = Object.freeze([]);
const acceptedBy = keptBy(200, (accept: string): readonly Encoding[] => {
  const q = new Map<string, number>();
  for (const part of accept.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qp = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qp ? Number(qp.slice(2)) : 1;
    q.set(name.trim(), Number.isFinite(value) ? value : 0);
  }
  const weight = (name: Encoding) => q.get(name) ?? q.get('*') ?? 0;
  return Object.freeze((['br', 'gzip'] as const).filter((e) => weight(e) > 0).sort((a, b) => weight(b) - weight(a)));
});

const textEncoder = new TextEncoder();
/** where `utf8` writes before copying out: grown to the largest text asked for, up to UTF8_SCRATCH_MAX */
let scratch = new Uint8Array(64 * 1024);
const UTF8_SCRATCH_MAX = 4 * 1024 * 1024;

/**
 * A text as UTF-8 bytes of its own. A rendered page (a string made of many joined parts, with two-byte characters)
 * encodes in about a quarter of `TextEncoder.encode`'s time when written at once into a buffer that surely holds it
 * (three bytes a UTF-16 unit at most) and copied out at its size: encode measures the text in a pass of its own
 * first (40 µs against 150 for the 44 KB home page). A text too long for the scratch buffer is encoded the plain way.
 */
export function utf8(text: string): Uint8Array<ArrayBuffer> {
  const most = text.length * 3;
  if (most > UTF8_SCRATCH_MAX) return textEncoder.encode(text);
  if (scratch.length < most) scratch = new Uint8Array(Math.max(most, scratch.length * 2));
  const { written } = textEncoder.encodeInto(text, scratch);
  return scratch.slice(0, written);
}

/** a weak validator of a body: equal bodies, equal tags, whatever the encoding sent */
export function weakEtag(body: Uint8Array | string): string {
  // crypto.hash: the one-shot digest (no Hash object per answer)
  return `W/"${hash ? hash('sha1', body, 'base64url') : createHash('sha1').update(body).digest('base64url')}"`;
}

/** whether If-None-Match names the tag (weak comparison, `*` matches any) */
export function etagMatches(ifNoneMatch: string | null | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = (t: string) => t.trim().replace(/^W\//, '');
  const want = bare(etag);
  return ifNoneMatch.split(',').some((t) => t.trim() === '*' || bare(t) === want);
}

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** compresses for an answer made per request: fast settings (build-time assets use the strongest) */
export async function compress(body: Uint8Array, encoding: Encoding): Promise<Buffer> {
  if (encoding === 'br') {
    return brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: body.length, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } });
  }
  return gzipAsync(body, { level: 6 });
}

/**
 * Compressed bodies of answers that are the same for every caller, by validator and encoding: a cached page or a
 * popular list is compressed once, not per request. Bounded by total bytes; the oldest entry goes first.
 */
export class CompressedCache {
  private entries = new Map<string, Uint8Array<ArrayBuffer>>();
  private bytes = 0;
  constructor(private maxBytes = 32 * 1024 * 1024) {}
  get(key: string) {
    const found = this.entries.get(key);
    if (found) {
      // most recently used last
      this.entries.delete(key);
      this.entries.set(key, found);
    }
    return found;
  }
  set(key: string, body: Uint8Array<ArrayBuffer>) {
    if (body.length > this.maxBytes / 4 || this.entries.has(key)) return;
    this.entries.set(key, body);
    this.bytes += body.length;
    for (const [k, v] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= v.length;
    }
  }
  get size() {
    return this.entries.size;
  }
}

/** adds `value` to a Vary header unless it is there already */
export function addVary(headers: Headers, value: string) {
  const current = headers.get('vary');
  if (!current) return headers.set('vary', value);
  const names = current.split(',').map((v) => v.trim().toLowerCase());
  if (!names.includes(value.toLowerCase()) && !names.includes('*')) headers.set('vary', `${current}, ${value}`);
}

/**
 * The headers of an answer being finished, whatever holds them: a plain object with lower-case names (the fast path:
 * @hono/node-server writes it as it is) or a Fetch `Headers` (an answer that already made one). `set-cookie` is a
 * list in the plain form.
 */
export interface HeaderBag {
  get(name: string): string | undefined;
  has(name: string): boolean;
  set(name: string, value: string): void;
  delete(name: string): void;
}

/** a bag over a plain object of lower-case names */
export class PlainHeaders implements HeaderBag {
  constructor(readonly record: Record<string, string | string[]> = {}) {}
  get(name: string) {
    const v = this.record[name];
    return Array.isArray(v) ? v.join(', ') : v;
  }
  has(name: string) {
    return this.record[name] !== undefined;
  }
  set(name: string, value: string) {
    this.record[name] = value;
  }
  delete(name: string) {
    delete this.record[name];
  }
}

/** a bag over a Fetch Headers object, changed in place */
export class FetchHeaders implements HeaderBag {
  constructor(readonly headers: Headers) {}
  get(name: string) {
    return this.headers.get(name) ?? undefined;
  }
  has(name: string) {
    return this.headers.has(name);
  }
  set(name: string, value: string) {
    this.headers.set(name, value);
  }
  delete(name: string) {
    this.headers.delete(name);
  }
}

/**
 * What finishing an answer reads of its request: the method, the path and a header by its lower-case name. A hono
 * request's (`askedOf`), or a Node request's where the server answers without hono (runtime/http/fast-read.ts).
 */
export interface Asked {
  method: string;
  path: string;
  header(name: string): string | undefined;
}

/** the request of a hono context, as finishing an answer reads it */
export function askedOf(c: Context): Asked {
  return { method: c.req.method, path: c.req.path, header: (name) => requestHeader(c, name) };
}

/** an answer taken apart: its status, its body as made (string, bytes, a stream, or null) and its headers */
export interface Answer {
  status: number;
  body: unknown;
  headers: HeaderBag;
  /** the answer itself, kept when its headers are changed in place (a Response not made by @hono/node-server's fast path) */
  original?: Response;
}

/** @hono/node-server's text/plain default, for an answer made without any header */
const NODE_DEFAULT_TYPE = 'text/plain; charset=UTF-8';
let cacheSymbol: symbol | undefined;

/**
 * The answer of `c.res` taken apart without turning it into a stream: where @hono/node-server keeps the body and
 * headers of an answer made in memory (its fast path), read from there into a plain object; any other answer keeps
 * its own Headers, changed in place.
 */
export function takeApart(res: Response): Answer {
  cacheSymbol ??= Object.getOwnPropertySymbols(res).find((s) => s.description === 'cache');
  const cached = cacheSymbol ? (res as unknown as Record<symbol, [number, unknown, unknown] | undefined>)[cacheSymbol] : undefined;
  if (!cached) return { status: res.status, body: undefined, headers: new FetchHeaders(res.headers), original: res };
  const [status, body, given] = cached;
  const record: Record<string, string | string[]> = {};
  if (given === undefined || given === null) {
    if (body !== null) record['content-type'] = NODE_DEFAULT_TYPE;
  } else if (given instanceof Headers || Array.isArray(given)) {
    const h = given instanceof Headers ? given : new Headers(given as [string, string][]);
    for (const [k, v] of h) if (k !== 'set-cookie') record[k] = v;
    const cookies = h.getSetCookie();
    if (cookies.length) record['set-cookie'] = cookies;
  } else {
    for (const k in given as Record<string, string | string[]>) {
      const v = (given as Record<string, string | string[]>)[k];
      if (v !== undefined) record[k.toLowerCase()] = v;
    }
  }
  return { status, body, headers: new PlainHeaders(record) };
}

/**
 * The plain header record @hono/node-server keeps for an answer made in memory (its fast path), made where the
 * answer gave none; undefined for any other answer. Reading `res.headers` instead would build a Fetch Headers for it.
 */
function plainRecordOf(res: Response): Record<string, string | string[] | undefined> | undefined {
  const cached = fastPathOf(res);
  if (!cached) return undefined;
  const given = cached[2];
  if (given === undefined || given === null) return cached[1] === null ? {} : { 'content-type': NODE_DEFAULT_TYPE };
  if (given instanceof Headers || Array.isArray(given)) return undefined;
  return given as Record<string, string | string[] | undefined>;
}

/** @hono/node-server's [status, body, headers] of an answer made in memory */
function fastPathOf(res: Response): [number, unknown, unknown] | undefined {
  cacheSymbol ??= Object.getOwnPropertySymbols(res).find((s) => s.description === 'cache');
  return cacheSymbol ? (res as unknown as Record<symbol, [number, unknown, unknown] | undefined>)[cacheSymbol] : undefined;
}

/** a header of an answer, read without building a Fetch Headers where the answer is on the fast path */
export function answerHeader(res: Response, name: string): string | null {
  const record = plainRecordOf(res);
  if (!record) return res.headers.get(name);
  for (const k in record) {
    if (k.length !== name.length || k.toLowerCase() !== name) continue;
    const v = record[k];
    return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
  }
  return null;
}

/** sets a header of an answer (replacing it in any letter case), without building a Fetch Headers on the fast path */
export function setAnswerHeader(res: Response, name: string, value: string): void {
  const record = plainRecordOf(res);
  if (!record) return void res.headers.set(name, value);
  // a copy: the record is the object the answer was made with, which its maker may share between answers
  const next: Record<string, string | string[] | undefined> = {};
  for (const k in record) if (k === name || k.length !== name.length || k.toLowerCase() !== name) next[k] = record[k];
  next[name] = value;
  fastPathOf(res)![2] = next;
}

/** the answer again, after its headers, status or body changed */
export function putTogether(answer: Answer): Response {
  // an answer off the fast path has no body in memory, so nothing but its headers (changed in place) could change
  if (answer.original) return answer.original;
  return new Response(answer.body as BodyInit | null, { status: answer.status, headers: (answer.headers as PlainHeaders).record as HeadersInit });
}

/**
 * An answer may carry a validator when any caller asking the same url would get the same body from it: a GET
 * or HEAD answered 200 that is neither `no-store` nor `private` and sets no cookie. (Answers to requests with
 * credentials are `no-store`, runtime/app.ts.)
 */
function validatable(asked: Asked, answer: Answer): boolean {
  if (asked.method !== 'GET' && asked.method !== 'HEAD') return false;
  if (answer.status !== 200 || answer.headers.has('set-cookie')) return false;
  const cc = answer.headers.get('cache-control');
  return !cc || !/(^|[\s,])(no-store|private)([\s,=]|$)/i.test(cc);
}

/** the response headers a 304 keeps (RFC 9110 §15.4.5), plus the security headers every answer carries */
const DROPPED_ON_304 = ['content-type', 'content-length', 'content-encoding', 'content-range', 'transfer-encoding'];

/** adds `value` to the Vary header of a bag unless it is there already */
export function varyOn(headers: HeaderBag, value: string) {
  const current = headers.get('vary');
  if (!current) return headers.set('vary', value);
  const names = current.split(',').map((v) => v.trim().toLowerCase());
  if (!names.includes(value.toLowerCase()) && !names.includes('*')) headers.set('vary', `${current}, ${value}`);
}

/**
 * Compression for a text answer the server made in full, and an ETag with 304 for a GET answer that is the same for
 * every caller, applied to an answer taken apart (`takeApart`). Only a body already in memory is considered; a
 * streamed one (an event stream, a file), a body already encoded, an empty one or one of another type goes out
 * untouched. Answers a promise only while a body is being compressed.
 */
export function finishWire(asked: Asked, answer: Answer, compressed: CompressedCache): Promise<void> | undefined {
  const status = answer.status;
  if (status === 204 || status === 304 || status === 206) return;
  const headers = answer.headers;
  if (headers.has('content-encoding') || !isCompressible(headers.get('content-type'))) return;
  // an answer that sets a cookie (a sign-in: session tokens in its body) is sent as it is: no compression next to
  // secrets (BREACH), no validator
  if (headers.has('set-cookie')) return void headers.delete('etag');
  const cacheControl = headers.get('cache-control');
  if (cacheControl && /(^|[\s,])no-transform([\s,]|$)/i.test(cacheControl)) return;
  const encoding = negotiate(asked.header('accept-encoding'));
  const validator = validatable(asked, answer);
  // a route may give its own validator (the page cache does, computed once per page); it stays only on an
  // answer that is the same for every caller. It names the route's bytes all the same, so they are compressed once
  // even where it is not sent (a kept 404 page, a kept document answered to a caller with credentials)
  const given = headers.get('etag');
  if (!validator) headers.delete('etag');
  if (!encoding && !validator) return;
  const made = answer.body;
  if (typeof made !== 'string' && !(made instanceof Uint8Array)) return;
  // a text is encoded once, here: its size, its digest, its compression and the socket take these bytes (measured,
  // hashed and written as a text, a JSON answer with Cyrillic in it was encoded four times)
  const body = typeof made === 'string' ? utf8(made) : made;
  answer.body = body;
  const size = body.length;
  let etag: string | undefined;
  if (validator) {
    etag = headers.get('etag') ?? weakEtag(body);
    headers.set('etag', etag);
    if (etagMatches(asked.header('if-none-match'), etag)) {
      for (const h of DROPPED_ON_304) headers.delete(h);
      if (size >= MIN_COMPRESS_BYTES) varyOn(headers, 'Accept-Encoding');
      answer.status = 304;
      answer.body = null;
      return;
    }
  }
  if (size < MIN_COMPRESS_BYTES) return;
  // the body differs by Accept-Encoding from here on, whether or not this caller accepted an encoding
  varyOn(headers, 'Accept-Encoding');
  if (!encoding) return;
  // bytes a validator names (wire's own, or a route's made the same way: weakEtag of its body) are compressed once;
  // any other body per request
  const named = etag ?? given;
  const key = named && `${encoding} ${size} ${named}`;
  const kept = key ? compressed.get(key) : undefined;
  const encoded = (out: Uint8Array<ArrayBuffer>) => {
    headers.set('content-encoding', encoding);
    headers.set('content-length', String(out.length));
    answer.body = out;
  };
  // only a body still to compress waits: every other answer is finished here, without a promise of its own
  if (kept) return void encoded(kept);
  return compress(body, encoding).then((done) => {
    const out = new Uint8Array(done);
    if (key) compressed.set(key, out);
    encoded(out);
  });
}

/**
 * The wire on its own, as a middleware: compression and validators (see finishWire). The app runs the same step
 * inside its one envelope (runtime/http/envelope.ts).
 */
export function wire(compressed = new CompressedCache()): MiddlewareHandler {
  return async function wireMiddleware(c, next) {
    await next();
    const answer = takeApart(c.res);
    const pending = finishWire(askedOf(c), answer, compressed);
    if (pending) await pending;
    c.res = undefined;
    c.res = putTogether(answer);
  };
}
