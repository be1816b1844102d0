import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { Variant } from '../../../web/storefront/context.js';
import { PageView, type PageData } from '../../../web/storefront/page.js';
import { loadChunks, register } from '../../../web/registry.js';
import { registerWebsiteBuilderWeb } from './index.js';
import { L, button, buttonsArray, expectHydrates, link, pageIn, renderIn, row } from './test-fixtures.js';

beforeAll(async () => {
  registerWebsiteBuilderWeb();
  await loadChunks();
});
afterEach(cleanup);

const logotype = row('default', { title: L('Studio', 'Студия') });
const links = buttonsArray(
  button(L('Home', 'Главная'), '/', 'link'),
  button(L('Blog', 'Блог'), '/blog/articles/launch-week', 'link'),
  button(L('Account', 'Аккаунт'), '/rbac/subject/authentication/select-method', 'link'),
);
const navbar = row('navbar-default', {
  title: L('Studio', 'Студия'),
  widgetsToLogotypes: [link('logotype', logotype)],
  widgetsToButtonsArrays: [link('buttonsArray', links)],
});

describe("website-builder/widget 'navbar-default'", () => {
  it('shows the logotype and the buttons as nav links with the language prefix', () => {
    renderIn(<Variant module="website-builder" entity="widget" row={navbar} />, 'ru', '/blog/articles/launch-week');
    const header = screen.getByRole('banner');
    expect(header.className).toContain('sticky');
    expect(within(header).getByRole('link', { name: 'Студия' }).getAttribute('href')).toBe('/ru');
    const nav = screen.getByRole('navigation', { name: 'Главное меню' });
    expect(within(nav).getAllByRole('link').map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Главная', '/ru'],
      ['Блог', '/ru/blog/articles/launch-week'],
      ['Аккаунт', '/ru/rbac/subject/authentication/select-method'],
    ]);
    expect(within(nav).getByRole('link', { name: 'Блог' }).getAttribute('aria-current')).toBe('page');
    // the bar's language switcher (shown at lg, where the menu is not) links this page in English
    const languages = within(header).getAllByRole('navigation', { name: 'Язык' })[0]!;
    expect(within(languages).getByRole('link', { name: 'EN English' }).getAttribute('href')).toBe('/blog/articles/launch-week');
    expect(within(languages).getByRole('link', { name: 'RU Русский' }).getAttribute('aria-current')).toBe('true');
  });

  it('hydrates the server markup without a mismatch', async () => {
    await expectHydrates(<Variant module="website-builder" entity="widget" row={navbar} />, 'ru');
  });

  it('opens a full-screen menu from the hamburger and closes it again', async () => {
    const user = userEvent.setup();
    renderIn(<Variant module="website-builder" entity="widget" row={navbar} />);
    const toggle = screen.getByRole('button', { name: 'Open menu' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    const menu = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    expect(menu.hidden).toBe(true);

    await user.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(toggle.getAttribute('aria-label')).toBe('Close menu');
    expect(menu.hidden).toBe(false);
    expect(menu.className).toContain('fixed inset-0');
    expect(within(within(menu).getByRole('navigation', { name: 'Main' })).getAllByRole('link').map((a) => a.textContent)).toEqual(['Home', 'Blog', 'Account']);
    expect(document.body.style.overflow).toBe('hidden');

    // the mobile menu lists the languages too, each linking to this page in it
    const languages = within(within(menu).getByRole('navigation', { name: 'Language' })).getAllByRole('link');
    expect(languages.map((a) => [a.textContent, a.getAttribute('href'), a.getAttribute('aria-current')])).toEqual([['English', '/', 'true'], ['Русский', '/ru', null]]);

    await user.click(screen.getByRole('button', { name: 'Close menu' }));
    expect(menu.hidden).toBe(true);
    expect(document.body.style.overflow).toBe('');
  });

  it('closes the menu on Escape and returns focus to the hamburger', async () => {
    const user = userEvent.setup();
    renderIn(<Variant module="website-builder" entity="widget" row={navbar} />);
    await user.click(screen.getByRole('button', { name: 'Open menu' }));
    fireEvent.keyDown(document, { key: 'Escape' });
    const toggle = screen.getByRole('button', { name: 'Open menu' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(toggle);
  });

  it('closes the menu when a link in it is followed', async () => {
    const user = userEvent.setup();
    renderIn(<Variant module="website-builder" entity="widget" row={navbar} />);
    const toggle = screen.getByRole('button', { name: 'Open menu' });
    await user.click(toggle);
    const menu = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    within(menu).getByRole('link', { name: 'Blog' }).addEventListener('click', (e) => e.preventDefault());
    await user.click(within(menu).getByRole('link', { name: 'Blog' }));
    expect(menu.hidden).toBe(true);
  });
});

describe('the navbar as the page header', () => {
  // a layout widget of another module, placed before the navbar (as the account menu is)
  beforeAll(() => register('test/widget/greeting', () => <a href="/sign-in">Sign in here</a>));
  const page = (before: PageData['before']): PageData => ({ context: pageIn('en'), title: 'Home', meta: {}, before, content: [], after: [] });
  const greeting = { id: 'b-greeting', module: 'test', widget: row('greeting') };
  const nav = { id: 'b-navbar', module: 'website-builder', widget: navbar };

  it('draws the layout widgets placed before it in its bar and in its menu, not above it', async () => {
    const user = userEvent.setup();
    render(<PageView data={page([greeting, nav])} />);
    const header = screen.getByRole('banner');
    // once in the bar (shown from lg) and once in the menu; nothing outside the header
    const links = screen.getAllByRole('link', { name: 'Sign in here', hidden: true });
    expect(links).toHaveLength(2);
    for (const a of links) expect(header.contains(a)).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Open menu' }));
    const menu = document.getElementById(screen.getByRole('button', { name: 'Close menu' }).getAttribute('aria-controls')!)!;
    expect(within(menu).getByRole('link', { name: 'Sign in here' })).toBeTruthy();
    // after the menu's links
    const order = within(menu).getAllByRole('link').map((a) => a.textContent);
    expect(order).toEqual(['Home', 'Blog', 'Account', 'English', 'Русский', 'Sign in here']);
  });

  it('leaves widgets placed after it where they are', () => {
    render(<PageView data={page([nav, greeting])} />);
    const links = screen.getAllByRole('link', { name: 'Sign in here', hidden: true });
    expect(links).toHaveLength(1);
    expect(screen.getByRole('banner').contains(links[0]!)).toBe(false);
  });
});

describe("website-builder/widget 'footer-default'", () => {
  const footer = row('footer-default', {
    title: L('Studio', 'Студия'),
    description: L('Templates and hosting.', 'Шаблоны и хостинг.'),
    widgetsToLogotypes: [link('logotype', logotype)],
    widgetsToButtonsArrays: [
      link('buttonsArray', { ...buttonsArray(button(L('Blog', 'Блог'), '/blog/articles/launch-week')), title: L('Explore', 'Разделы') }),
      link('buttonsArray', buttonsArray(button(L('Email us', 'Напишите нам'), 'mailto:hello@studio.example')), 1),
    ],
  });

  it('shows the logotype, description, link columns and the copyright line', () => {
    renderIn(<Variant module="website-builder" entity="widget" row={footer} />, 'ru');
    const info = screen.getByRole('contentinfo');
    expect(within(info).getByText('Шаблоны и хостинг.')).toBeTruthy();
    expect(within(info).getByRole('heading', { name: 'Разделы' })).toBeTruthy();
    expect(within(info).getByRole('link', { name: 'Блог' }).getAttribute('href')).toBe('/ru/blog/articles/launch-week');
    const mail = within(info).getByRole('link', { name: 'Напишите нам' });
    expect(mail.getAttribute('href')).toBe('mailto:hello@studio.example');
    expect(mail.getAttribute('target')).toBe('_blank');
    expect(info.textContent).toContain('© Студия. Все права защищены.');
    expect(info.textContent).not.toMatch(/20\d\d/);
  });

  it('hydrates the server markup without a mismatch', async () => {
    await expectHydrates(<Variant module="website-builder" entity="widget" row={footer} />);
  });
});

describe('isCurrent', () => {
  it('reads a link as it is drawn: without its leading slash, with a language prefix, with a query or a trailing slash', async () => {
    const { isCurrent } = await import('./navbar.js');
    const languages = ['en', 'ru'];
    for (const url of ['builder-test', '/builder-test', '/builder-test/', '/ru/builder-test', 'ru/builder-test', '/builder-test?x=1#top']) {
      expect(isCurrent(url, '/builder-test', languages), url).toBe(true);
    }
    for (const url of ['/builder', '/builder-test/more', 'https://example.com/builder-test', '#builder-test', '']) {
      expect(isCurrent(url, '/builder-test', languages), url).toBe(false);
    }
    expect(isCurrent('/', '/', languages)).toBe(true);
    expect(isCurrent('/ru', '/', languages)).toBe(true);
  });
});
