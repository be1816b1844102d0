import { describe, it, expect, vi, beforeAll, afterAll } from 'vitest';
import { sqliteDatabase } from '../helpers/databases.js';
import { bootAccounts, ROUTES, type AccountsApp } from '../helpers/accounts.js';
import { renderTemplate } from '../../plugins/notification/server/index.js';

type Payload = { template: string; subject: string; text: string; body: string; language?: string };
type Mail = { title: string; recipient: string; payload: Payload };
const SITE = 'https://shop.example.com';
const RU_PAGE = `${SITE}/ru/rbac/subject/authentication/email-and-password/registration`;
const EN_PAGE = `${SITE}/rbac/subject/authentication/email-and-password/registration`;

/**
 * The accounts module's mails are written in the language of the page the request was sent from (its Referer's
 * first path segment; with no Referer, the first configured language of Accept-Language; else English), and their
 * links open that language's pages: a visitor who registers on /ru gets a Russian verification mail.
 */
describe("account mails in the visitor's language", () => {
  let t: AccountsApp;
  beforeAll(async () => {
    t = (await bootAccounts(sqliteDatabase(), { env: { PUBLIC_URL: SITE } })) as AccountsApp;
  });
  afterAll(async () => t?.close());

  const mailsTo = (to: string, count: number) =>
    vi.waitFor(
      async () => {
        const table = t.database.tables['notification/notification'];
        const all = ((await t.database.db.select().from(table)) as Mail[]).filter((m) => m.recipient === to);
        expect(all).toHaveLength(count);
        return all;
      },
      { timeout: 10_000, interval: 50 },
    );
  const forgot = (email: string, headers: Record<string, string>) => t.anon('POST', ROUTES.forgot, { data: { email } }, headers);

  it('registering on a /ru page: the verification mail is Russian, laid out in Russian, its link opens the Russian verify page', async () => {
    const r = await t.anon('POST', ROUTES.register, { data: { login: 'olga@example.com', password: 'password123' } }, { referer: RU_PAGE });
    expect(r.status).toBe(201);
    const [mail] = await mailsTo('olga@example.com', 1);
    expect(mail!.title).toBe('Подтвердите адрес почты');
    expect(mail!.payload.language).toBe('ru');
    expect(mail!.payload.body).toMatch(new RegExp(`^Подтвердите, что этот адрес принадлежит вашей учётной записи.*\\n${SITE}/ru/rbac/subject/authentication/email-and-password/verify\\?code=`));
    expect(mail!.payload.text).toContain('Код подтверждения: ');
    expect(mail!.payload.text).toContain('Вы получили это письмо, потому что у вас есть учётная запись или роль на этом сайте.');
    expect(mail!.payload.text).not.toMatch(/Verify|Confirm|You get this email/);
    const rendered = await renderTemplate(mail!.payload.template, { subject: mail!.payload.subject, text: mail!.payload.body, data: {}, publicUrl: SITE, language: 'ru' });
    expect(rendered.html).toContain('<html lang="ru">');
  });

  it('a reset asked from a /ru page is Russian with the Russian reset page; from an English page English, whatever Accept-Language says', async () => {
    await t.register('pavel@example.com');
    await mailsTo('pavel@example.com', 1);
    expect((await forgot('pavel@example.com', { referer: `${SITE}/ru/rbac/subject/authentication/email-and-password/forgot-password` })).status).toBe(200);
    const ru = (await mailsTo('pavel@example.com', 2)).find((m) => m.payload.template === 'reset-password')!;
    expect(ru.title).toBe('Сброс пароля');
    expect(ru.payload.body).toContain(`${SITE}/ru/rbac/subject/authentication/email-and-password/reset-password?code=`);
    expect(ru.payload.text.trimEnd().endsWith('Если вы этого не запрашивали, не обращайте внимания на это письмо: пароль останется прежним.')).toBe(true);

    await forgot('pavel@example.com', { referer: EN_PAGE, 'accept-language': 'ru-RU,ru;q=0.9' });
    const en = (await mailsTo('pavel@example.com', 3)).filter((m) => m.payload.template === 'reset-password').find((m) => m !== ru && m.title !== ru.title)!;
    expect(en.title).toBe('Reset your password');
    expect(en.payload.body).toContain(`${SITE}/rbac/subject/authentication/email-and-password/reset-password?code=`);
    expect(en.payload.language).toBe('en');
  });

  it('with no Referer (an API client), Accept-Language decides among the configured languages, else English', async () => {
    await t.register('kira@example.com');
    await mailsTo('kira@example.com', 1);
    await forgot('kira@example.com', { 'accept-language': 'de-DE, ru;q=0.8, en;q=0.5' });
    const resets = () => mailsTo('kira@example.com', 2).then((all) => all.filter((m) => m.payload.template === 'reset-password'));
    expect((await resets()).map((m) => m.title)).toEqual(['Сброс пароля']);
    await forgot('kira@example.com', { 'accept-language': 'de-DE, fr' });
    const all = await mailsTo('kira@example.com', 3);
    expect(all.filter((m) => m.payload.template === 'reset-password').map((m) => m.title).sort()).toEqual(['Reset your password', 'Сброс пароля']);
  });

  it('a notice of a change made on a /ru page is Russian, and points to the Russian forgot-password page', async () => {
    const s = await t.register('lev@example.com');
    await mailsTo('lev@example.com', 1);
    await t.verify(s, 'lev@example.com');
    const added = await t.call(
      'POST',
      '/api/rbac/identities/email-and-password',
      { data: { email: 'lev2@example.com', password: 'password123', currentPassword: 'password123' } },
      { token: s.jwt, headers: { referer: `${SITE}/ru/rbac/subject/settings` } },
    );
    expect(added.status).toBe(201);
    const notice = (await mailsTo('lev@example.com', 2)).find((m) => m.payload.template === 'account-changed')!;
    expect(notice.title).toBe('К вашей учётной записи добавлена почта для входа');
    expect(notice.payload.body).toBe(
      `Адрес lev2@example.com добавлен как способ входа в вашу учётную запись.\n\nЕсли это были не вы, сразу сбросьте пароль:\n${SITE}/ru/rbac/subject/authentication/email-and-password/forgot-password`,
    );
    const [verify] = await mailsTo('lev2@example.com', 1);
    expect(verify!.title).toBe('Подтвердите адрес почты');
  });
});
