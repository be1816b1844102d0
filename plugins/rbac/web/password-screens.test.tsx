import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { ForgotPassword, Registration, ResetPassword, VerifyEmail } from './password-screens.js';
import { Logout } from './subject.js';
import { REFRESH_KEY } from './session.js';
import { browserSandbox, fail, mockFetch, ok, renderPage, widgetRow } from './test-utils.js';

const BASE = '/api/rbac/subjects/authentication';
const sandbox = browserSandbox();
afterEach(() => window.history.replaceState(null, '', '/'));

describe('registration', () => {
  it('creates the account, stores the refresh token and goes home', async () => {
    const api = mockFetch({ [`POST ${BASE}/email-and-password/registration`]: { status: 201, body: { data: { jwt: 'j', refresh: 'r.9' } } } });
    const user = userEvent.setup();
    renderPage(<Registration row={widgetRow('registration', { title: { en: 'Create an account' } })} />, { language: 'ru' });
    expect(screen.getByRole('link', { name: 'Войти' }).getAttribute('href')).toBe('/ru/rbac/subject/authentication/select-method');
    await user.type(screen.getByLabelText('Эл. почта'), 'new@example.com');
    await user.type(screen.getByLabelText('Пароль'), 'long-enough');
    await user.click(screen.getByRole('button', { name: 'Создать аккаунт' }));
    await waitFor(() => expect(sandbox.go).toHaveBeenCalledWith('/ru'));
    expect(localStorage.getItem(REFRESH_KEY)).toBe('r.9');
    expect(api.calls[0]!.data).toEqual({ login: 'new@example.com', password: 'long-enough' });
  });

  /** a registration of a taken email, answered 409 `times` times: the user, after the first answer's alert */
  async function registerTaken(times: number) {
    const taken = fail(409, 'An account with this email already exists');
    mockFetch({ [`POST ${BASE}/email-and-password/registration`]: times === 1 ? taken : Array.from({ length: times }, () => taken) });
    const user = userEvent.setup();
    renderPage(<Registration row={widgetRow('registration')} />);
    await user.type(screen.getByLabelText('Email'), 'taken@example.com');
    await user.type(screen.getByLabelText('Password'), 'long-enough');
    await user.keyboard('{Enter}');
    expect((await screen.findByRole('alert')).textContent).toBe('An account with this email already exists');
    return user;
  }

  it('shows the conflict message', async () => {
    await registerTaken(1);
    expect(sandbox.go).not.toHaveBeenCalled();
  });

  it("the server's message goes once the form is edited or sent again", async () => {
    const user = await registerTaken(2);
    await user.type(screen.getByLabelText('Email'), 'x');
    expect(screen.queryByRole('alert')).toBeNull();

    await user.keyboard('{Enter}');
    expect((await screen.findByRole('alert')).textContent).toBe('An account with this email already exists');
    await user.clear(screen.getByLabelText('Password'));
    await user.type(screen.getByLabelText('Password'), 'short{Enter}');
    expect(screen.getAllByRole('alert').map((a) => a.textContent)).toEqual(['Use at least 8 characters']);
  });
});

describe('forgot password', () => {
  it("sends the email and toasts 'Reset link sent'", async () => {
    const api = mockFetch({ [`POST ${BASE}/email-and-password/forgot-password`]: ok({ message: 'Reset link sent' }) });
    const user = userEvent.setup();
    renderPage(<ForgotPassword row={widgetRow('forgot-password')} />);
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText('Reset link sent')).toBeTruthy();
    expect(api.calls[0]!.data).toEqual({ email: 'ada@example.com' });
  });
});

describe('reset password', () => {
  it("reads the code from ?code=, resets, toasts and goes to the sign-in page", async () => {
    window.history.replaceState(null, '', '/rbac/subject/authentication/email-and-password/reset-password?code=abc%2B123');
    const api = mockFetch({ [`POST ${BASE}/email-and-password/reset-password`]: ok({ message: 'Password reset successfully' }) });
    const user = userEvent.setup();
    renderPage(<ResetPassword row={widgetRow('reset-password')} />);
    await user.type(screen.getByLabelText('New password'), 'brand-new-pass');
    await user.type(screen.getByLabelText('Confirm new password'), 'brand-new-pass');
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(await screen.findByText('Password reset successfully')).toBeTruthy();
    expect(api.calls[0]!.data).toEqual({ code: 'abc+123', password: 'brand-new-pass', passwordConfirmation: 'brand-new-pass' });
    await waitFor(() => expect(sandbox.go).toHaveBeenCalledWith('/rbac/subject/authentication/email-and-password/authentication'));
  });

  it('without a code explains and does not submit', async () => {
    const api = mockFetch({});
    renderPage(<ResetPassword row={widgetRow('reset-password')} />);
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reset password' })).toHaveProperty('disabled', true);
    expect(api.calls).toHaveLength(0);
  });

  it('refuses different passwords', async () => {
    window.history.replaceState(null, '', '/?code=abc');
    const api = mockFetch({});
    const user = userEvent.setup();
    renderPage(<ResetPassword row={widgetRow('reset-password')} />);
    await user.type(screen.getByLabelText('New password'), 'brand-new-pass');
    await user.type(screen.getByLabelText('Confirm new password'), 'other-new-pass');
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The passwords do not match');
    expect(api.calls).toHaveLength(0);
  });
});

