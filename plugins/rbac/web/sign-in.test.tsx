import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { LoginWidget, SELECTED, SelectMethod } from './sign-in.js';
import { LoginForm } from './login-form.js';
import { REFRESH_KEY, browser } from './session.js';
import { browserSandbox, fail, mockFetch, ok, renderPage, widgetRow } from './test-utils.js';
import { getAddress, verifyMessage, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { parseSiweMessage } from 'viem/siwe';
import { checkSiweMessage, issueNonce, walletReady } from '../server/wallet.js';

const AUTHN = '/api/rbac/subjects/authentication/email-and-password/authentication';
const sandbox = browserSandbox();
afterEach(() => {
  delete (window as { ethereum?: unknown }).ethereum;
});

const EN = { email: 'Email', password: 'Password', login: 'Login' };
const RU = { email: 'Эл. почта', password: 'Пароль', login: 'Войти' };

async function fillLogin(email: string, password: string, words = EN) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText(words.email), email);
  await user.type(screen.getByLabelText(words.password), password);
  await user.click(screen.getByRole('button', { name: words.login }));
  return user;
}

describe('login widget', () => {
  it('shows the card texts, the forgot-password and sign-up links with the language prefix', () => {
    mockFetch({});
    renderPage(<LoginWidget row={widgetRow('login')} />, { language: 'ru' });
    expect(screen.getByRole('heading', { name: 'Вход' })).toBeTruthy();
    expect(screen.getByText('С возвращением')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Забыли пароль?' }).getAttribute('href')).toBe('/ru/rbac/subject/authentication/email-and-password/forgot-password');
    expect(screen.getByRole('link', { name: 'Зарегистрироваться' }).getAttribute('href')).toBe('/ru/rbac/subject/authentication/email-and-password/registration');
  });

  it('on success stores the refresh token and goes home in the page language', async () => {
    let release!: () => void;
    const api = mockFetch({ [`POST ${AUTHN}`]: () => new Promise((r) => (release = () => r(ok({ jwt: 'j', refresh: 'r.1' })))) });
    renderPage(<LoginWidget row={widgetRow('login')} />, { language: 'ru' });
    await fillLogin('ada@example.com', 'correct-horse', RU);
    expect(screen.getByRole('button', { name: 'Загрузка...' })).toHaveProperty('disabled', true);
    release();
    await waitFor(() => expect(sandbox.go).toHaveBeenCalledWith('/ru'));
    expect(localStorage.getItem(REFRESH_KEY)).toBe('r.1');
    expect(api.find('POST', AUTHN)[0]!.data).toEqual({ login: 'ada@example.com', password: 'correct-horse' });
    expect(api.calls[0]!.init.credentials).toBe('include');
  });

  it('on 401 shows the error as an alert and stays', async () => {
    mockFetch({ [`POST ${AUTHN}`]: fail(401, 'Invalid login or password') });
    renderPage(<LoginWidget row={widgetRow('login')} />);
    await fillLogin('ada@example.com', 'wrong-password');
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid login or password');
    expect(sandbox.go).not.toHaveBeenCalled();
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
    expect(sandbox.go).not.toHaveBeenCalled();
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
    // the method shown is marked as chosen, to assistive technology and to the eye; the other is a plain choice
    expect(email.getAttribute('aria-pressed')).toBe('true');
    expect(evm.getAttribute('aria-pressed')).toBe('false');
    expect(email.className).toContain(SELECTED);
    expect(email.querySelector('[data-check]')).toBeTruthy();
    expect(evm.className).not.toContain(SELECTED);
    expect(evm.querySelector('[data-check]')).toBeNull();
    expect(screen.getByLabelText('Email')).toBeTruthy();
    await user.click(evm);
    expect(evm.getAttribute('aria-pressed')).toBe('true');
    expect(email.getAttribute('aria-pressed')).toBe('false');
    expect(evm.className).toContain(SELECTED);
    expect(email.className).not.toContain(SELECTED);
    expect(evm.querySelector('[data-check]')).toBeTruthy();
    expect(screen.queryByLabelText('Email')).toBeNull();
    expect(await screen.findByText('No wallet found in this browser')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Connect wallet' })).toHaveProperty('disabled', true);
    email.focus();
    await user.keyboard('{Enter}');
    expect(screen.getByLabelText('Email')).toBeTruthy();
    expect(email.getAttribute('aria-pressed')).toBe('true');
    expect(evm.getAttribute('aria-pressed')).toBe('false');
  });

  it('in Russian offers the same two methods in Russian, the shown one pressed', async () => {
    mockFetch({});
    const user = userEvent.setup();
    renderPage(<SelectMethod row={widgetRow('select-method')} />, { language: 'ru' });
    const group = screen.getByRole('group', { name: 'Способ входа' });
    expect(screen.getByRole('heading', { name: 'Или войдите через' })).toBeTruthy();
    const buttons = within(group).getAllByRole('button');
    expect(buttons.map((b) => [b.textContent, b.getAttribute('aria-pressed')])).toEqual([['Логин и пароль', 'true'], ['Кошелёк Ethereum (EVM)', 'false']]);
    await user.click(buttons[1]!);
    expect(await screen.findByRole('button', { name: 'Подключить кошелёк' })).toBeTruthy();
    expect(buttons.map((b) => b.getAttribute('aria-pressed'))).toEqual(['false', 'true']);
  });

});

/**
 * The wallet method runs on wagmi's injected connector, driven here by an EIP-1193 provider on
 * window.ethereum that signs with a real key, so the signature the server receives can be verified.
 */
describe('wallet sign-in (wagmi, injected connector)', () => {
  const key = privateKeyToAccount('0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318');
  const EVM = '/api/rbac/subjects/authentication/ethereum-virtual-machine';
  const INIT = '/api/rbac/subjects/authentication/init';
  // a nonce as the server issues it, so that the server's own check can judge the signed message
  const SECRET = 'web-test-nonce-secret';
  const nonce = issueNonce(SECRET);

  /** a browser wallet holding `key`: it answers addresses in lower case, as some wallets do */
  function mockWallet({ personalSign, connected = false }: { personalSign?: (params: unknown[]) => Promise<unknown>; connected?: boolean } = {}) {
    const state = { connected };
    const request = vi.fn(async ({ method, params = [] }: { method: string; params?: unknown[] }) => {
      switch (method) {
        case 'eth_requestAccounts':
          state.connected = true;
          return [key.address.toLowerCase()];
        case 'eth_accounts':
          return state.connected ? [key.address.toLowerCase()] : [];
        case 'eth_chainId':
          return '0x1';
        case 'personal_sign':
          return personalSign ? personalSign(params) : key.signMessage({ message: { raw: params[0] as Hex } });
        case 'wallet_revokePermissions':
          state.connected = false;
          return null;
        default:
          throw Object.assign(new Error(`Unsupported method ${method}`), { code: 4200 });
      }
    });
    (window as { ethereum?: unknown }).ethereum = { request, on: vi.fn(), removeListener: vi.fn() };
    const calls = (method: string) => request.mock.calls.filter(([a]) => a.method === method);
    return { request, calls, state };
  }

  async function openWallet() {
    const user = userEvent.setup();
    renderPage(<SelectMethod row={widgetRow('select-method')} />);
    await user.click(screen.getByRole('button', { name: 'Ethereum Virtual Machine' }));
    // the idle panel's button is disabled until the lazy wagmi part has looked for the wallet
    const button = await screen.findByRole('button', { name: 'Connect wallet' });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Connect wallet' })).toHaveProperty('disabled', false));
    return { user, button: screen.getByRole('button', { name: 'Connect wallet' }) ?? button };
  }

  it('connects, signs an EIP-4361 message for this site holding the nonce with personal_sign, and posts a verifiable signature; no other request', async () => {
    const wallet = mockWallet();
    const api = mockFetch({ [`GET ${INIT}`]: ok({ jwt: 'j', refresh: null, nonce }), [`POST ${EVM}`]: ok({ jwt: 'j', refresh: 'w.1' }) });
    const { user, button } = await openWallet();
    await user.click(button);
    await waitFor(() => expect(sandbox.go).toHaveBeenCalledWith('/'));
    expect(localStorage.getItem(REFRESH_KEY)).toBe('w.1');
    const body = api.find('POST', EVM)[0]!.data as { message: string; signature: Hex; address: Address };
    // Sign-In with Ethereum: this page's domain and origin, mainnet, the account, the server's nonce, a time window
    const fields = parseSiweMessage(body.message);
    expect(fields).toMatchObject({ domain: window.location.host, uri: window.location.origin, chainId: 1, nonce, version: '1', address: key.address });
    expect(Math.abs(fields.issuedAt!.getTime() - Date.now())).toBeLessThan(60_000);
    expect(fields.expirationTime!.getTime()).toBeGreaterThan(Date.now());
    expect(body.message.length).toBeGreaterThanOrEqual(8);
    // the server's check accepts it for this site, and refuses it for another
    await walletReady();
    expect(checkSiweMessage(body.message, body.address, { publicUrl: window.location.origin, chainIds: [1], secret: SECRET }).nonce).toBe(nonce);
    expect(() => checkSiweMessage(body.message, body.address, { publicUrl: 'https://shop.example.com', chainIds: [1], secret: SECRET })).toThrow(/another domain/);
    expect(body.address).toBe(key.address);
    expect(body.address).toBe(getAddress(body.address));
    expect(await verifyMessage({ address: body.address, message: body.message, signature: body.signature })).toBe(true);
    const [[signed]] = wallet.calls('personal_sign');
    expect(signed.params![1]).toBe(key.address);
    // wagmi made no network request of its own: the two calls are the server's
    expect(api.calls.map((c) => `${c.method} ${c.path}`)).toEqual([`GET ${INIT}`, `POST ${EVM}`]);
    expect(screen.getByText(`${key.address.slice(0, 6)}…${key.address.slice(-4)}`)).toBeTruthy();
    expect(wallet.calls('wallet_revokePermissions')).toHaveLength(0);
  });

  it('one attempt at a time: clicks while an attempt is pending do nothing', async () => {
    const wallet = mockWallet();
    let release!: () => void;
    const api = mockFetch({
      [`GET ${INIT}`]: ok({ nonce }),
      [`POST ${EVM}`]: () => new Promise((r) => (release = () => r(ok({ jwt: 'j', refresh: 'w.2' })))),
    });
    const { user, button } = await openWallet();
    // two clicks before React re-renders, then one more while the server is checking
    button.click();
    button.click();
    await waitFor(() => expect(api.find('POST', EVM)).toHaveLength(1));
    const busy = screen.getByRole('button', { name: 'Signing in...' });
    expect(busy).toHaveProperty('disabled', true);
    await user.click(busy);
    release();
    await waitFor(() => expect(sandbox.go).toHaveBeenCalledTimes(1));
    expect(wallet.calls('eth_requestAccounts')).toHaveLength(1);
    expect(wallet.calls('personal_sign')).toHaveLength(1);
    expect(api.find('GET', INIT)).toHaveLength(1);
    expect(api.find('POST', EVM)).toHaveLength(1);
    expect(localStorage.getItem(REFRESH_KEY)).toBe('w.2');
  });

  it('an authentication error is shown and disconnects the wallet', async () => {
    const wallet = mockWallet();
    mockFetch({ [`GET ${INIT}`]: ok({ nonce }), [`POST ${EVM}`]: fail(401, 'Invalid signature') });
    const { user, button } = await openWallet();
    await user.click(button);
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid signature');
    await waitFor(() => expect(wallet.calls('wallet_revokePermissions')).toHaveLength(1));
    expect(wallet.state.connected).toBe(false);
    expect(screen.queryByText(/0x[0-9a-fA-F]{4}…/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Connect wallet' })).toHaveProperty('disabled', false);
    expect(localStorage.getItem(REFRESH_KEY)).toBeNull();
    expect(sandbox.go).not.toHaveBeenCalled();
  });

  it('reports a rejected signature and allows another attempt', async () => {
    const wallet = mockWallet({ personalSign: async () => Promise.reject(Object.assign(new Error('User rejected'), { code: 4001 })) });
    mockFetch({ [`GET ${INIT}`]: ok({ nonce: 'x'.repeat(80) }) });
    const { user, button } = await openWallet();
    await user.click(button);
    expect((await screen.findByRole('alert')).textContent).toBe('The request was rejected in the wallet');
    expect(screen.getByRole('button', { name: 'Connect wallet' })).toHaveProperty('disabled', false);
    expect(wallet.calls('wallet_revokePermissions')).toHaveLength(1);
    expect(sandbox.go).not.toHaveBeenCalled();
  });

  it('a wallet that reconnects without a session token is disconnected', async () => {
    // wagmi remembers the injected connection in localStorage and reconnects on mount
    localStorage.setItem('wagmi.injected.connected', 'true');
    localStorage.setItem('wagmi.recentConnectorId', '"injected"');
    const wallet = mockWallet({ connected: true });
    mockFetch({});
    await openWallet();
    await waitFor(() => expect(wallet.calls('wallet_revokePermissions')).toHaveLength(1));
    expect(wallet.state.connected).toBe(false);
  });
});
