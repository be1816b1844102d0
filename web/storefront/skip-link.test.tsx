import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { renderToString } from 'react-dom/server';
import { register } from '../registry.js';
import { PageView, type PageData } from './page.js';
import { utilitiesOf } from '../test-classes.js';

afterEach(cleanup);

/** a header of links (like the navbar's logo and menu) before the content */
register('skip-test/widget/links', () => (
  <nav>
    <a href="/">Logo</a>
    <a href="/blog">Blog</a>
  </nav>
));
register('skip-test/widget/text', () => <p>Content</p>);

const data = (language = 'en'): PageData => ({
  context: { language, languages: ['en', 'ru'], defaultLanguage: 'en', url: '/', params: {} },
  title: 'Home',
  meta: {},
  before: [{ id: 'h', module: 'skip-test', widget: { id: 'w-h', variant: 'links' } }],
  content: [{ id: 'c', module: 'skip-test', widget: { id: 'w-c', variant: 'text' } }],
  after: [],
});

describe('the skip link', () => {
  it('is the first tab stop, visually hidden until focused, and moves the focus to the main content', async () => {
    const user = userEvent.setup();
    render(<PageView data={data()} />);
    await user.tab();
    const skip = screen.getByRole('link', { name: 'Skip to content' });
    expect(document.activeElement).toBe(skip);
    expect(utilitiesOf(skip.className)).toEqual(expect.arrayContaining(['sr-only', 'focus:not-sr-only']));
    const main = screen.getByRole('main');
    expect(skip.getAttribute('href')).toBe(`#${main.id}`);
    expect(main.getAttribute('tabindex')).toBe('-1');
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Logo' }));
  });

  it("speaks the page's language, and is in the server's HTML before everything else", () => {
    render(<PageView data={data('ru')} />);
    expect(screen.getByRole('link', { name: 'Перейти к содержимому' }).getAttribute('href')).toBe('#main-content');
    const html = renderToString(<PageView data={data()} />);
    expect(html.indexOf('Skip to content')).toBeGreaterThan(-1);
    expect(html.indexOf('Skip to content')).toBeLessThan(html.indexOf('Logo'));
    expect(html).toContain('<main id="main-content"');
  });
});
