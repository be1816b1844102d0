import { describe, it, expect, beforeAll, afterAll, vi } from 'vitest';
import { ROOT } from '../../engine/codegen.js';
import { loadConfig } from '../../runtime/config.js';
import { prepare } from '../../runtime/server.js';
import { createCrmPlugin } from '../../plugins/crm/server/index.js';
import { blog } from '../../plugins/blog/server/index.js';
import { ecommerce } from '../../plugins/ecommerce/server/index.js';
import { notification } from '../../plugins/notification/server/index.js';
import { createRbacPlugin } from '../../plugins/rbac/server/index.js';
import { DIALECTS, sqliteDatabase } from '../helpers/databases.js';
import { bootApp, type TestApp } from '../helpers/app.js';
import { GENEROUS } from '../helpers/accounts.js';

const requestsOf = (formId: string) => `/api/crm/forms/${formId}/requests`;
/** these suites post many forms from one address; the limit itself is tested in tests/security/public-writes.test.ts */
const crm = createCrmPlugin({ formLimit: { points: 10_000, duration: 60 } });

/** a form with a required name, a required email, an optional message and a select */
async function contactForm(t: TestApp) {
  const form = (await t.call('POST', '/api/crm/forms', { data: { slug: `contact-${Math.random().toString(36).slice(2, 8)}`, title: { en: 'Contact us' } } })).body.data;
  const inputs = [
    { slug: `name-${form.id}`, type: 'text', name: 'name', isRequired: true },
    { slug: `email-${form.id}`, type: 'email', name: 'email', isRequired: true },
    { slug: `message-${form.id}`, type: 'textarea', name: 'message' },
    // no name: submitted under its slug
    { slug: `budget-${form.id.slice(0, 8)}`, type: 'select' },
  ];
  for (const [i, input] of inputs.entries()) {
    const row = (await t.call('POST', '/api/crm/inputs', { data: input })).body.data;
    expect((await t.call('POST', '/api/crm/forms-to-inputs', { data: { formId: form.id, inputId: row.id, orderIndex: i } })).status).toBe(201);
  }
  return { id: form.id as string, budgetKey: inputs[3].slug };
}

async function storedRequest(t: TestApp, id: string) {
  const r = await t.call('GET', `/api/crm/requests/${id}`);
  expect(r.status).toBe(200);
  return r.body.data;
}