describe('verify email', () => {
  it("posts the link's code once, toasts 'Email verified' and says which address", async () => {
    window.history.replaceState(null, '', '/rbac/subject/authentication/email-and-password/verify?code=id.1999999999.mac%2Dx');
    const api = mockFetch({ [`POST ${BASE}/email-and-password/verify`]: ok({ message: 'Email verified', email: 'ada@example.com' }) });
    renderPage(<VerifyEmail row={widgetRow('verify-email', { title: {} })} />, { language: 'ru' });
    expect(await screen.findByText('Адрес подтверждён')).toBeTruthy();
    expect((await screen.findAllByRole('status')).some((n) => n.textContent?.includes('ada@example.com принадлежит вам'))).toBe(true);
    expect(api.calls).toHaveLength(1);
    expect(api.calls[0]!.data).toEqual({ code: 'id.1999999999.mac-x' });
    expect(screen.getByRole('heading', { name: 'Подтверждение адреса' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Продолжить' }).getAttribute('href')).toBe('/ru');
  });

  it('an invalid or expired link is explained, with a way to a new one', async () => {
    window.history.replaceState(null, '', '/?code=stale');
    mockFetch({ [`POST ${BASE}/email-and-password/verify`]: fail(400, 'The verification code is invalid or has expired') });
    renderPage(<VerifyEmail row={widgetRow('verify-email')} />);
    expect((await screen.findByRole('alert')).textContent).toBe('The verification code is invalid or has expired');
    expect(await screen.findByText('The verification link is invalid or has expired')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Send a new link' }).getAttribute('href')).toBe('/rbac/subjects/settings');
  });

  it("the row's waiting text ('One moment') shows while the link is checked and goes once it is known how it went", async () => {
    const waiting = { subtitle: { en: 'One moment' }, description: { en: 'We are confirming that this address is yours.' } };
    window.history.replaceState(null, '', '/?code=id.1999999999.mac-x');
    let answer!: () => void;
    const gate = new Promise<void>((r) => (answer = r));
    const answered = mockFetch({ [`POST ${BASE}/email-and-password/verify`]: async () => (await gate, ok({ message: 'Email verified', email: 'ada@example.com' })) });
    renderPage(<VerifyEmail row={widgetRow('verify-email', waiting)} />);
    expect(await screen.findByText('One moment')).toBeTruthy();
    expect(screen.getByText('We are confirming that this address is yours.')).toBeTruthy();
    answer();
    expect(await screen.findByText('Email verified: ada@example.com is confirmed as yours.')).toBeTruthy();
    expect(screen.queryByText('One moment')).toBeNull();
    expect(screen.queryByText('We are confirming that this address is yours.')).toBeNull();
    expect(screen.queryByText('Verifying...')).toBeNull();
    expect(answered.calls).toHaveLength(1);
  });

  it('a failed check drops the waiting text too', async () => {
    window.history.replaceState(null, '', '/?code=stale');
    mockFetch({ [`POST ${BASE}/email-and-password/verify`]: fail(400, 'The verification code is invalid or has expired') });
    renderPage(<VerifyEmail row={widgetRow('verify-email', { subtitle: { en: 'One moment' }, description: { en: 'We are confirming that this address is yours.' } })} />);
    expect(await screen.findByText('The verification link is invalid or has expired')).toBeTruthy();
    expect(screen.queryByText('One moment')).toBeNull();
    expect(screen.queryByText('We are confirming that this address is yours.')).toBeNull();
  });

  it('without a code explains and posts nothing', async () => {
    const api = mockFetch({});
    renderPage(<VerifyEmail row={widgetRow('verify-email')} />);
    expect((await screen.findByRole('alert')).textContent).toMatch(/needs the link from the verification email/);
    expect(api.calls).toHaveLength(0);
  });
});

describe('logout screen', () => {
  it('has a hidden body, logs out with the refresh token, forgets it and goes home', async () => {
    localStorage.setItem(REFRESH_KEY, 'r.5');
    const api = mockFetch({ [`POST ${BASE}/logout`]: ok({ loggedOut: true }) });
    const { container } = renderPage(<Logout row={widgetRow('logout')} />, { language: 'ru' });
    expect((container.querySelector('[data-rbac-logout]') as HTMLElement).hidden).toBe(true);
    await waitFor(() => expect(sandbox.go).toHaveBeenCalledWith('/ru'));
    expect(api.calls).toHaveLength(1);
    expect(api.calls[0]!.data).toEqual({ refresh: 'r.5' });
    expect(api.calls[0]!.init.credentials).toBe('include');
    expect(localStorage.getItem(REFRESH_KEY)).toBeNull();
  });
});
