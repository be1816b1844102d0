import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { PageProvider } from '../../../web/storefront/context.js';
import { loadChunks, lookup, registered } from '../../../web/registry.js';
import { registerRbacWeb } from './index.js';

/** runs in the node ('server') project: no window, no localStorage, as on the storefront server */
describe('rbac widgets on the server', () => {
  it('every variant renders without touching browser globals; session screens render a skeleton', async () => {
    expect(typeof window).toBe('undefined');
    registerRbacWeb();
    await loadChunks();
    const variants = registered().filter((k) => k.startsWith('rbac/widget/')).map((k) => k.slice('rbac/widget/'.length));
    expect(variants.length).toBeGreaterThan(10);
    for (const variant of variants) {
      const Component = lookup('rbac', 'widget', variant)!;
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
