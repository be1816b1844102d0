import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { userEvent } from '@testing-library/user-event';
import { PageProvider, type PageContext } from './context.js';
import { LanguageSwitcher, pageIn } from './language-switcher.js';
import { utilitiesOf } from '../test-classes.js';

afterEach(() => {
  cleanup();
  history.replaceState(null, '', '/');
});

const page = (language: string, url: string, languages = ['en', 'ru']): PageContext => ({ language, languages, defaultLanguage: 'en', url, params: {} });
const show = (p: PageContext, stacked = false) => render(<PageProvider value={p}><LanguageSwitcher stacked={stacked} /></PageProvider>);

describe('language switcher', () => {
  it('links each configured language to the same page, the default language without a prefix', () => {
    expect(pageIn('ru', page('en', '/'))).toBe('/ru');
    expect(pageIn('en', page('ru', '/'))).toBe('/');
    expect(pageIn('ru', page('en', '/blog/articles/x'))).toBe('/ru/blog/articles/x');
    expect(pageIn('en', page('ru', '/blog/articles/x'))).toBe('/blog/articles/x');
    expect(pageIn('ru', page('en', '/rbac/subjects/a b'))).toBe('/ru/rbac/subjects/a%20b');
  });

  it('marks the current language with aria-current, in the page language', () => {
    show(page('ru', '/blog/articles/x'));
    const nav = screen.getByRole('navigation', { name: 'Язык' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((a) => [a.textContent, a.getAttribute('href'), a.getAttribute('aria-current'), a.getAttribute('lang')])).toEqual([
      ['EN English', '/blog/articles/x', null, 'en'],
      ['RU Русский', '/ru/blog/articles/x', 'true', 'ru'],
    ]);
    // the current one looks chosen too; each is at least 40px high and wide (tap targets of 24px and more)
    expect(links[1]!.className).toContain('bg-slate-900');
    expect(links[0]!.className).not.toContain('bg-slate-900');
    for (const a of links) expect(utilitiesOf(a.className)).toEqual(expect.arrayContaining(['min-h-10', 'min-w-10']));
  });

  it('is reached and followed with the keyboard', async () => {
    const user = userEvent.setup();
    show(page('en', '/'));
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('link', { name: 'EN English' }));
    await user.tab();
    const ru = screen.getByRole('link', { name: 'RU Русский' });
    expect(document.activeElement).toBe(ru);
    expect(ru.getAttribute('href')).toBe('/ru');
    expect(screen.getByRole('link', { name: 'EN English' }).getAttribute('aria-current')).toBe('true');
  });

  it('the stacked form (the mobile menu) names the languages in full', () => {
    show(page('en', '/'), true);
    expect(within(screen.getByRole('navigation', { name: 'Language' })).getAllByRole('link').map((a) => a.textContent)).toEqual(['English', 'Русский']);
  });

  it('draws nothing for a site with one language', () => {
    const { container } = show(page('en', '/', ['en']));
    expect(container.innerHTML).toBe('');
  });

  it('keeps the query string and the hash of the address shown', async () => {
    expect(pageIn('ru', page('en', '/ecommerce/orders'), '?order=o1#top')).toBe('/ru/ecommerce/orders?order=o1#top');
    expect(pageIn('en', page('ru', '/'), '?a=1')).toBe('/?a=1');
    expect(pageIn('ru', page('en', '/'), '?a=1')).toBe('/ru?a=1');
    history.replaceState(null, '', '/ecommerce/orders?order=o1');
    show(page('en', '/ecommerce/orders'));
    expect(screen.getByRole('link', { name: 'RU Русский' }).getAttribute('href')).toBe('/ru/ecommerce/orders?order=o1');
    expect(screen.getByRole('link', { name: 'EN English' }).getAttribute('href')).toBe('/ecommerce/orders?order=o1');
    // a hash link followed in the page
    await act(async () => {
      location.hash = 'receipt';
      window.dispatchEvent(new HashChangeEvent('hashchange'));
    });
    expect(screen.getByRole('link', { name: 'RU Русский' }).getAttribute('href')).toBe('/ru/ecommerce/orders?order=o1#receipt');
  });

  it('hydrates the server\'s links (the server adds the query itself), then follows the address', async () => {
    history.replaceState(null, '', '/ru/ecommerce/orders?order=o1');
    const tree = <PageProvider value={page('ru', '/ecommerce/orders')}><LanguageSwitcher /></PageProvider>;
    const html = renderToString(tree);
    // the server renders one page for every query: no query in its own markup
    expect(html).toContain('href="/ecommerce/orders"');
    const root = document.createElement('div');
    root.innerHTML = html;
    document.body.append(root);
    await act(async () => void hydrateRoot(root, tree));
    expect(root.querySelector('a[data-language="en"]')!.getAttribute('href')).toBe('/ecommerce/orders?order=o1');
    root.remove();
  });
});
