import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { ForgotPassword, Registration, ResetPassword, VerifyEmail } from './password-screens.js';
import { Logout } from './subject.js';
import { REFRESH_KEY } from './session.js';
import { ME, browserSandbox, fail, mockFetch, ok, renderPage, widgetRow } from './test-utils.js';

const BASE = '/api/rbac/subjects/authentication';
const sandbox = browserSandbox();
afterEach(() => window.history.replaceState(null, '', '/'));

describe('registration', () => {
  it("item 3: creates the account, stores the refresh token and says to check the email (no 'already exists' to read)", async () => {
    const api = mockFetch({ [`POST ${BASE}/email-and-password/registration`]: { status: 201, body: { data: { jwt: 'j', refresh: 'r.9' } } } });
    const user = userEvent.setup();
    renderPage(<Registration row={widgetRow('registration', { title: { en: 'Create an account' } })} />, { language: 'ru' });
    expect(screen.getByRole('link', { name: 'Войти' }).getAttribute('href')).toBe('/ru/rbac/subject/authentication/select-method');
    await user.type(screen.getByLabelText('Эл. почта'), ' new@example.com ');
    await user.type(screen.getByLabelText('Пароль'), 'long-enough');
    await user.click(screen.getByRole('button', { name: 'Создать аккаунт' }));
    const status = await screen.findByRole('status');
    expect(status.textContent).toContain('Проверьте почту');
    expect(status.textContent).toContain('Мы отправили письмо на new@example.com. Откройте его, чтобы подтвердить адрес.');
    expect(screen.getByRole('link', { name: 'Продолжить' }).getAttribute('href')).toBe('/ru');
    expect(screen.queryByRole('form')).toBeNull();
    expect(sandbox.go).not.toHaveBeenCalled();
    expect(localStorage.getItem(REFRESH_KEY)).toBe('r.9');
    expect(api.calls[0]!.data).toEqual({ login: 'new@example.com', password: 'long-enough' });
  });

  it('item 3: the row\'s subtitle and description give way to the message once it is sent', async () => {
    mockFetch({ [`POST ${BASE}/email-and-password/registration`]: { status: 201, body: { data: { jwt: 'j', refresh: 'r.1' } } } });
    const user = userEvent.setup();
    renderPage(<Registration row={widgetRow('registration', { subtitle: { en: 'Start building' } })} />);
    expect(screen.getByText('Start building')).toBeTruthy();
    await user.type(screen.getByLabelText('Email'), 'taken@example.com');
    await user.type(screen.getByLabelText('Password'), 'long-enough{Enter}');
    expect((await screen.findByRole('status')).textContent).toContain('We sent a message to taken@example.com. Open it to verify your address.');
    expect(screen.getByText('Check your email')).toBeTruthy();
    expect(screen.queryByText('Start building')).toBeNull();
  });

  /** a refused registration (a rate limit, say), answered `times` times: the user, after the first answer's alert */
  async function registerRefused(times: number) {
    const refused = fail(429, 'Too many attempts: try again in 30 seconds');
    mockFetch({ [`POST ${BASE}/email-and-password/registration`]: times === 1 ? refused : Array.from({ length: times }, () => refused) });
    const user = userEvent.setup();
    renderPage(<Registration row={widgetRow('registration')} />);
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'long-enough');
    await user.keyboard('{Enter}');
    expect((await screen.findByRole('alert')).textContent).toMatch(/30/);
    return user;
  }

  it('a refusal is shown, and nothing says an email was sent', async () => {
    await registerRefused(1);
    expect(screen.queryByRole('status')).toBeNull();
    expect(sandbox.go).not.toHaveBeenCalled();
  });

  it("the server's message goes once the form is edited or sent again", async () => {
    const user = await registerRefused(2);
    await user.type(screen.getByLabelText('Email'), 'x');
    expect(screen.queryByRole('alert')).toBeNull();

    await user.keyboard('{Enter}');
    expect((await screen.findByRole('alert')).textContent).toMatch(/30/);
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
  const CODE = `${ME.identities[0]!.id}.1999999999.mac-x`;
  const VERIFY = `POST ${BASE}/email-and-password/verify`;
  const verified = ok({ message: 'Email verified', email: 'ada@example.com' });
  const refused = (field: string, rule: string, message: string) => ({ status: 400, body: { message, status: 400, cause: [{ field, rule, message }] } });

  it("item 2: opening the link posts nothing; 'Verify email' with the account's password verifies and says which address", async () => {
    window.history.replaceState(null, '', `/rbac/subject/authentication/email-and-password/verify?code=${encodeURIComponent(CODE)}`);
    const api = mockFetch({ [VERIFY]: verified });
    const user = userEvent.setup();
    renderPage(<VerifyEmail row={widgetRow('verify-email', { title: {} })} />, { language: 'ru' });
    const button = await screen.findByRole('button', { name: 'Подтвердить адрес' });
    expect(screen.getByRole('heading', { name: 'Подтверждение адреса' })).toBeTruthy();
    expect(screen.getByText('Подтвердите, что адрес, на который пришла эта ссылка, принадлежит вам.')).toBeTruthy();
    expect((await screen.findByRole('link', { name: 'Сбросьте пароль' })).getAttribute('href')).toBe('/ru/rbac/subject/authentication/email-and-password/forgot-password');
    await waitFor(() => expect(button).toHaveProperty('disabled', false));
    expect(api.find('POST', `${BASE}/email-and-password/verify`)).toHaveLength(0);

    await user.type(screen.getByLabelText('Пароль вашего аккаунта'), 'the-password');
    await user.click(button);
    expect(await screen.findByText('Адрес подтверждён')).toBeTruthy();
    expect((await screen.findAllByRole('status')).some((n) => n.textContent?.includes('ada@example.com принадлежит вам'))).toBe(true);
    expect(api.find('POST', `${BASE}/email-and-password/verify`).map((c) => c.data)).toEqual([{ code: CODE, password: 'the-password' }]);
    expect(screen.getByRole('link', { name: 'Продолжить' }).getAttribute('href')).toBe('/ru');
    expect(screen.queryByRole('button', { name: 'Подтвердить адрес' })).toBeNull();
  });

  it('item 2: signed in as the owner of the login the code names, the code alone verifies, on a click', async () => {
    window.history.replaceState(null, '', `/?code=${encodeURIComponent(CODE)}`);
    const api = mockFetch({ [`GET ${BASE}/me`]: ok(ME), [VERIFY]: verified });
    const user = userEvent.setup();
    renderPage(<VerifyEmail row={widgetRow('verify-email')} />);
    expect(await screen.findByText('Confirm that ada@example.com is yours.')).toBeTruthy();
    expect(screen.queryByLabelText('Password of your account')).toBeNull();
    expect(api.find('POST', `${BASE}/email-and-password/verify`)).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Verify email' }));
    expect(await screen.findByText('Email verified: ada@example.com is confirmed as yours.')).toBeTruthy();
    expect(api.find('POST', `${BASE}/email-and-password/verify`).map((c) => c.data)).toEqual([{ code: CODE }]);
  });

  it("item 2: signed in as someone else, the password is asked for; the server's password refusals stand beside it", async () => {
    window.history.replaceState(null, '', `/?code=${encodeURIComponent('99999999-9999-4999-8999-999999999999.1999999999.mac-x')}`);
    const api = mockFetch({
      [`GET ${BASE}/me`]: ok(ME),
      [VERIFY]: [refused('password', 'match', 'The password is wrong'), refused('password', 'required', 'password is required'), verified],
    });
    const user = userEvent.setup();
    renderPage(<VerifyEmail row={widgetRow('verify-email')} />);
    const field = await screen.findByLabelText('Password of your account');
    await user.click(screen.getByRole('button', { name: 'Verify email' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Enter the password of your account');
    expect(api.find('POST', `${BASE}/email-and-password/verify`)).toHaveLength(0);

    await user.type(field, 'wrong-one{Enter}');
    expect((await screen.findByRole('alert')).textContent).toBe('The password is wrong');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    await user.type(field, 'x{Enter}');
    expect((await screen.findByRole('alert')).textContent).toBe('Enter the password of your account');
    await user.type(field, 'y{Enter}');
    expect(await screen.findByText('Email verified: ada@example.com is confirmed as yours.')).toBeTruthy();
    expect(api.find('POST', `${BASE}/email-and-password/verify`).map((c) => c.data)).toEqual([
      { code: expect.any(String), password: 'wrong-one' },
      { code: expect.any(String), password: 'wrong-onex' },
      { code: expect.any(String), password: 'wrong-onexy' },
    ]);
  });

  it('item 2: when the server asks the signed-in owner for the password too, the field appears with its refusal', async () => {
    window.history.replaceState(null, '', `/?code=${encodeURIComponent(CODE)}`);
    const api = mockFetch({ [`GET ${BASE}/me`]: ok(ME), [VERIFY]: [refused('password', 'required', 'password is required'), verified] });
    const user = userEvent.setup();
    renderPage(<VerifyEmail row={widgetRow('verify-email')} />);
    await user.click(await screen.findByRole('button', { name: 'Verify email' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Enter the password of your account');
    await user.type(screen.getByLabelText('Password of your account'), 'the-password{Enter}');
    expect(await screen.findByText('Email verified: ada@example.com is confirmed as yours.')).toBeTruthy();
    expect(api.find('POST', `${BASE}/email-and-password/verify`).map((c) => c.data)).toEqual([{ code: CODE }, { code: CODE, password: 'the-password' }]);
  });

  it('an invalid or expired link is explained, with a way to a new one', async () => {
    window.history.replaceState(null, '', '/?code=stale');
    mockFetch({ [VERIFY]: refused('code', 'code', 'The verification code is invalid or has expired') });
    const user = userEvent.setup();
    renderPage(<VerifyEmail row={widgetRow('verify-email')} />);
    await user.type(await screen.findByLabelText('Password of your account'), 'the-password{Enter}');
    expect((await screen.findByRole('alert')).textContent).toBe('The verification link is invalid or has expired');
    expect(screen.getByRole('link', { name: 'Send a new link' }).getAttribute('href')).toBe('/rbac/subjects/settings');
    expect(screen.queryByRole('button', { name: 'Verify email' })).toBeNull();
  });

  it("the row's subtitle and description stand over the button and go once it is known how it went", async () => {
    const intro = { subtitle: { en: 'One step left' }, description: { en: 'A verified address can sign you in.' } };
    window.history.replaceState(null, '', `/?code=${encodeURIComponent(CODE)}`);
    mockFetch({ [VERIFY]: verified });
    const user = userEvent.setup();
    renderPage(<VerifyEmail row={widgetRow('verify-email', intro)} />);
    expect(await screen.findByText('One step left')).toBeTruthy();
    expect(screen.getByText('A verified address can sign you in.')).toBeTruthy();
    await user.type(await screen.findByLabelText('Password of your account'), 'the-password{Enter}');
    expect(await screen.findByText('Email verified: ada@example.com is confirmed as yours.')).toBeTruthy();
    expect(screen.queryByText('One step left')).toBeNull();
    expect(screen.queryByText('A verified address can sign you in.')).toBeNull();
  });

  it('without a code explains and posts nothing', async () => {
    const api = mockFetch({});
    renderPage(<VerifyEmail row={widgetRow('verify-email')} />);
    expect((await screen.findByRole('alert')).textContent).toMatch(/needs the link from the verification email/);
    expect(screen.queryByRole('button', { name: 'Verify email' })).toBeNull();
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
