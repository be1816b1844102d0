import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { sqliteDatabase } from '../helpers/databases.js';
import { startTestServer } from '../helpers/browser.js';

/**
 * 'article-overview-with-private-content-default' (issue 13): the private text of an article is field
 * access in the model (blog/article.privateContent, read: signed-in), so no answer to a visitor holds it —
 * not the page's HTML, not its page data, not the API — and a signed-in subject gets it from the article read.
 */
describe('the private part of an article', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  const PRIVATE = 'a booking template in March';
  const page = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(server.url + path, { headers });
    const html = await res.text();
    const data = /<script id="__PAGE__" type="application\/json">([\s\S]*?)<\/script>/.exec(html)?.[1];
    return { status: res.status, html, data: data ?? '' };
  };
  beforeAll(async () => {
    server = await startTestServer(sqliteDatabase(), { SEED: 'true' });
  });
  afterAll(async () => server?.close());

  it('is in no answer to a visitor: page HTML, page data, the article page, the API', async () => {
    const members = await page('/blog/members');
    expect(members.status).toBe(200);
    expect(members.html).toContain('The template roadmap for next year');
    expect(members.data).toContain('The template roadmap for next year');
    expect(members.html).not.toContain(PRIVATE);
    expect(members.data).not.toContain('privateContent');
    expect((await page('/ru/blog/members')).html).not.toContain('шаблон бронирования');
    const articlePage = await page('/blog/articles/template-roadmap');
    expect(articlePage.status).toBe(200);
    expect(articlePage.html).not.toContain(PRIVATE);
    const list = await server.api('GET', '/api/blog/articles?filters[and][0][column]=slug&filters[and][0][method]=eq&filters[and][0][value]=template-roadmap');
    expect(list.body.data).toHaveLength(1);
    expect(JSON.stringify(list.body)).not.toContain(PRIVATE);
    expect((await server.api('GET', `/api/blog/articles/${list.body.data[0].id}`)).body.data.privateContent).toBeUndefined();
  });

  /** a field one may not read cannot be filtered or ordered on either: it answers like a column that does not exist */
  it('a visitor cannot filter or order by it to learn it letter by letter', async () => {
    const r = await server.api('GET', '/api/blog/articles?filters[and][0][column]=privateContent.en&filters[and][0][method]=ilike&filters[and][0][value]=booking');
    expect(r.status).toBe(400);
    expect(r.body.cause[0]).toMatchObject({ rule: 'column' });
    expect((await server.api('GET', '/api/blog/articles?orderBy[and][0][column]=privateContent.en&orderBy[and][0][method]=asc')).status).toBe(400);
    expect((await server.api('GET', '/api/blog/articles/count?filters[and][0][column]=privateContent&filters[and][0][method]=isNull')).status).toBe(400);
    // the system may
    expect((await server.system('GET', '/api/blog/articles?filters[and][0][column]=privateContent.en&filters[and][0][method]=ilike&filters[and][0][value]=booking')).status).toBe(200);
  });

  it('a signed-in subject reads it from the article; its page HTML and page data still never hold it', async () => {
    const reg = await server.api('POST', '/api/rbac/subjects/authentication/email-and-password/registration', { data: { login: 'member@example.com', password: 'password123' } });
    const auth = { authorization: `Bearer ${reg.body.data.jwt}` };
    const article = (await server.api('GET', '/api/blog/articles?filters[and][0][column]=slug&filters[and][0][method]=eq&filters[and][0][value]=template-roadmap')).body.data[0];
    const read = await server.api('GET', `/api/blog/articles/${article.id}`, undefined, auth);
    expect(read.status).toBe(200);
    expect(JSON.stringify(read.body.data.privateContent)).toContain(PRIVATE);
    const members = await page('/blog/members', { cookie: `rbac.subject.jwt=${reg.body.data.jwt}` });
    expect(members.html).not.toContain(PRIVATE);
    expect(members.data).not.toContain('privateContent');
  });

  it('an anonymous session (authentication/init: a cart, no login) is not signed in: it neither reads nor filters on it, until it registers', async () => {
    const init = await server.api('GET', '/api/rbac/subjects/authentication/init');
    expect(init.status).toBe(200);
    const anon = { authorization: `Bearer ${init.body.data.jwt}` };
    const list = await server.api('GET', '/api/blog/articles?filters[and][0][column]=slug&filters[and][0][method]=eq&filters[and][0][value]=template-roadmap', undefined, anon);
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).not.toContain(PRIVATE);
    const id = list.body.data[0].id;
    const read = await server.api('GET', `/api/blog/articles/${id}`, undefined, anon);
    expect(read.status).toBe(200);
    expect(read.body.data.privateContent).toBeUndefined();
    const filtered = await server.api('GET', '/api/blog/articles?filters[and][0][column]=privateContent.en&filters[and][0][method]=ilike&filters[and][0][value]=booking', undefined, anon);
    expect(filtered.status).toBe(400);
    expect(filtered.body.cause[0]).toMatchObject({ rule: 'column' });
    // registering from that session makes the same subject an account: now it reads it
    const reg = await server.api('POST', '/api/rbac/subjects/authentication/email-and-password/registration', { data: { login: 'was-anonymous@example.com', password: 'password123' } }, anon);
    expect(reg.status).toBe(201);
    const after = await server.api('GET', `/api/blog/articles/${id}`, undefined, { authorization: `Bearer ${reg.body.data.jwt}` });
    expect(JSON.stringify(after.body.data.privateContent)).toContain(PRIVATE);
  });
});
