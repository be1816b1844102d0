import { describe, it, expect, beforeAll } from 'vitest';
import { getRequestListener } from '@hono/node-server';
import { answerHeader, setAnswerHeader, takeApart } from '../../runtime/http/wire.js';

/** headers read and set where @hono/node-server keeps an answer made in memory, with no Fetch Headers built */
describe('answer headers on the fast path', () => {
  beforeAll(() => {
    // as serve() does: @hono/node-server's Response becomes the global one
    getRequestListener(() => new Response(''));
  });

  it('reads any letter case, sets one header in place of every case of it, and never changes the object the answer was made with', () => {
    const shared = { 'Content-Type': 'text/html; charset=UTF-8', 'X-Page-Cache': 'hit' };
    const res = new Response('<p>page</p>', { status: 200, headers: shared });
    expect(answerHeader(res, 'content-type')).toBe('text/html; charset=UTF-8');
    expect(answerHeader(res, 'content-security-policy')).toBeNull();
    setAnswerHeader(res, 'content-security-policy', "default-src 'self'");
    setAnswerHeader(res, 'content-type', 'text/plain');
    expect(shared).toEqual({ 'Content-Type': 'text/html; charset=UTF-8', 'X-Page-Cache': 'hit' });
    const answer = takeApart(res);
    // still on the fast path (no Response object of its own), with exactly these headers
    expect(answer.original).toBeUndefined();
    expect(answer.body).toBe('<p>page</p>');
    expect(Object.fromEntries([...['content-type', 'content-security-policy', 'x-page-cache'].map((n) => [n, answer.headers.get(n)])])).toEqual({
      'content-type': 'text/plain',
      'content-security-policy': "default-src 'self'",
      'x-page-cache': 'hit',
    });
    // a second answer made with the same object does not carry the first one's header
    expect(answerHeader(new Response('x', { headers: shared }), 'content-security-policy')).toBeNull();
  });

  it('an answer with no headers has the default type; one with a Headers object is read and set through it', () => {
    const plain = new Response('text');
    expect(answerHeader(plain, 'content-type')).toBe('text/plain; charset=UTF-8');
    const fetchHeaders = new Response('{}', { headers: new Headers({ 'content-type': 'application/json' }) });
    setAnswerHeader(fetchHeaders, 'etag', 'W/"1"');
    expect(answerHeader(fetchHeaders, 'etag')).toBe('W/"1"');
    expect(fetchHeaders.headers.get('etag')).toBe('W/"1"');
  });
});
