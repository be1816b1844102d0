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

/** a form with a required name, a required email, an optional message, a select (no name: its slug), a number, a url, a date, and a topic with options */
async function contactForm(t: TestApp) {
  const form = (await t.call('POST', '/api/crm/forms', { data: { slug: `contact-${Math.random().toString(36).slice(2, 8)}`, title: { en: 'Contact us' } } })).body.data;
  const inputs = [
    { slug: `name-${form.id}`, type: 'text', name: 'name', isRequired: true },
    { slug: `email-${form.id}`, type: 'email', name: 'email', isRequired: true },
    { slug: `message-${form.id}`, type: 'textarea', name: 'message' },
    // no name: submitted under its slug
    { slug: `budget-${form.id.slice(0, 8)}`, type: 'select' },
    { slug: `seats-${form.id}`, type: 'number', name: 'seats' },
    { slug: `site-${form.id}`, type: 'url', name: 'site' },
    { slug: `start-${form.id}`, type: 'date', name: 'start' },
    { slug: `topic-${form.id}`, type: 'radio', name: 'topic' },
  ];
  for (const [i, input] of inputs.entries()) {
    const row = (await t.call('POST', '/api/crm/inputs', { data: input })).body.data;
    expect((await t.call('POST', '/api/crm/forms-to-inputs', { data: { formId: form.id, inputId: row.id, orderIndex: i } })).status).toBe(201);
    if (input.type !== 'radio') continue;
    for (const [j, value] of ['shop', 'blog'].entries()) {
      const option = (await t.call('POST', '/api/crm/options', { data: { slug: `${value}-${form.id}`, value } })).body.data;
      await t.call('POST', '/api/crm/inputs-to-options', { data: { inputId: row.id, optionId: option.id, orderIndex: j } });
    }
  }
  return { id: form.id as string, budgetKey: inputs[3].slug };
}

/**
 * Bodies every route that takes a form's fields must answer alike (the visitor's form and the signed-in
 * subject's request): the status and the causes as {field, rule}.
 */
const BAD_BODIES: [string, Record<string, unknown>, { field: string; rule: string }[]][] = [
  ['a field that is no input, with an object for its value', { name: 'Ada', email: 'ada@example.com', campaign: { $gt: '' } }, [{ field: 'campaign', rule: 'type' }]],
  ['a field that is no input, oversized', { name: 'Ada', email: 'ada@example.com', campaign: 'x'.repeat(5001) }, [{ field: 'campaign', rule: 'maxLength' }]],
  ['a field whose name is too long', { name: 'Ada', email: 'ada@example.com', ['k'.repeat(101)]: 'v' }, [{ field: 'k'.repeat(100), rule: 'maxLength' }]],
  ['a missing required input', { name: 'Ada' }, [{ field: 'email', rule: 'required' }]],
  ['a blank required input', { name: '   ', email: 'a@example.com' }, [{ field: 'name', rule: 'required' }]],
  ['an email that is not one', { name: 'Ada', email: 'not-an-email' }, [{ field: 'email', rule: 'format' }]],
  ['a number that is not one', { name: 'Ada', email: 'a@example.com', seats: 'twelve' }, [{ field: 'seats', rule: 'type' }]],
  ['a url that is not http(s)', { name: 'Ada', email: 'a@example.com', site: 'javascript:alert(1)' }, [{ field: 'site', rule: 'format' }]],
  ['a date that does not exist', { name: 'Ada', email: 'a@example.com', start: '2026-02-31' }, [{ field: 'start', rule: 'format' }]],
  ['a value outside the options', { name: 'Ada', email: 'a@example.com', topic: 'hosting' }, [{ field: 'topic', rule: 'enum' }]],
  ['an object for a value', { name: { $gt: '' }, email: 'a@example.com' }, [{ field: 'name', rule: 'type' }]],
  ['an oversized value', { name: 'A', email: 'a@example.com', message: 'x'.repeat(5001) }, [{ field: 'message', rule: 'maxLength' }]],
];

