import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';

/**
 * A request header by its lower-case name. Behind @hono/node-server the request's first `c.req.header()` builds a
 * Fetch Headers from every raw header (validated one by one), a few µs a request that most answers never need:
 * here it is read from the headers Node parsed already (`c.env.incoming`). Elsewhere (tests through `app.request`,
 * another runtime) it is the Fetch request's own.
 *
 * Node keeps the first of a repeated header that may appear once (Authorization, Content-Type, Content-Length,
 * Referer, …) and joins the others with ', ' (a cookie with '; '), where Fetch joins all with ', '; a name read
 * here is one of those that appear once, or is only tested for presence.
 */
export function requestHeader(c: Context, name: string): string | undefined {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (incoming?.headers) {
    const v = incoming.headers[name];
    return Array.isArray(v) ? v.join(', ') : v;
  }
  return c.req.header(name);
}

/** a cookie of the request; no header parsing at all when the request has no Cookie header */
export function requestCookie(c: Context, name: string): string | undefined {
  return requestHeader(c, 'cookie') ? getCookie(c, name) : undefined;
}
