import type { ReactNode } from 'react';
import { afterEach, beforeEach, vi } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Toaster } from 'sonner';
import { PageProvider, type Expanded } from '../../../web/storefront/context.js';
import { browser, type Me } from './session.js';

/** test helpers for the rbac screens (not a test file itself) */

export interface Call {
  method: string;
  path: string;
  url: string;
  init: RequestInit;
  /** the JSON body's data, or the multipart 'data' part parsed */
  data: unknown;
}
type Answer = { status?: number; body?: unknown } | ((call: Call) => { status?: number; body?: unknown } | Promise<{ status?: number; body?: unknown }>);

/**
 * Stubs fetch with answers keyed 'METHOD /path' (no query string); unknown routes answer 404.
 * A list of answers is used in turn (the last one repeats).
 */
export function mockFetch(routes: Record<string, Answer | Answer[]>) {
  const calls: Call[] = [];
  const used: Record<string, number> = {};
  const fn = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    const path = url.replace(/^https?:\/\/[^/]+/, '').split('?')[0]!;
    const method = (init.method ?? 'GET').toUpperCase();
    let data: unknown;
    if (typeof init.body === 'string') data = JSON.parse(init.body).data;
    else if (init.body instanceof FormData) data = JSON.parse(String(init.body.get('data')));
    const call = { method, path, url, init, data };
    calls.push(call);
    const key = `${method} ${path}`;
    const entry = routes[key];
    const list = Array.isArray(entry) ? entry : entry ? [entry] : [];
    const i = Math.min(used[key] ?? 0, list.length - 1);
    used[key] = (used[key] ?? 0) + 1;
    const answer = list[i];
    const a = typeof answer === 'function' ? await answer(call) : answer ?? { status: 404, body: { message: `No route ${key}` } };
    const status = a.status ?? 200;
    return new Response(JSON.stringify(a.body ?? {}), { status, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fn);
  // a signed-in browser always holds a refresh token (spec §4): without one the session is not asked for
  const me = routes['GET /api/rbac/subjects/authentication/me'];
  const first = Array.isArray(me) ? me[0] : me;
  if (first && typeof first !== 'function' && (first.status ?? 200) === 200 && !localStorage.getItem('rbac.subject.refresh')) localStorage.setItem('rbac.subject.refresh', 'test-refresh-token');
  return { fn, calls, find: (method: string, path: string) => calls.filter((c) => c.method === method && c.path === path) };
}

export const ok = (data: unknown) => ({ status: 200, body: { data } });
export const fail = (status: number, message: string) => ({ status, body: { message, status } });

export const ME: Me = {
  id: '11111111-1111-4111-8111-111111111111',
  slug: 'ada-lovelace',
  isAdmin: false,
  identities: [
    { id: '22222222-2222-4222-8222-222222222222', provider: 'email_and_password', account: 'ada@example.com', email: 'ada@example.com', emailVerifiedAt: '2024-05-01T10:00:00.000Z' },
    { id: '33333333-3333-4333-8333-333333333333', provider: 'ethereum_virtual_machine', account: '0xAbCdEf0123456789aBcDeF0123456789AbCd1234', email: null },
  ],
  roles: [{ id: '44444444-4444-4444-8444-444444444444', slug: 'member', title: 'Member' }],
};

export const widgetRow = (variant: string, extra: Record<string, unknown> = {}): Expanded => ({
  id: '9d000000-0000-4000-8000-000000000099',
  variant,
  title: { en: 'Sign in', ru: 'Вход' },
  subtitle: { en: 'Welcome back', ru: 'С возвращением' },
  description: { en: 'Use your email or wallet', ru: 'Почта или кошелёк' },
  ...extra,
});

/** renders inside the page context, a fresh query client and a Toaster, as the storefront mounts them */
export function renderPage(ui: ReactNode, { language = 'en', params = {} }: { language?: string; params?: Record<string, Expanded> } = {}) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <PageProvider value={{ language, languages: ['en', 'ru'], defaultLanguage: 'en', url: '/', params }}>
        {ui}
        <Toaster />
      </PageProvider>
    </QueryClientProvider>,
  );
}

/**
 * Each test starts with empty local storage and browser.go spied on (sandbox.go), and ends with
 * the DOM cleaned, mocks restored and stubbed globals (fetch) put back.
 */
export function browserSandbox() {
  const sandbox = { go: undefined as unknown as ReturnType<typeof vi.spyOn> };
  beforeEach(() => {
    localStorage.clear();
    sandbox.go = vi.spyOn(browser, 'go').mockImplementation(() => undefined);
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });
  return sandbox;
}
