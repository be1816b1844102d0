/** an <a> tag of the language switcher (web/storefront/language-switcher.tsx marks each with data-language) */
const LANGUAGE_LINK = /<a\b[^>]*\sdata-language="[^"]*"[^>]*>/g;
const HREF = /(\shref=")([^"]*)(")/;

const escapeAttribute = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The page's HTML with the request's query after the address of each language link ('/ru/ecommerce/orders' →
 * '/ru/ecommerce/orders?order=…'): a page is rendered and cached once for every query, and switching the language
 * must keep it (the orders page reads its ?order= to say how a payment went). `search` is the URL's own ('?…',
 * percent-encoded by the URL parser); '' leaves the HTML as it is. The browser keeps the query (and hash) itself
 * after hydration (`useAddressRest`).
 */
export function withQueryInLanguageLinks(html: string, search: string): string {
  if (!search || search === '?') return html;
  const rest = escapeAttribute(search.startsWith('?') ? search : `?${search}`);
  return html.replace(LANGUAGE_LINK, (tag) => tag.replace(HREF, (_, open: string, href: string, close: string) => `${open}${href.split('?')[0]}${rest}${close}`));
}
