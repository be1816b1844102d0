import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { Page } from 'playwright-core';
import { shown, startStorefront, type Storefront } from '../helpers/storefront.js';

/** the demo in Chromium: the language switcher, by keyboard and in the phone menu, and a Russian page without English words of the interface */
describe('languages in Chromium', () => {
  let sf: Storefront;
  let server: Storefront['server'];
  const problems = () => sf.problems;
  const open = (width: number): Promise<Page> => sf.open({ width, height: 900 }, String(width));

  beforeAll(async () => {
    sf = await startStorefront('languages');
    server = sf.server;
  });
  afterAll(async () => sf?.close());

  it('the navbar switches an article to Russian and back, by keyboard; the current language is marked', async () => {
    const page = await open(1280);
    await page.goto(`${server.url}/blog/articles/launch-week`, { waitUntil: 'networkidle' });
    const languages = page.getByRole('navigation', { name: 'Language' });
    await shown(languages);
    expect(await languages.getByRole('link', { name: 'EN English' }).getAttribute('aria-current')).toBe('true');
    const ru = languages.getByRole('link', { name: 'RU Русский' });
    const box = await ru.boundingBox();
    expect(box!.height).toBeGreaterThanOrEqual(24);
    expect(box!.width).toBeGreaterThanOrEqual(24);
    await ru.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.url}/ru/blog/articles/launch-week`);
    expect(await page.getAttribute('html', 'lang')).toBe('ru');
    const back = page.getByRole('navigation', { name: 'Язык' });
    expect(await back.getByRole('link', { name: 'RU Русский' }).getAttribute('aria-current')).toBe('true');
    await back.getByRole('link', { name: 'EN English' }).click();
    await page.waitForURL(`${server.url}/blog/articles/launch-week`);
    await page.close();
    expect(problems()).toEqual([]);
  });

  it('the phone menu lists the languages; the Russian home page speaks Russian', async () => {
    const page = await open(390);
    await page.goto(`${server.url}/`, { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: 'Open menu' }).click();
    const languages = page.getByRole('navigation', { name: 'Language' });
    await shown(languages.getByRole('link', { name: 'Русский' }));
    await languages.getByRole('link', { name: 'Русский' }).click();
    await page.waitForURL(`${server.url}/ru`);
    await shown(page.getByRole('heading', { name: 'Блог' }));
    const toggle = page.getByRole('button', { name: 'Открыть меню' });
    await shown(toggle);
    const text = await page.locator('body').innerText();
    for (const english of ['Read more', 'Login', 'Open menu', 'Submit', 'All rights reserved']) expect(text, english).not.toContain(english);
    await page.close();
    expect(problems()).toEqual([]);
  });

  it("the account screens on /ru speak Russian: registering a taken email says to check the email, as for a new one (item 3); a used reset link is refused", async () => {
    const taken = await server.api('POST', '/api/rbac/subjects/authentication/email-and-password/registration', { data: { login: 'taken@example.com', password: 'taken-password' } });
    expect(taken.status).toBe(201);
    const page = await open(390);
    await page.goto(`${server.url}/ru/rbac/subject/authentication/email-and-password/registration`, { waitUntil: 'networkidle' });
    await page.getByLabel('Эл. почта').fill('taken@example.com');
    await page.getByLabel('Пароль').fill('another-password');
    await page.getByRole('button', { name: 'Создать аккаунт' }).click();
    await shown(page.getByRole('status').getByText('Мы отправили письмо на taken@example.com. Откройте его, чтобы подтвердить адрес.'));
    expect(await page.getByRole('alert').count()).toBe(0);

    await page.goto(`${server.url}/ru/rbac/subject/authentication/email-and-password/reset-password?code=no-such-code`, { waitUntil: 'networkidle' });
    const form = page.getByRole('form', { name: 'Новый пароль' });
    await form.locator('input[name="password"]').fill('new-password-1');
    await form.locator('input[name="passwordConfirmation"]').fill('new-password-1');
    await form.locator('input[name="passwordConfirmation"]').press('Enter');
    await shown(form.getByRole('alert'));
    expect(await form.getByRole('alert').textContent()).toBe('Ссылка для сброса неверна или устарела');
    await page.close();
    expect(problems().filter((p) => !/status of (400|409)/.test(p))).toEqual([]);
  });

  it('sign-in on /ru says the rate limit in Russian after too many wrong passwords', async () => {
    const page = await open(390);
    await page.goto(`${server.url}/ru/rbac/subject/authentication/select-method`, { waitUntil: 'networkidle' });
    await page.getByLabel('Эл. почта').fill('limited@example.com');
    const alert = page.locator('main').getByRole('alert');
    for (let i = 0; i < 6; i++) {
      await page.getByLabel('Пароль').fill(`wrong-password-${i}`);
      await page.getByRole('button', { name: 'Войти', exact: true }).click();
      await shown(alert);
      if ((await alert.textContent())!.startsWith('Слишком')) break;
    }
    expect(await alert.textContent()).toMatch(/^Слишком много попыток: попробуйте снова через \d+ с$/);
    await page.close();
    expect(problems().filter((p) => !/status of (400|401|409|429)/.test(p))).toEqual([]);
  });

  it("a visitor's settings page on /ru reads as Russian: 'Войдите, чтобы увидеть свой аккаунт.'", async () => {
    const page = await open(390);
    await page.goto(`${server.url}/ru/rbac/subjects/settings`, { waitUntil: 'networkidle' });
    const prompt = page.locator('main p').filter({ has: page.getByRole('link', { name: 'Войдите' }) });
    await shown(prompt);
    expect((await prompt.textContent())!.trim()).toBe('Войдите, чтобы увидеть свой аккаунт.');
    await page.goto(`${server.url}/rbac/subjects/settings`, { waitUntil: 'networkidle' });
    const english = page.locator('main p').filter({ has: page.getByRole('link', { name: 'Sign in' }) });
    await shown(english);
    expect((await english.textContent())!.trim()).toBe('Sign in to see your account.');
    await page.close();
  });
});
