import type { ReactNode } from 'react';
import { act, render } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { hydrateRoot } from 'react-dom/client';
import { expect, vi } from 'vitest';
import { PageProvider, type Expanded, type PageContext } from '../../../web/storefront/context.js';

/** a page context in `language` (en is the default language) */
export const pageIn = (language = 'en', url = '/'): PageContext => ({ language, languages: ['en', 'ru'], defaultLanguage: 'en', url, params: {} });

export const renderIn = (ui: ReactNode, language = 'en', url = '/') => render(<PageProvider value={pageIn(language, url)}>{ui}</PageProvider>);

let n = 0;
/** an expanded row with a fresh uuid-like id */
export const row = (variant: string, fields: Record<string, unknown> = {}): Expanded => ({
  id: `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
  variant,
  ...fields,
});

/** a relation row pointing at `target` under `end`, as the page expansion gives it */
export const link = (end: string, target: Expanded, orderIndex = 0): Expanded => ({ ...row('default', { orderIndex }), [end]: target });

export const L = (en: string, ru: string) => ({ en, ru });

export const button = (title: Record<string, string>, url: string, variant = 'default') => row(variant, { title, url });

/** a buttons array holding the buttons */
export const buttonsArray = (...buttons: Expanded[]) =>
  row('default', { buttonsArraysToButtons: buttons.map((b, i) => link('button', b, i)) });

/** renders `ui` on the "server", hydrates it in the document and expects no mismatch or error */
export async function expectHydrates(ui: ReactNode, language = 'en') {
  const page = <PageProvider value={pageIn(language)}>{ui}</PageProvider>;
  const html = renderToString(page);
  const el = document.createElement('div');
  el.innerHTML = html;
  document.body.append(el);
  const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
  try {
    const root = await act(async () => hydrateRoot(el, page, { onRecoverableError: (e) => console.error(e) }));
    expect(errors).not.toHaveBeenCalled();
    expect(el.innerHTML.replaceAll('/>', '>')).toBe(html.replaceAll('/>', '>'));
    act(() => root.unmount());
  } finally {
    el.remove();
    errors.mockRestore();
  }
}
