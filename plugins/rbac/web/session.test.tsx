import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { Authorized } from './authorized.js';
import { REFRESH_KEY, browser, identityText, loadMe, shortAddress, subjectName, useSubject } from './session.js';
import { browserSandbox, ME, fail, mockFetch, ok, renderPage } from './test-utils.js';
import { loadChunks, lookup, registered } from '../../../web/registry.js';
import { registerRbacWeb } from './index.js';
import { LoginForm } from './login-form.js';

const ME_PATH = '/api/rbac/subjects/authentication/me';
const REFRESH_PATH = '/api/rbac/subjects/authentication/refresh';

const sandbox = browserSandbox();

describe('browser.go', () => {
  it('opens only an address the link allow-list takes: javascript:, data: and //host are refused before the browser sees them', () => {
    // the sandbox spies on go; the real one is asked here
    sandbox.go.mockRestore();
    for (const url of ['javascript:alert(1)', ' JavaScript:alert(1)', 'data:text/html,x', '//evil.example/pay']) {
      expect(() => browser.go(url), url).toThrow('This address cannot be opened');
    }
  });
});

describe('shortAddress', () => {
  it('keeps the first 6 and the last 4 characters', () => {
    expect(shortAddress('0xAbCdEf0123456789aBcDeF0123456789AbCd1234')).toBe('0xAbCd…1234');
    expect(shortAddress('0x12345678')).toBe('0x12345678');
    expect(shortAddress(undefined)).toBe('');
  });
  it('names identities and subjects by email, else by short wallet address', () => {
    expect(identityText(ME.identities[1]!)).toBe('0xAbCd…1234');
    expect(subjectName(ME)).toBe('ada@example.com');
    expect(subjectName({ ...ME, identities: [ME.identities[1]!] })).toBe('0xAbCd…1234');
  });
});

describe('loadMe (spec §4)', () => {
  it('answers the subject when the session cookie is live', async () => {
    const api = mockFetch({ [`GET ${ME_PATH}`]: ok(ME) });
    expect(await loadMe()).toEqual(ME);
    expect(api.calls[0]!.init.credentials).toBe('include');
  });

  it('without a refresh token a 401 means signed out, and refresh is never tried', async () => {
    const api = mockFetch({ [`GET ${ME_PATH}`]: fail(401, 'Not authorized') });
    expect(await loadMe()).toBeNull();
    expect(api.find('POST', REFRESH_PATH)).toHaveLength(0);
    expect(sandbox.go).not.toHaveBeenCalled();
  });

  it('on 401 refreshes with the stored token, stores the new one and asks again', async () => {
    localStorage.setItem(REFRESH_KEY, 'old.token');
    const api = mockFetch({
      [`GET ${ME_PATH}`]: [fail(401, 'Not authorized'), ok(ME)],
      [`POST ${REFRESH_PATH}`]: ok({ jwt: 'j', refresh: 'new.token' }),
    });
    expect(await loadMe()).toEqual(ME);
    expect(api.find('POST', REFRESH_PATH)[0]!.data).toEqual({ refresh: 'old.token' });
    expect(localStorage.getItem(REFRESH_KEY)).toBe('new.token');
    expect(api.find('GET', ME_PATH)).toHaveLength(2);
  });

  it('a refused refresh removes the token and goes home', async () => {
    localStorage.setItem(REFRESH_KEY, 'old.token');
    mockFetch({ [`GET ${ME_PATH}`]: fail(401, 'Not authorized'), [`POST ${REFRESH_PATH}`]: fail(401, 'Not authorized') });
    expect(await loadMe('/ru')).toBeNull();
    expect(localStorage.getItem(REFRESH_KEY)).toBeNull();
    expect(sandbox.go).toHaveBeenCalledWith('/ru');
  });
});

function Status() {
  const { status, me } = useSubject();
  return <p>{status}{me ? `:${me.slug}` : ''}</p>;
}

describe('useSubject and Authorized', () => {
  it('is loading, then signed in', async () => {
    mockFetch({ [`GET ${ME_PATH}`]: ok(ME) });
    renderPage(<Status />);
    expect(screen.getByText('loading')).toBeTruthy();
    expect(await screen.findByText('signed-in:ada-lovelace')).toBeTruthy();
  });

  it('shows the children when allowed and the fallback when refused', async () => {
    const api = mockFetch({
      [`GET ${ME_PATH}`]: ok(ME),
      'GET /api/rbac/subjects/authentication/is-authorized': (c) => (c.url.includes('POST') ? ok({ authorized: true }) : fail(403, 'Not authorized')),
    });
    renderPage(
      <>
        <Authorized method="POST" route="/api/ecommerce/orders">Cart is open</Authorized>
        <Authorized method="DELETE" route="/api/ecommerce/orders/1">Danger zone</Authorized>
      </>,
    );
    expect(await screen.findByText('Cart is open')).toBeTruthy();
    expect(await screen.findByText('Not authorized')).toBeTruthy();
    expect(screen.queryByText('Danger zone')).toBeNull();
    const asked = api.find('GET', '/api/rbac/subjects/authentication/is-authorized').map((c) => decodeURIComponent(c.url.split('?')[1]!));
    expect(asked).toContain('action[method]=POST&action[route]=/api/ecommerce/orders');
  });
});

describe('registerRbacWeb', () => {
  it('keeps the admin login form and registers every widget variant', async () => {
    registerRbacWeb();
    await loadChunks();
    expect(lookup('rbac', 'subject', 'login-form')).toBe(LoginForm);
    for (const v of ['select-method', 'login', 'registration', 'forgot-password', 'reset-password', 'logout', 'account-menu', 'identity-settings', 'subject-overview', 'default']) {
      expect(registered()).toContain(`rbac/widget/${v}`);
    }
  });
});