for (const d of DIALECTS) {
  describe(`crm form requests on ${d.name}`, () => {
    let t: TestApp;
    let form: Awaited<ReturnType<typeof contactForm>>;
    beforeAll(async () => {
      t = await bootApp(await d.make(), { plugins: [crm] });
      form = await contactForm(t);
    });
    afterAll(async () => t?.close());

    it('anyone may send a form: the request keeps only the form\'s fields, the page and a link to the form', async () => {
      const r = await t.call('POST', requestsOf(form.id), {
        data: { name: 'Ada', email: 'ada@example.com', message: 'Hello', [form.budgetKey]: '1000', isAdmin: true, formId: 'x', '__proto__': 'p' },
      }, { auth: false, headers: { referer: 'https://shop.example.com/ru/contacts?utm=1' } });
      expect(r.status).toBe(201);
      expect(Object.keys(r.body.data)).toEqual(['id']);
      const row = await storedRequest(t, r.body.data.id);
      expect(row.payload).toEqual({ formId: form.id, fields: { name: 'Ada', email: 'ada@example.com', message: 'Hello', [form.budgetKey]: '1000' } });
      expect(row.sourceUrl).toBe('/ru/contacts');
      const links = await t.call('GET', `/api/crm/forms-to-requests?filters[and][0][column]=requestId&filters[and][0][method]=eq&filters[and][0][value]=${r.body.data.id}`);
      expect(links.body.data).toHaveLength(1);
      expect(links.body.data[0].formId).toBe(form.id);
    });

    it('accepts a form-encoded body and a multipart one, with values as strings', async () => {
      const encoded = await t.call('POST', requestsOf(form.id), 'name=Bob&email=bob%40example.com&message=Hi+there&extra=dropped', {
        auth: false, headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(encoded.status).toBe(201);
      expect((await storedRequest(t, encoded.body.data.id)).payload.fields).toEqual({ name: 'Bob', email: 'bob@example.com', message: 'Hi there' });

      const multipart = new FormData();
      multipart.set('name', 'Cy');
      multipart.set('email', 'cy@example.com');
      multipart.set('file', new Blob(['x']), 'x.txt');
      const m = await t.call('POST', requestsOf(form.id), multipart, { auth: false });
      expect(m.status).toBe(201);
      const stored = await storedRequest(t, m.body.data.id);
      expect(stored.payload.fields).toEqual({ name: 'Cy', email: 'cy@example.com' });
      expect(stored.sourceUrl ?? null).toBeNull();
    });

    it('a missing or blank required field is a 400 naming it, and nothing is stored', async () => {
      const before = (await t.call('GET', '/api/crm/requests/count')).body.data;
      const missing = await t.call('POST', requestsOf(form.id), { data: { name: 'Ada' } }, { auth: false });
      expect(missing.status).toBe(400);
      expect(missing.body.message).toBe('email is required');
      expect(missing.body.cause).toEqual([{ field: 'email', rule: 'required', message: 'email is required' }]);
      const blank = await t.call('POST', requestsOf(form.id), { data: { name: '   ', email: 'a@example.com' } }, { auth: false });
      expect(blank.status).toBe(400);
      expect(blank.body.cause.map((c: { field: string }) => c.field)).toEqual(['name']);
      expect((await t.call('GET', '/api/crm/requests/count')).body.data).toBe(before);
    });

    it('an unknown form is a 404; a bad id, no data, objects and oversized bodies are 400s', async () => {
      const unknown = await t.call('POST', requestsOf('00000000-0000-4000-8000-000000000000'), { data: { name: 'A' } }, { auth: false });
      expect(unknown.status).toBe(404);
      expect((await t.call('POST', requestsOf('not-a-uuid'), { data: {} }, { auth: false })).status).toBe(400);
      const noData = await t.call('POST', requestsOf(form.id), {}, { auth: false });
      expect(noData.status).toBe(400);
      expect(noData.body.message).toBe('No data');
      expect((await t.call('POST', requestsOf(form.id), { data: { name: { $gt: '' }, email: 'a@example.com' } }, { auth: false })).status).toBe(400);
      const long = await t.call('POST', requestsOf(form.id), { data: { name: 'A', email: 'a@example.com', message: 'x'.repeat(5001) } }, { auth: false });
      expect(long.status).toBe(400);
      expect(long.body.cause[0]).toMatchObject({ field: 'message', rule: 'maxLength' });
      const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`f${i}`, 'v']));
      expect((await t.call('POST', requestsOf(form.id), { data: { ...many, name: 'A', email: 'a@example.com' } }, { auth: false })).status).toBe(400);
      const exactly = await t.call('POST', requestsOf(form.id), { data: { name: 'A', email: 'a@example.com', message: 'x'.repeat(5000) } }, { auth: false });
      expect(exactly.status).toBe(201);
    });

    it('the stored requests stay private', async () => {
      expect((await t.call('GET', '/api/crm/requests', undefined, { auth: false })).status).toBe(401);
    });
  });

  describe(`crm form requests with the accounts and notification modules on ${d.name}`, () => {
    let t: TestApp;
    let form: Awaited<ReturnType<typeof contactForm>>;
    beforeAll(async () => {
      t = await bootApp(await d.make(), {
        plugins: [notification, createRbacPlugin({ limits: GENEROUS }), crm],
        env: { ADMIN_EMAILS: 'boss@example.com,sales@example.com', PUBLIC_URL: 'https://shop.example.com' },
      });
      form = await contactForm(t);
    });
    afterAll(async () => t?.close());

    it('the seeded permission lets a visitor send a form, and each admin gets an email with the fields', async () => {
      const r = await t.call('POST', requestsOf(form.id), { data: { name: 'Dana', email: 'dana@example.com', message: 'Need a shop' } }, { auth: false });
      expect(r.status).toBe(201);
      const mails = await vi.waitFor(async () => {
        const n = await t.call('GET', '/api/notification/notifications?limit=10');
        expect(n.body.data).toHaveLength(2);
        return n.body.data as { recipient: string; payload: { text: string; template: string } }[];
      }, { timeout: 15_000, interval: 50 });
      expect(mails.map((m) => m.recipient).sort()).toEqual(['boss@example.com', 'sales@example.com']);
      expect(mails[0].payload.template).toBe('crm-form-request');
      expect(mails[0].payload.text).toContain('email: dana@example.com');
      expect(mails[0].payload.text).toContain('message: Need a shop');
      // other writes in the module still need authorization
      expect((await t.call('POST', '/api/crm/requests', { data: { payload: {} } }, { auth: false })).status).toBe(401);
      expect((await t.call('POST', `/api/crm/forms/${form.id}/steps`, { data: {} }, { auth: false })).status).toBe(401);
    });
  });
}

describe('the demo rows', () => {
  it('the blog and crm seeds load with the ecommerce seed, and the seeded contact form takes a request', async () => {
    const db = sqliteDatabase();
    const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: db.url, RBAC_SECRET_KEY: 'test-secret-key-0123456789', LOG_LEVEL: 'silent' });
    const p = await prepare({ config, root: ROOT, plugins: [ecommerce, blog, crm], seed: true });
    try {
      expect(p.seeded).toBeGreaterThan(20);
      const res = await p.app.request(requestsOf('9c000000-0000-4000-8000-000000000101'), {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ data: { name: 'Eve', email: 'eve@example.com', message: 'Hi' } }),
      });
      expect(res.status).toBe(201);
      const article = await p.app.request('/api/blog/articles?filters[and][0][column]=slug&filters[and][0][method]=eq&filters[and][0][value]=launch-week');
      expect((await article.json()).data).toHaveLength(1);
    } finally {
      await p.database.close();
      await db.drop();
    }
  });
});
