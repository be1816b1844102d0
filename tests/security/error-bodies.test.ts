import { describe, it, expect, afterAll, beforeAll } from 'vitest';
import { sqliteDatabase } from '../helpers/databases.js';
import { bootApp, type TestApp } from '../helpers/app.js';
import type { Plugin } from '../../runtime/plugin.js';

const failing: Plugin = {
  name: 'failing',
  routes: (app) => {
    app.get('/api/test/explode', () => {
      throw new Error('secret internal detail at /srv/app/db.ts:42');
    });
  },
};

/** an unexpected failure answers 500 without a stack trace or the error's own text */
describe('error bodies', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootApp(sqliteDatabase(), { plugins: [failing] });
  });
  afterAll(async () => t?.close());

  it('500: a generic message and the request id, nothing internal', async () => {
    const r = await t.call('GET', '/api/test/explode');
    expect(r.status).toBe(500);
    expect(r.body).toEqual({ message: 'Internal server error', status: 500, requestId: expect.any(String) });
    expect(JSON.stringify(r.body)).not.toContain('secret internal detail');
    expect(r.headers.get('x-request-id')).toBe(r.body.requestId);
  });

  it('an oversized body is a 413, not a crash', async () => {
    const r = await t.call('POST', '/api/ecommerce/products', JSON.stringify({ data: { slug: 'x'.repeat(21 * 1024 * 1024) } }));
    expect(r.status).toBe(413);
    // a JSON body of the system (or a signed session) stops at 4 MiB; anonymous bodies at 64 KiB
    expect(r.body.message).toMatch(/larger than 4 MiB/);
  });
});
