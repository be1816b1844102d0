import { describe, expect, it } from 'vitest';
import { renderToString } from 'react-dom/server';
import { createElement } from 'react';
import { withQueryInLanguageLinks } from './language-links.js';
import { PageProvider } from '../../../web/storefront/context.js';
import { LanguageSwitcher } from '../../../web/storefront/language-switcher.js';

const switcher = (language: string, url: string) =>
  renderToString(createElement(PageProvider, { value: { language, languages: ['en', 'ru'], defaultLanguage: 'en', url, params: {} }, children: createElement(LanguageSwitcher) }));

describe('the query in the language links of a page', () => {
  it("adds the request's query to each language link and to nothing else", () => {
    const html = `<a href="/ecommerce/orders" class="x">Orders</a>${switcher('en', '/ecommerce/orders')}`;
    const out = withQueryInLanguageLinks(html, '?order=o1&payment=canceled');
    expect(out).toContain('href="/ru/ecommerce/orders?order=o1&amp;payment=canceled"');
    expect(out).toContain('<a href="/ecommerce/orders?order=o1&amp;payment=canceled" lang="en"');
    expect(out).toContain('<a href="/ecommerce/orders" class="x">Orders</a>');
    expect(withQueryInLanguageLinks(html, '')).toBe(html);
  });

  it('escapes what could end the attribute', () => {
    const out = withQueryInLanguageLinks(switcher('ru', '/'), '?q="><script>');
    expect(out).toContain('href="/ru?q=&quot;&gt;&lt;script&gt;"');
    expect(out).not.toContain('<script>');
  });
});
