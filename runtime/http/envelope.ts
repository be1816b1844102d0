import type { MiddlewareHandler } from 'hono';
import { requestHeader } from './headers.js';
import { keptBy } from '../kept.js';
import { carriesCredentials } from './session.js';
import { askedOf, CompressedCache, finishWire, putTogether, takeApart, varyOn, type Answer, type Asked } from './wire.js';

declare module 'hono' {
  interface ContextVariableMap {
    requestId: string;
  }
}

export interface EnvelopeOptions {
  /** Strict-Transport-Security on every answer (production) */
  hsts: boolean;
  compressed?: CompressedCache;
  /** called as each request starts, before anything reads (the database's `fresh`) */
  onRequest?: () => void;
  /**
   * the origins of a storefront elsewhere (CORS_ORIGINS): an API answer to one of them allows it, with credentials;
   * every API answer then varies on Origin. Preflights are answered before the routes (runtime/app.ts).
   */
  corsOrigins?: readonly string[];
}

/** the API's headers a page on an allowed origin may read */
export const CORS_EXPOSED = 'X-Total-Count, Retry-After';

/** answers of the API: nothing in them is a document to render or frame (pages and the admin set their own) */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/**
 * The security headers of an answer, each added unless the answer set its own (a page's CSP, runtime/web.ts): the
 * same set as hono's secureHeaders with our choices (no framing, a strict referrer policy, a CSP that allows
 * nothing), written once as a list instead of per request.
 *
 * `data`: the set of an answer of JSON, which no browser renders as a document: the headers OWASP's REST Security
 * Cheat Sheet names for API answers (nosniff, a frame policy twice, HSTS), plus the referrer policy and CORP (its
 * bytes stay same-origin for a page elsewhere). The others (DOCUMENT_ONLY) govern a document and what it loads:
 * every other answer — pages, the admin, files, assets, errors of another type — carries them.
 */
export function securityHeaders(hsts: boolean, data = false): [string, string][] {
  const all: [string, string][] = [
    ['cross-origin-resource-policy', 'same-origin'],
    ['cross-origin-opener-policy', 'same-origin'],
    ['origin-agent-cluster', '?1'],
    ['referrer-policy', 'strict-origin-when-cross-origin'],
    ...(hsts ? ([['strict-transport-security', 'max-age=15552000; includeSubDomains']] as [string, string][]) : []),
    ['x-content-type-options', 'nosniff'],
    ['x-dns-prefetch-control', 'off'],
    ['x-download-options', 'noopen'],
    ['x-frame-options', 'DENY'],
    ['x-permitted-cross-domain-policies', 'none'],
    ['x-xss-protection', '0'],
    ['content-security-policy', API_CSP],
  ];
  return data ? all.filter(([name]) => !DOCUMENT_ONLY.has(name)) : all;
}

/**
 * Headers that act on a document (a browsing context's opener and agent cluster, DNS prefetching of its links, IE's
 * open-downloaded-file prompt, Flash and PDF cross-domain policy files, the old XSS auditor): left off JSON answers.
 */
export const DOCUMENT_ONLY: ReadonlySet<string> = new Set([
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
]);

/** whether a content type is JSON (`application/json`, `…+json`): data, never a document */
const isJson = keptBy(200, (contentType: string): boolean => {
  const type = contentType.split(';')[0].trim().toLowerCase();
  return type === 'application/json' || type.endsWith('+json');
});

const REQUEST_ID = /[^\w\-=]/;

/** the request id of an answer: the caller's `X-Request-Id` when it is a short token, else a new UUID */
export function requestIdOf(given: string | undefined): string {
  return !given || given.length > 255 || REQUEST_ID.test(given) ? crypto.randomUUID() : given;
}

/** the request as the envelope's finishing reads it: the wire's, and whether it carries credentials (asked once) */
export interface Enveloped extends Asked {
  credentials(): boolean;
}

/**
 * The envelope's finishing of an answer taken apart (steps 2 to 4 below), the one implementation for the app and for
 * the answers the server gives without hono (runtime/http/fast-read.ts). Answers a promise only while a body is being
 * compressed.
 */
export type Finish = (asked: Enveloped, answer: Answer, requestId: string) => Promise<void> | undefined;

export function finisher({ hsts, compressed = new CompressedCache(), corsOrigins = [] }: Omit<EnvelopeOptions, 'onRequest'>): Finish {
  const documents = securityHeaders(hsts);
  const data = securityHeaders(hsts, true);
  const cors = corsOrigins.length ? new Set(corsOrigins) : undefined;
  const last = (answer: Answer, id: string, json: boolean) => {
    const headers = answer.headers;
    for (const [name, value] of json ? data : documents) if (!headers.has(name)) headers.set(name, value);
    headers.delete('x-powered-by');
    if (!headers.has('x-request-id')) headers.set('x-request-id', id);
  };
  return function finish(asked, answer, id) {
    const headers = answer.headers;
    const path = asked.path;
    // read before the wire, whose 304 drops the content type
    const type = headers.get('content-type');
    const json = !!type && isJson(type);
    if (!path.startsWith('/assets/') && !path.startsWith('/files/') && (headers.has('set-cookie') || asked.credentials())) headers.set('cache-control', 'no-store');
    // CORS on the answer taken apart (hono's cors middleware would read c.res.headers, taking the answer off the
    // fast path and so out of compression and validators); before the wire, whose 304 keeps Vary
    if (cors && path.startsWith('/api/')) {
      varyOn(headers, 'Origin');
      const origin = asked.header('origin');
      if (origin && cors.has(origin) && !headers.has('access-control-allow-origin')) {
        headers.set('access-control-allow-origin', origin);
        headers.set('access-control-allow-credentials', 'true');
        headers.set('access-control-expose-headers', CORS_EXPOSED);
      }
    }
    const pending = finishWire(asked, answer, compressed);
    if (pending) return pending.then(() => last(answer, id, json));
    last(answer, id, json);
  };
}

/**
 * The one envelope around every answer, outermost in the app, in one pass over the answer's headers:
 *
 * 1. a request id: the caller's `X-Request-Id` when it is a short token, else a new UUID; on the context
 *    (`c.get('requestId')`, in logs and 500 bodies) and on the answer;
 * 2. `no-store` on an answer to a request with credentials, or one that sets a cookie (never stored by a browser or
 *    proxy), except built assets and files, which are the same for everyone;
 * 3. the wire (runtime/http/wire.ts): compression, and an ETag with 304 for answers the same for every caller
 *    (after 2, so that it sees `no-store` and never gives a validator to an answer that depends on who asks);
 * 4. the security headers (`securityHeaders`: a JSON answer leaves out those that act on a document), kept where the
 *    answer set its own; no X-Powered-By.
 *
 * An answer made in memory (the usual case) has its headers read into a plain object and goes out through
 * @hono/node-server's fast path, with no Fetch Headers object made along the way.
 */
export function envelope({ onRequest, ...options }: EnvelopeOptions): MiddlewareHandler {
  const finish = finisher(options);
  return async function envelope(c, next) {
    onRequest?.();
    const id = requestIdOf(requestHeader(c, 'x-request-id'));
    c.set('requestId', id);
    await next();
    const answer = takeApart(c.res);
    const pending = finish({ ...askedOf(c), credentials: () => carriesCredentials(c) }, answer, id);
    if (pending) await pending;
    c.res = undefined;
    c.res = putTogether(answer);
  };
}
