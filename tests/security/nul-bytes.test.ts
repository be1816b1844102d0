import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { DIALECTS } from '../helpers/databases.js';
import { startTestServer } from '../helpers/browser.js';
import { bootApp, type TestApp } from '../helpers/app.js';
import { createLogger } from '../../runtime/log.js';
import { readBody } from '../../runtime/crud/body.js';
import type { Plugin } from '../../runtime/plugin.js';

/**
 * Finding 13 (security trial 2026-11-23): on PostgreSQL a NUL character answered 500 (`GET /a%00b`,
 * `find-by-url?url=%00`, a form field "x\u0000y", a filter value), and the failed query was logged with
 * every bound parameter, submitted form data included. NUL is now a 400 on both databases, and logged
 * errors carry the query text without its values.
 */
for (const d of DIALECTS) {
  describe(`finding 13: NUL characters on ${d.name}`, () => {
    let server: Awaited<ReturnType<typeof startTestServer>>;
    let formId: string;
    const get = async (path: string) => {
      const res = await fetch(server.url + path);
      return { status: res.status, body: await res.json().catch(() => undefined) };
    };
    const post = async (path: string, body: BodyInit, headers: Record<string, string> = { 'content-type': 'application/json' }) => {
      const res = await fetch(server.url + path, { method: 'POST', headers, body });
      return { status: res.status, body: await res.json().catch(() => undefined) };
    };
    const stored = async () => (await server.system('GET', '/api/crm/requests/count')).body.data as number;

    beforeAll(async () => {
      server = await startTestServer(await d.make());
      formId = (await server.system('POST', '/api/crm/forms', { data: { slug: 'nul-form' } })).body.data.id;
      const input = (await server.system('POST', '/api/crm/inputs', { data: { slug: 'nul-name', name: 'name' } })).body.data;
      await server.system('POST', '/api/crm/forms-to-inputs', { data: { formId, inputId: input.id } });
    });
    afterAll(async () => server?.close());

    it('finding 13: %00 in a page path, a find-by-url or a filter value is a 400', async () => {
      for (const path of ['/a%00b', '/ru/a%00b', '/api/host/pages/find-by-url?url=%00', '/api/host/pages/find-by-url?url=/x%00', '/api/blog/articles?filters[and][0][column]=slug&filters[and][0][method]=eq&filters[and][0][value]=a%00b']) {
        const r = await get(path);
        expect(r.status, path).toBe(400);
        expect(r.body, path).toMatchObject({ message: 'NUL characters are not accepted', status: 400 });
      }
      // a literal '%00' (sent as %2500) is text like any other
      expect((await get('/api/host/pages/find-by-url?url=/%2500')).status).toBe(404);
    });

    it('finding 13: a form field with NUL is a 400 and nothing is stored, in JSON, form-encoded and multipart bodies', async () => {
      const before = await stored();
      const path = `/api/crm/forms/${formId}/requests`;
      expect((await post(path, JSON.stringify({ data: { name: 'x\u0000y' } }))).status).toBe(400);
      expect((await post(path, 'name=x%00y', { 'content-type': 'application/x-www-form-urlencoded' })).status).toBe(400);
      const multipart = new FormData();
      multipart.set('name', 'x\u0000y');
      expect((await post(path, multipart, {})).status).toBe(400);
      const dataPart = new FormData();
      dataPart.set('data', JSON.stringify({ name: 'x\u0000y' }));
      expect((await post(path, dataPart, {})).status).toBe(400);
      expect(await stored()).toBe(before);
      expect((await post(path, JSON.stringify({ data: { name: 'fine' } }))).status).toBe(201);
    });

    it('finding 13: a NUL in a generic write or a filter of the system is a 400 too', async () => {
      const create = await server.system('POST', '/api/blog/articles', { data: { slug: 'nul-article', adminTitle: 'a\u0000b' } });
      expect(create.status).toBe(400);
      const listed = await server.system('GET', '/api/blog/articles?filters[and][0][column]=adminTitle&filters[and][0][method]=eq&filters[and][0][value]=%00');
      expect(listed.status).toBe(400);
    });

    it('half of a UTF-16 pair alone (\\ud83d) is a 400 naming the field, in a public form, a generic write, a bulk and a key; nothing is stored', async () => {
      const path = `/api/crm/forms/${formId}/requests`;
      const before = await stored();
      // JSON.stringify writes a lone surrogate escaped, as a client would send it
      const form = await post(path, JSON.stringify({ data: { name: 'Mallory', message: '\ud83d' } }));
      expect(form.status).toBe(400);
      expect(form.body.cause).toEqual([expect.objectContaining({ field: 'message', rule: 'unicode' })]);
      // a low half alone, escaped in the text (unescaped, no UTF-8 transport can carry one: it arrives as U+FFFD)
      expect((await post(path, `{"data":{"name":"x\\udc00y"}}`)).body.cause[0]).toMatchObject({ field: 'name', rule: 'unicode' });
      const dataPart = new FormData();
      dataPart.set('data', JSON.stringify({ name: 'a\udfffb' }));
      expect((await post(path, dataPart, {})).body.cause[0]).toMatchObject({ field: 'name', rule: 'unicode' });
      expect(await stored()).toBe(before);
      const system = { 'content-type': 'application/json', 'x-rbac-secret-key': 'browser-secret-key-0123' };
      const product = await post('/api/ecommerce/products', JSON.stringify({ data: { title: { en: 'ok', ru: '\ud800' } } }), system);
      expect(product.status).toBe(400);
      expect(product.body.cause[0]).toMatchObject({ field: 'title.ru', rule: 'unicode' });
      const bulk = await post('/api/ecommerce/products/bulk', JSON.stringify({ data: [{ adminTitle: 'fine' }, { adminTitle: 'half \udbff' }] }), system);
      expect(bulk.body.cause[0]).toMatchObject({ field: 'data[1].adminTitle', rule: 'unicode' });
      const key = await post('/api/ecommerce/products', JSON.stringify({ data: { title: { ['\ud800']: 'x' } } }), system);
      expect(key.status).toBe(400);
      expect(key.body.cause[0]).toMatchObject({ field: 'title', rule: 'unicode' });
      // a whole pair is a character like any other, stored and read back as sent
      const fine = await post('/api/ecommerce/products', JSON.stringify({ data: { title: { en: 'smile \ud83d\ude00' } } }), system);
      expect(fine.status).toBe(201);
      expect((await server.system('GET', `/api/ecommerce/products/${fine.body.data.id}`)).body.data.title.en).toBe('smile \u{1F600}');
      expect((await post(path, `{"data":{"name":"pair \\ud83d\\ude00 and \u{1F600}"}}`)).status).toBe(201);
      expect(await stored()).toBe(before + 1);
    });

    it('bytes that are not UTF-8 (\\xff, a cut sequence) are a 400 naming the field, not stored as U+FFFD; a sent U+FFFD is text like any other', async () => {
      const path = `/api/crm/forms/${formId}/requests`;
      const before = await stored();
      const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));
      const form = await post(path, bytes('{"data":{"name":"Mallory","message":"a', [0xff], 'b"}}'));
      expect(form.status).toBe(400);
      expect(form.body.cause).toEqual([expect.objectContaining({ field: 'message', rule: 'unicode' })]);
      expect(form.body.message).toBe('message is not valid UTF-8: the bytes sent are not text');
      const system = { 'content-type': 'application/json', 'x-rbac-secret-key': 'browser-secret-key-0123' };
      const product = await post('/api/ecommerce/products', bytes('{"data":{"adminTitle":"bad ', [0xe2, 0x28, 0xa1], ' utf8","title":{"en":"x"}}}'), system);
      expect(product.status).toBe(400);
      expect(product.body.cause[0]).toMatchObject({ field: 'adminTitle', rule: 'unicode' });
      expect(await stored()).toBe(before);
      const replacement = await post(path, JSON.stringify({ data: { name: 'sent as \uFFFD' } }));
      expect(replacement.status).toBe(201);
      expect(await stored()).toBe(before + 1);
    });
  });

  describe(`finding 13: failed queries are logged without their values on ${d.name}`, () => {
    let t: TestApp;
    const lines: string[] = [];
    /** a route whose query fails with a submitted value bound to it, as a NUL on PostgreSQL did */
    const failing: Plugin = {
      name: 'failing-query',
      routes: (app, ctx) => {
        app.post('/api/test/lookup', async (c) => {
          const { data } = await readBody(c);
          const query = sql`select * from no_such_table where secret = ${(data as { secret: string }).secret}`;
          if (ctx.database.dialect === 'pg') await ctx.database.db.execute(query);
          else await ctx.database.db.all(query);
          return c.json({ data: 'unreachable' });
        });
      },
    };
    beforeAll(async () => {
      const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(chunk.toString()), done()) });
      t = await bootApp(await d.make(), { plugins: [failing], log: createLogger({ logLevel: 'error' }, sink) });
    });
    afterAll(async () => t?.close());

    it('finding 13: the 500 is logged with the query text and no submitted value', async () => {
      const r = await t.call('POST', '/api/test/lookup', { data: { secret: 'hunter2-form-value' } });
      expect(r.status).toBe(500);
      const log = lines.join('');
      expect(log).toContain('request failed');
      expect(log).toContain('no_such_table');
      expect(log).not.toContain('hunter2-form-value');
      expect(JSON.stringify(r.body)).not.toContain('hunter2');
    });
  });
}
