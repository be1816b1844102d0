import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { PageProvider } from '../../../web/storefront/context.js';
import { RBAC_WIDGET_VARIANTS } from './index.js';

/** runs in the node ('server') project: no window, no localStorage, as on the storefront server */
describe('rbac widgets on the server', () => {
  it('every variant renders without touching browser globals; session screens render a skeleton', () => {
    expect(typeof window).toBe('undefined');
    for (const [variant, Component] of Object.entries(RBAC_WIDGET_VARIANTS)) {
      const row = { id: '9d000000-0000-4000-8000-000000000001', variant, title: { en: 'Sign in', ru: 'Вход' } };
      const html = renderToString(
        createElement(QueryClientProvider, { client: new QueryClient() },
          createElement(PageProvider, { value: { language: 'ru', languages: ['en', 'ru'], defaultLanguage: 'en', url: '/', params: {} }, children: createElement(Component, { row }) })),
      );
      if (variant === 'account-menu' || variant === 'identity-settings' || variant === 'subject-overview') expect(html, variant).toContain('animate-pulse');
      if (variant === 'select-method' || variant === 'login') expect(html, variant).toContain('Вход');
    }
  });
});

describe('wallet sign-in on the server', () => {
  it('renders the idle panel (button disabled) without loading wagmi or touching window', async () => {
    const { WalletSignIn } = await import('./wallet.js');
    const html = renderToString(createElement(WalletSignIn, { onSignedIn: () => undefined }));
    expect(html).toContain('Connect wallet');
    expect(html).toContain('disabled');
    expect(html).not.toContain('No wallet found');
  });
});
