import { describe, expect, it } from 'vitest';
import { HttpError } from '../../runtime/http/errors.js';
import { readQuery } from '../../runtime/http/query-params.js';

const SPEC = {
  url: { kind: 'text', required: true, path: true },
  row: { kind: 'text', uuid: true },
  limit: { kind: 'int', min: 1, max: 100, fallback: 24 },
  type: { kind: 'oneOf', values: ['cart', 'history'], fallback: 'cart' },
} as const;

const refusal = (query: Record<string, string>, strict = false) => {
  try {
    readQuery(query, SPEC, { strict });
  } catch (e) {
    expect(e).toBeInstanceOf(HttpError);
    return { status: (e as HttpError).status, message: (e as HttpError).message, causes: (e as HttpError).causes };
  }
  throw new Error('no refusal');
};

describe('readQuery: a route’s query parameters checked in one place', () => {
  it('reads values, with the fallbacks of absent and empty ones', () => {
    expect(readQuery({ url: '/a', limit: '7', type: 'history' }, SPEC)).toEqual({ url: '/a', limit: 7, type: 'history' });
    expect(readQuery({ url: '/a', limit: '', type: '' }, SPEC)).toEqual({ url: '/a', limit: 24, type: 'cart' });
    const row = '6f1c2a40-0000-4000-8000-000000000301';
    expect(readQuery({ url: '/', row }, SPEC).row).toBe(row);
  });

  it('names one wrong parameter, its field and its rule', () => {
    expect(refusal({})).toEqual({ status: 400, message: 'url is required', causes: [{ field: 'url', rule: 'required', message: 'url is required' }] });
    expect(refusal({ url: 'x' }).causes).toEqual([{ field: 'url', rule: 'format', message: 'url must be a path starting with /' }]);
    // another site's address is no path of this one
    expect(refusal({ url: '//evil.example/x' }).causes?.[0].rule).toBe('format');
    expect(refusal({ url: '/', row: 'nope' }).message).toBe('row must be a UUID');
    expect(refusal({ url: '/', type: 'all' }).message).toBe('type must be one of: cart, history');
  });

  it('an integer is whole digits within its range: no sign, fraction, exponent or words', () => {
    for (const limit of ['0', '101', '-1', '1.5', '1e2', 'ten', ' 5', '99999999999999999999']) {
      expect(refusal({ url: '/', limit }).causes, limit).toEqual([{ field: 'limit', rule: 'range', message: 'limit must be an integer from 1 to 100' }]);
    }
  });

  it('several wrong parameters are all named at once', () => {
    const r = refusal({ row: 'x', limit: '0' });
    expect(r.causes!.map((c) => c.field)).toEqual(['url', 'row', 'limit']);
    expect(r.message).toBe('3 query parameters are wrong: url is required; row must be a UUID; limit must be an integer from 1 to 100');
  });

  it('strict: a name the route does not take is refused (a misspelt one is not ignored), its name cut short', () => {
    expect(refusal({ url: '/', limt: '5' }, true).causes).toEqual([{ field: 'limt', rule: 'unknown', message: 'limt is not a parameter of this route; it takes url, row, limit, type' }]);
    expect(refusal({ url: '/', ['x'.repeat(500)]: '1' }, true).causes![0].field).toHaveLength(100);
    // not strict: other parameters are someone else's (a tracking tag on a link)
    expect(readQuery({ url: '/', utm_source: 'mail' }, SPEC).url).toBe('/');
  });

  it('a prototype name is a parameter like any other: unknown to a strict route, never read from the prototype', () => {
    const q = JSON.parse('{"url":"/","__proto__":"1","constructor":"x"}');
    expect(refusal(q, true).causes!.map((c) => [c.field, c.rule])).toEqual([['__proto__', 'unknown'], ['constructor', 'unknown']]);
    expect(refusal(JSON.parse('{"__proto__":{"url":"/"}}')).causes).toEqual([{ field: 'url', rule: 'required', message: 'url is required' }]);
  });
});
