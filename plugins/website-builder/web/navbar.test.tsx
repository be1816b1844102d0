import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { Variant } from '../../../web/storefront/context.js';
import { registerWebsiteBuilderWeb } from './index.js';
import { L, button, buttonsArray, expectHydrates, link, renderIn, row } from './test-fixtures.js';

beforeAll(registerWebsiteBuilderWeb);
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
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getAllByRole('link').map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Главная', '/ru'],
      ['Блог', '/ru/blog/articles/launch-week'],
      ['Аккаунт', '/ru/rbac/subject/authentication/select-method'],
    ]);
    expect(within(nav).getByRole('link', { name: 'Блог' }).getAttribute('aria-current')).toBe('page');
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
    expect(within(menu).getAllByRole('link').map((a) => a.textContent)).toEqual(['Home', 'Blog', 'Account']);
    expect(document.body.style.overflow).toBe('hidden');

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