/** a body every route must accept, and the fields it stores */
const GOOD_BODY = { name: 'Ada', email: 'ada@example.com', message: 'Hello', seats: '12', site: 'https://ada.example.com', start: '2026-12-01', topic: 'shop' };

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

    it('anyone may send a form: the request keeps the form\'s fields, the page and a link to the form', async () => {
      const r = await t.call('POST', requestsOf(form.id), { data: { ...GOOD_BODY, [form.budgetKey]: '1000' } }, { auth: false, headers: { referer: 'https://shop.example.com/ru/contacts?utm=1' } });
      expect(r.status).toBe(201);
      expect(Object.keys(r.body.data)).toEqual(['id']);
      const row = await storedRequest(t, r.body.data.id);
      expect(row.payload).toEqual({ formId: form.id, fields: { ...GOOD_BODY, [form.budgetKey]: '1000' } });
      expect(row.sourceUrl).toBe('/ru/contacts');
      const links = await t.call('GET', `/api/crm/forms-to-requests?filters[and][0][column]=requestId&filters[and][0][method]=eq&filters[and][0][value]=${r.body.data.id}`);
      expect(links.body.data).toHaveLength(1);
      expect(links.body.data[0].formId).toBe(form.id);
    });

    it('a CRM form accepts any fields (spec): fields that are no input of the form are kept as text beside the inputs', async () => {
      const extra = { isAdmin: true, subjectId: 'x', constructor: 'p', utm_source: 'newsletter', tags: ['a', 'b'], blank: ' ' };
      const r = await t.call('POST', requestsOf(form.id), { data: { name: 'Ada', email: 'ada@example.com', ...extra } }, { auth: false });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      expect((await storedRequest(t, r.body.data.id)).payload.fields).toEqual({
        name: 'Ada', email: 'ada@example.com', isAdmin: 'true', subjectId: 'x', constructor: 'p', utm_source: 'newsletter', tags: 'a, b',
      });
    });

    it.each(BAD_BODIES)('%s: a 400 naming each field and rule, and nothing is stored', async (_, data, causes) => {
      const before = (await t.call('GET', '/api/crm/requests/count')).body.data;
      const r = await t.call('POST', requestsOf(form.id), { data }, { auth: false });
      expect(r.status).toBe(400);
      expect(r.body.cause.map(({ field, rule }: { field: string; rule: string }) => ({ field, rule }))).toEqual(causes);
      expect(r.body.message).toBe(r.body.cause.map((c: { message: string }) => c.message).join('; '));
      expect((await t.call('GET', '/api/crm/requests/count')).body.data).toBe(before);
    });

    it('accepts a form-encoded body and a multipart one, with values as strings', async () => {
      const extra = await t.call('POST', requestsOf(form.id), 'name=Bob&email=bob%40example.com&extra=kept', {
        auth: false, headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(extra.status).toBe(201);
      expect((await storedRequest(t, extra.body.data.id)).payload.fields).toEqual({ name: 'Bob', email: 'bob@example.com', extra: 'kept' });
      const encoded = await t.call('POST', requestsOf(form.id), 'name=Bob&email=bob%40example.com&message=Hi+there', {
        auth: false, headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(encoded.status).toBe(201);
      expect((await storedRequest(t, encoded.body.data.id)).payload.fields).toEqual({ name: 'Bob', email: 'bob@example.com', message: 'Hi there' });

      const multipart = new FormData();
      multipart.set('name', 'Cy');
      multipart.set('email', 'cy@example.com');
      // a file part is no field: it is ignored
      multipart.set('file', new Blob(['x']), 'x.txt');
      const m = await t.call('POST', requestsOf(form.id), multipart, { auth: false });
      expect(m.status).toBe(201);
      const stored = await storedRequest(t, m.body.data.id);
      expect(stored.payload.fields).toEqual({ name: 'Cy', email: 'cy@example.com' });
      expect(stored.sourceUrl ?? null).toBeNull();
    });

    it('a __proto__ key is a field like any other: kept as text, an object for it refused, and no prototype touched', async () => {
      const r = await t.call('POST', requestsOf(form.id), '{"data":{"name":"A","email":"a@example.com","__proto__":{"isAdmin":true}}}', { auth: false });
      expect(r.status).toBe(400);
      expect(r.body.cause).toEqual([{ field: '__proto__', rule: 'type', message: '__proto__ must be text' }]);
      const ok = await t.call('POST', requestsOf(form.id), '{"data":{"name":"A","email":"a@example.com","__proto__":"x"}}', { auth: false });
      expect(ok.status).toBe(201);
      const fields = (await storedRequest(t, ok.body.data.id)).payload.fields;
      expect(Object.keys(fields).sort()).toEqual(['__proto__', 'email', 'name']);
      expect(Object.getOwnPropertyDescriptor(fields, '__proto__')?.value).toBe('x');
      expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    });

    it('a number too large to store (1e400, which JSON.parse reads as Infinity) is refused, not kept as "Infinity"', async () => {
      const before = (await t.call('GET', '/api/crm/requests/count')).body.data;
      const r = await t.call('POST', requestsOf(form.id), '{"data":{"name":1e400,"email":"a@example.com"}}', { auth: false });
      expect(r.status).toBe(400);
      expect(r.body.cause).toEqual([{ field: 'name', rule: 'finite', message: 'name must be a finite number' }]);
      expect((await t.call('GET', '/api/crm/requests/count')).body.data).toBe(before);
      // a finite number is text like any other
      const ok = await t.call('POST', requestsOf(form.id), '{"data":{"name":12,"email":"a@example.com"}}', { auth: false });
      expect(ok.status).toBe(201);
      expect((await storedRequest(t, ok.body.data.id)).payload.fields.name).toBe('12');
    });

    it('the message names the field: one cause alone is the whole message', async () => {
      const missing = await t.call('POST', requestsOf(form.id), { data: { name: 'Ada' } }, { auth: false });
      expect(missing.body.message).toBe('email is required');
      expect(missing.body.cause).toEqual([{ field: 'email', rule: 'required', message: 'email is required' }]);
    });

    it('an unknown form is a 404; a bad id, no data, objects and oversized bodies are 400s', async () => {
      const unknown = await t.call('POST', requestsOf('00000000-0000-4000-8000-000000000000'), { data: { name: 'A' } }, { auth: false });
      expect(unknown.status).toBe(404);
      expect((await t.call('POST', requestsOf('not-a-uuid'), { data: {} }, { auth: false })).status).toBe(400);
      const noData = await t.call('POST', requestsOf(form.id), {}, { auth: false });
      expect(noData.status).toBe(400);
      expect(noData.body.message).toBe('No data');
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
    /** a registered subject (member role) and its session token */
    const subject = async (login: string) => {
      const reg = await t.call('POST', '/api/rbac/subjects/authentication/email-and-password/registration', { data: { login, password: 'password123' } }, { auth: false });
      expect(reg.status).toBe(201);
      const me = await t.call('GET', '/api/rbac/subjects/authentication/me', undefined, { token: reg.body.data.jwt });
      return { id: me.body.data.id as string, token: reg.body.data.jwt as string };
    };
    const signedInRequest = (subjectId: string) => `/api/rbac/subjects/${subjectId}/crm-module/form/request`;
    const linksOf = async (subjectId: string) =>
      (await t.call('GET', `/api/rbac/subjects-to-crm-module-requests?filters[and][0][column]=subjectId&filters[and][0][method]=eq&filters[and][0][value]=${subjectId}`)).body.data as { crmModuleRequestId: string }[];
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
      expect((await t.call('POST', '/api/crm/steps', { data: {} }, { auth: false })).status).toBe(401);
      // a route that does not exist is a 404, for visitors too
      expect((await t.call('POST', `/api/crm/forms/${form.id}/steps`, { data: {} }, { auth: false })).status).toBe(404);
    });

    it('a signed-in subject sends a form: the request holds the fields and is linked to the subject', async () => {
      const ada = await subject('ada-crm@example.com');
      const r = await t.call('POST', signedInRequest(ada.id), { data: { ...GOOD_BODY, formId: form.id } }, { token: ada.token, headers: { referer: 'https://shop.example.com/contacts' } });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      const row = await storedRequest(t, r.body.data.id);
      expect(row.payload).toEqual({ formId: form.id, fields: GOOD_BODY });
      expect(row.sourceUrl).toBe('/contacts');
      expect((await linksOf(ada.id)).map((l) => l.crmModuleRequestId)).toEqual([r.body.data.id]);
      // the admins are mailed about it like about any request (the crm hook)
      await vi.waitFor(async () => {
        const n = await t.call('GET', '/api/notification/notifications?limit=100');
        expect(n.body.data.filter((m: { payload: { text: string } }) => m.payload.text.includes(`Request: ${r.body.data.id}`))).toHaveLength(2);
      }, { timeout: 15_000, interval: 50 });
    });

    it.each(BAD_BODIES)('%s: the same answer as the visitor\'s form, and nothing is stored or linked', async (_, data) => {
      const bob = await subject(`bob-${Math.random().toString(36).slice(2, 8)}@example.com`);
      const before = (await t.call('GET', '/api/crm/requests/count')).body.data;
      const anonymous = await t.call('POST', requestsOf(form.id), { data }, { auth: false });
      const signed = await t.call('POST', signedInRequest(bob.id), { data: { ...data, formId: form.id } }, { token: bob.token });
      expect(signed.status).toBe(400);
      expect({ status: signed.status, message: signed.body.message, cause: signed.body.cause }).toEqual({ status: anonymous.status, message: anonymous.body.message, cause: anonymous.body.cause });
      expect((await t.call('GET', '/api/crm/requests/count')).body.data).toBe(before);
      expect(await linksOf(bob.id)).toEqual([]);
    });

    it('formId is required and must name a form; only the subject itself may send as the subject', async () => {
      const cy = await subject('cy-crm@example.com');
      const dee = await subject('dee-crm@example.com');
      const before = (await t.call('GET', '/api/crm/requests/count')).body.data;
      const missing = await t.call('POST', signedInRequest(cy.id), { data: GOOD_BODY }, { token: cy.token });
      expect(missing.status).toBe(400);
      expect(missing.body.cause).toEqual([{ field: 'formId', rule: 'required', message: 'formId is required' }]);
      expect((await t.call('POST', signedInRequest(cy.id), { data: { ...GOOD_BODY, formId: 'nope' } }, { token: cy.token })).body.cause[0]).toMatchObject({ field: 'formId', rule: 'format' });
      expect((await t.call('POST', signedInRequest(cy.id), { data: { ...GOOD_BODY, formId: '00000000-0000-4000-8000-000000000000' } }, { token: cy.token })).status).toBe(404);
      // as another subject, or as nobody
      expect((await t.call('POST', signedInRequest(cy.id), { data: { ...GOOD_BODY, formId: form.id } }, { token: dee.token })).status).toBe(403);
      expect((await t.call('POST', signedInRequest(cy.id), { data: { ...GOOD_BODY, formId: form.id } }, { auth: false })).status).toBe(401);
      expect((await t.call('GET', '/api/crm/requests/count')).body.data).toBe(before);
      expect(await linksOf(cy.id)).toEqual([]);
      // another subject cannot read it
      const own = await t.call('POST', signedInRequest(dee.id), { data: { ...GOOD_BODY, formId: form.id } }, { token: dee.token });
      expect(own.status).toBe(201);
      expect((await t.call('GET', `/api/crm/requests/${own.body.data.id}`, undefined, { token: cy.token })).status).not.toBe(200);
    });
  });
}

describe('the form limit', () => {
  it("a signed-in subject's requests count against the same per-address limit as the visitor's form", async () => {
    const t = await bootApp(sqliteDatabase(), { plugins: [notification, createRbacPlugin({ limits: GENEROUS }), createCrmPlugin({ formLimit: { points: 2, duration: 60 } })] });
    try {
      const form = await contactForm(t);
      const reg = await t.call('POST', '/api/rbac/subjects/authentication/email-and-password/registration', { data: { login: 'limited@example.com', password: 'password123' } }, { auth: false });
      const me = await t.call('GET', '/api/rbac/subjects/authentication/me', undefined, { token: reg.body.data.jwt });
      const signed = () => t.call('POST', `/api/rbac/subjects/${me.body.data.id}/crm-module/form/request`, { data: { ...GOOD_BODY, formId: form.id } }, { token: reg.body.data.jwt });
      expect((await t.call('POST', requestsOf(form.id), { data: GOOD_BODY }, { auth: false })).status).toBe(201);
      expect((await signed()).status).toBe(201);
      const third = await signed();
      expect(third.status).toBe(429);
      expect(third.headers.get('retry-after')).toBeTruthy();
      expect((await t.call('GET', '/api/crm/requests/count')).body.data).toBe(2);
    } finally {
      await t.close();
    }
  });
});

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
