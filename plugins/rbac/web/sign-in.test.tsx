import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { LoginWidget, SelectMethod } from './sign-in.js';
import { LoginForm } from './login-form.js';
import { REFRESH_KEY, browser } from './session.js';
import { fail, mockFetch, ok, renderPage, widgetRow } from './test-utils.js';

const AUTHN = '/api/rbac/subjects/authentication/email-and-password/authentication';
let go: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  localStorage.clear();
  go = vi.spyOn(browser, 'go').mockImplementation(() => undefined);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  delete (window as { ethereum?: unknown }).ethereum;
});

async function fillLogin(email: string, password: string) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Email'), email);
  await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Login' }));
  return user;
}

describe('login widget', () => {
  it('shows the card texts, the forgot-password and sign-up links with the language prefix', () => {
    mockFetch({});
    renderPage(<LoginWidget row={widgetRow('login')} />, { language: 'ru' });
    expect(screen.getByRole('heading', { name: 'Вход' })).toBeTruthy();
    expect(screen.getByText('С возвращением')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Forgot password?' }).getAttribute('href')).toBe('/ru/rbac/subject/authentication/email-and-password/forgot-password');
    expect(screen.getByRole('link', { name: 'Sign up' }).getAttribute('href')).toBe('/ru/rbac/subject/authentication/email-and-password/registration');
  });

  it('on success stores the refresh token and goes home in the page language', async () => {
    let release!: () => void;
    const api = mockFetch({ [`POST ${AUTHN}`]: () => new Promise((r) => (release = () => r(ok({ jwt: 'j', refresh: 'r.1' })))) });
    renderPage(<LoginWidget row={widgetRow('login')} />, { language: 'ru' });
    await fillLogin('ada@example.com', 'correct-horse');
    expect(screen.getByRole('button', { name: 'Loading...' })).toHaveProperty('disabled', true);
    release();
    await waitFor(() => expect(go).toHaveBeenCalledWith('/ru'));
    expect(localStorage.getItem(REFRESH_KEY)).toBe('r.1');
    expect(api.find('POST', AUTHN)[0]!.data).toEqual({ login: 'ada@example.com', password: 'correct-horse' });
    expect(api.calls[0]!.init.credentials).toBe('include');
  });

  it('on 401 shows the error as an alert and stays', async () => {
    mockFetch({ [`POST ${AUTHN}`]: fail(401, 'Invalid login or password') });
    renderPage(<LoginWidget row={widgetRow('login')} />);
    await fillLogin('ada@example.com', 'wrong-password');
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid login or password');
    expect(go).not.toHaveBeenCalled();
    expect(localStorage.getItem(REFRESH_KEY)).toBeNull();
  });

  it('checks the email and the password length before asking the server', async () => {
    const api = mockFetch({});
    renderPage(<LoginWidget row={widgetRow('login')} />);
    await fillLogin('not-an-email', 'short');
    const alerts = screen.getAllByRole('alert').map((a) => a.textContent);
    expect(alerts).toEqual(['Enter a valid email address', 'Use at least 8 characters']);
    expect(screen.getByLabelText('Email').getAttribute('aria-invalid')).toBe('true');
    expect(api.calls).toHaveLength(0);
  });

  it("keeps the admin's LoginForm props: title and onSignedIn, no links", async () => {
    mockFetch({ [`POST ${AUTHN}`]: ok({ jwt: 'j', refresh: 'r.2' }) });
    const onSignedIn = vi.fn();
    renderPage(<LoginForm title="Admin sign in" onSignedIn={onSignedIn} />);
    expect(screen.getByRole('heading', { name: 'Admin sign in' })).toBeTruthy();
    expect(screen.queryByRole('link')).toBeNull();
    await fillLogin('admin@example.com', 'admin-password');
    await waitFor(() => expect(onSignedIn).toHaveBeenCalled());
    expect(go).not.toHaveBeenCalled();
  });
});

describe('select-method', () => {
  it('switches between the two methods under "Or continue with"', async () => {
    mockFetch({});
    const user = userEvent.setup();
    renderPage(<SelectMethod row={widgetRow('select-method')} />);
    expect(screen.getByRole('heading', { name: 'Sign in' })).toBeTruthy();
    expect(screen.getByText('Use your email or wallet')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Or continue with' })).toBeTruthy();
    const email = screen.getByRole('button', { name: 'Login and Password' });
    const evm = screen.getByRole('button', { name: 'Ethereum Virtual Machine' });
    expect(email.getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByLabelText('Email')).toBeTruthy();
    await user.click(evm);
    expect(evm.getAttribute('aria-pressed')).toBe('true');
    expect(screen.queryByLabelText('Email')).toBeNull();
    expect(await screen.findByText('No wallet found in this browser')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Connect wallet' })).toHaveProperty('disabled', true);
    email.focus();
    await user.keyboard('{Enter}');
    expect(screen.getByLabelText('Email')).toBeTruthy();
  });

  it('signs in with the injected wallet: accounts, nonce, personal_sign, then the server', async () => {
    const address = '0xAbCdEf0123456789aBcDeF0123456789AbCd1234';
    const nonce = 'n'.repeat(22) + '.1999999999.' + 'm'.repeat(43);
    const request = vi.fn(async ({ method }: { method: string; params?: unknown[] }) => (method === 'eth_requestAccounts' ? [address] : '0xdeadbeef'));
    (window as { ethereum?: unknown }).ethereum = { request };
    const api = mockFetch({
      'GET /api/rbac/subjects/authentication/init': ok({ jwt: 'j', refresh: null, nonce }),
      'POST /api/rbac/subjects/authentication/ethereum-virtual-machine': ok({ jwt: 'j', refresh: 'w.1' }),
    });
    const user = userEvent.setup();
    renderPage(<SelectMethod row={widgetRow('select-method')} />);
    await user.click(screen.getByRole('button', { name: 'Ethereum Virtual Machine' }));
    await user.click(await screen.findByRole('button', { name: 'Connect wallet' }));
    await waitFor(() => expect(go).toHaveBeenCalledWith('/'));
    const message = `Sign in to ${window.location.host}\nNonce: ${nonce}`;
    const signed = request.mock.calls.find(([a]) => a.method === 'personal_sign')![0].params!;
    expect(new TextDecoder().decode(Uint8Array.from(Buffer.from(String(signed[0]).slice(2), 'hex')))).toBe(message);
    expect(signed[1]).toBe(address);
    expect(api.find('POST', '/api/rbac/subjects/authentication/ethereum-virtual-machine')[0]!.data).toEqual({ message, signature: '0xdeadbeef', address });
    expect(localStorage.getItem(REFRESH_KEY)).toBe('w.1');
    expect(screen.getByText('0xAbCd…1234')).toBeTruthy();
  });

  it('reports a rejected signature and allows another attempt', async () => {
    const request = vi.fn(async ({ method }: { method: string }) => {
      if (method === 'eth_requestAccounts') return ['0xAbCdEf0123456789aBcDeF0123456789AbCd1234'];
      throw Object.assign(new Error('User rejected'), { code: 4001 });
    });
    (window as { ethereum?: unknown }).ethereum = { request };
    mockFetch({ 'GET /api/rbac/subjects/authentication/init': ok({ nonce: 'x'.repeat(80) }) });
    const user = userEvent.setup();
    renderPage(<SelectMethod row={widgetRow('select-method')} />);
    await user.click(screen.getByRole('button', { name: 'Ethereum Virtual Machine' }));
    await user.click(await screen.findByRole('button', { name: 'Connect wallet' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The request was rejected in the wallet');
    expect(screen.getByRole('button', { name: 'Connect wallet' })).toHaveProperty('disabled', false);
    expect(go).not.toHaveBeenCalled();
  });
});
