import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { AccountMenu } from './account-menu.js';
import { IdentitySettings } from './identity-settings.js';
import { SubjectOverview } from './subject.js';
import { REFRESH_KEY } from './session.js';
import { browserSandbox, ME, fail, mockFetch, ok, renderPage, widgetRow } from './test-utils.js';

const ME_PATH = '/api/rbac/subjects/authentication/me';
const EMAIL_ID = ME.identities[0]!.id;
const sandbox = browserSandbox();

describe('account menu', () => {
  it('a visitor gets a Login button to the select-method page', async () => {
    mockFetch({ [`GET ${ME_PATH}`]: fail(401, 'Not authorized') });
    const { container } = renderPage(<AccountMenu row={widgetRow('account-menu')} />, { language: 'ru' });
    expect(container.querySelector('.animate-pulse')).toBeTruthy();
    const login = await screen.findByRole('link', { name: 'Войти' });
    expect(login.getAttribute('href')).toBe('/ru/rbac/subject/authentication/select-method');
  });

  it('a subject gets its email, a panel with roles, Settings and Logout; Escape closes it', async () => {
    localStorage.setItem(REFRESH_KEY, 'r.1');
    const api = mockFetch({ [`GET ${ME_PATH}`]: ok(ME), 'POST /api/rbac/subjects/authentication/logout': ok({ loggedOut: true }) });
    const user = userEvent.setup();
    renderPage(<AccountMenu row={widgetRow('account-menu')} />);
    const button = await screen.findByRole('button', { name: /ada@example\.com/ });
    expect(screen.queryByRole('link', { name: 'Login' })).toBeNull();
    expect(button.getAttribute('aria-expanded')).toBe('false');
    await user.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(within(screen.getByRole('list', { name: 'Roles' })).getByText('Member')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Settings' }).getAttribute('href')).toBe('/rbac/subjects/settings');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('link', { name: 'Settings' })).toBeNull();
    expect(document.activeElement).toBe(button);
    await user.keyboard('{Enter}');
    await user.click(screen.getByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(sandbox.go).toHaveBeenCalledWith('/'));
    expect(api.find('POST', '/api/rbac/subjects/authentication/logout')[0]!.data).toEqual({ refresh: 'r.1' });
    expect(localStorage.getItem(REFRESH_KEY)).toBeNull();
  });

  it('a wallet-only subject is shown by its short address', async () => {
    mockFetch({ [`GET ${ME_PATH}`]: ok({ ...ME, identities: [ME.identities[1]] }) });
    renderPage(<AccountMenu row={widgetRow('account-menu')} />);
    expect(await screen.findByRole('button', { name: /0xAbCd…1234/ })).toBeTruthy();
  });
});

describe('identity settings', () => {
  it('lists identities with Email and EVM badges and the right actions', async () => {
    mockFetch({ [`GET ${ME_PATH}`]: ok(ME) });
    renderPage(<IdentitySettings row={widgetRow('identity-settings', { title: { en: 'Sign-in methods' } })} />);
    const table = await screen.findByRole('table');
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Provider', 'Information', 'Actions']);
    const [, emailRow, walletRow] = within(table).getAllByRole('row');
    expect(within(emailRow!).getByText('Email')).toBeTruthy();
    expect(within(emailRow!).getByText('ada@example.com')).toBeTruthy();
    expect(within(emailRow!).getByRole('button', { name: 'Change email' })).toBeTruthy();
    expect(within(emailRow!).getByRole('button', { name: 'Change Password' })).toBeTruthy();
    expect(within(walletRow!).getByText('EVM')).toBeTruthy();
    expect(within(walletRow!).getByText('0xAbCd…1234')).toBeTruthy();
    expect(within(walletRow!).queryByRole('button', { name: 'Change email' })).toBeNull();
    expect(within(walletRow!).getByRole('button', { name: 'Delete' })).toBeTruthy();
  });

  it('F01: an account whose only address is unproven is told, beside Add email, to verify it first; a proven one is not', async () => {
    const unproven = { ...ME, identities: [{ ...ME.identities[0]!, emailVerifiedAt: null }] };
    mockFetch({ [`GET ${ME_PATH}`]: ok(unproven) });
    const first = renderPage(<IdentitySettings row={widgetRow('identity-settings')} />);
    expect(await screen.findByText(/^Verify your email address \(open the link we mailed to it\) to add another sign-in method\.$/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add email' })).toBeTruthy();
    first.unmount();
    mockFetch({ [`GET ${ME_PATH}`]: ok(ME) });
    renderPage(<IdentitySettings row={widgetRow('identity-settings')} />);
    await screen.findByRole('table');
    expect(screen.queryByText(/Verify your email address/)).toBeNull();
  });

  it('a visitor gets a link to sign in', async () => {
    mockFetch({ [`GET ${ME_PATH}`]: fail(401, 'Not authorized') });
    renderPage(<IdentitySettings row={widgetRow('identity-settings')} />);
    expect((await screen.findByRole('link', { name: 'Sign in' })).getAttribute('href')).toBe('/rbac/subject/authentication/select-method');
  });

  it('changes the password with a multipart request whose data part is JSON', async () => {
    const path = `/api/rbac/identities/${EMAIL_ID}/change-password`;
    const api = mockFetch({ [`GET ${ME_PATH}`]: ok(ME), [`PATCH ${path}`]: ok({ id: EMAIL_ID }) });
    const user = userEvent.setup();
    renderPage(<IdentitySettings row={widgetRow('identity-settings')} />);
    await user.click(await screen.findByRole('button', { name: 'Change Password' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change Password' });
    expect(within(dialog).getByText('Update your account password.')).toBeTruthy();
    await user.type(within(dialog).getByLabelText('Current password'), 'old-password');
    await user.type(within(dialog).getByLabelText('New password'), 'short');
    await user.click(within(dialog).getByRole('button', { name: 'Update password' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Use at least 8 characters');
    await user.type(within(dialog).getByLabelText('New password'), '-but-longer');
    await user.click(within(dialog).getByRole('button', { name: 'Update password' }));
    await waitFor(() => expect(api.find('PATCH', path)).toHaveLength(1));
    const call = api.find('PATCH', path)[0]!;
    expect(call.init.body).toBeInstanceOf(FormData);
    expect(JSON.parse(String((call.init.body as FormData).get('data')))).toEqual({ password: 'old-password', newPassword: 'short-but-longer' });
    expect(call.init.credentials).toBe('include');
    expect(await screen.findByText('Updated successfully')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it("Change Password: the server's error goes once the form is sent again (a failed check shows alone) or edited", async () => {
    const path = `/api/rbac/identities/${EMAIL_ID}/change-password`;
    const wrong = fail(400, 'The current password is wrong');
    const api = mockFetch({ [`GET ${ME_PATH}`]: ok(ME), [`PATCH ${path}`]: [wrong, wrong] });
    const user = userEvent.setup();
    renderPage(<IdentitySettings row={widgetRow('identity-settings')} />);
    await user.click(await screen.findByRole('button', { name: 'Change Password' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change Password' });
    await user.type(within(dialog).getByLabelText('Current password'), 'not-my-password');
    await user.type(within(dialog).getByLabelText('New password'), 'a-new-password');
    await user.click(within(dialog).getByRole('button', { name: 'Update password' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('The current password is wrong');

    // sent again, failing the client's check: the check alone
    await user.clear(within(dialog).getByLabelText('New password'));
    await user.type(within(dialog).getByLabelText('New password'), 'short');
    await user.click(within(dialog).getByRole('button', { name: 'Update password' }));
    expect(within(dialog).getAllByRole('alert').map((a) => a.textContent)).toEqual(['Use at least 8 characters']);
    expect(api.find('PATCH', path)).toHaveLength(1);

    // the server's error again; an edit alone clears it
    await user.type(within(dialog).getByLabelText('New password'), '-but-longer');
    await user.click(within(dialog).getByRole('button', { name: 'Update password' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('The current password is wrong');
    await user.type(within(dialog).getByLabelText('Current password'), 'x');
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect(api.find('PATCH', path)).toHaveLength(2);
  });

  it("changes the email with the current password, showing 'Updating...' while pending", async () => {
    const path = `/api/rbac/subjects/${ME.id}/identities/${EMAIL_ID}`;
    let release!: () => void;
    const api = mockFetch({
      [`GET ${ME_PATH}`]: ok(ME),
      [`PATCH ${path}`]: () => new Promise((r) => (release = () => r(ok({ id: EMAIL_ID, email: 'ada@lovelace.dev' })))),
    });
    const user = userEvent.setup();
    renderPage(<IdentitySettings row={widgetRow('identity-settings')} />);
    await user.click(await screen.findByRole('button', { name: 'Change email' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change email' });
    const input = within(dialog).getByLabelText('Email');
    expect((input as HTMLInputElement).value).toBe('ada@example.com');
    await user.clear(input);
    await user.type(input, 'ada@lovelace.dev');
    // finding 4: a session alone does not change a login; the current password goes with it
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Enter your current password');
    expect(api.find('PATCH', path)).toHaveLength(0);
    await user.type(within(dialog).getByLabelText('Current password'), 'ada-password');
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    expect(await within(dialog).findByRole('button', { name: 'Updating...' })).toHaveProperty('disabled', true);
    release();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.find('PATCH', path)[0]!.data).toEqual({ email: 'ada@lovelace.dev', password: 'ada-password' });
    expect(api.find('GET', ME_PATH).length).toBeGreaterThan(1);
  });

  it("an unverified address shows 'Not verified' and 'Resend', which sends the link again", async () => {
    const unverified = { ...ME, identities: [{ ...ME.identities[0]!, emailVerifiedAt: null }, ME.identities[1]!] };
    const resend = '/api/rbac/subjects/authentication/email-and-password/verify/resend';
    const api = mockFetch({ [`GET ${ME_PATH}`]: ok(unverified), [`POST ${resend}`]: [ok({ message: 'Verification email sent' }), fail(429, 'Too many attempts: try again in 60 seconds')] });
    const user = userEvent.setup();
    renderPage(<IdentitySettings row={widgetRow('identity-settings')} />);
    const [, emailRow, walletRow] = within(await screen.findByRole('table')).getAllByRole('row');
    expect(within(emailRow!).getByText('Not verified')).toBeTruthy();
    expect(within(walletRow!).queryByText('Not verified')).toBeNull();
    await user.click(within(emailRow!).getByRole('button', { name: 'Resend' }));
    expect(await screen.findByText('Verification email sent')).toBeTruthy();
    expect(api.find('POST', resend)[0]!.data).toEqual({ identityId: EMAIL_ID });
    await user.click(within(emailRow!).getByRole('button', { name: 'Resend' }));
    expect(await screen.findByText('Too many attempts: try again in 60 seconds')).toBeTruthy();
  });

  it("a verified address shows no 'Not verified'", async () => {
    mockFetch({ [`GET ${ME_PATH}`]: ok(ME) });
    renderPage(<IdentitySettings row={widgetRow('identity-settings')} />);
    await screen.findByRole('table');
    expect(screen.queryByText('Not verified')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Resend' })).toBeNull();
  });

  it("adds an email login with the account's current password", async () => {
    const api = mockFetch({ [`GET ${ME_PATH}`]: ok(ME), 'POST /api/rbac/identities/email-and-password': [fail(400, 'The current password is wrong'), { status: 201, body: { data: { id: 'new' } } }] });
    const user = userEvent.setup();
    renderPage(<IdentitySettings row={widgetRow('identity-settings')} />);
    await user.click(await screen.findByRole('button', { name: 'Add email' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add email' });
    expect(within(dialog).getByLabelText('Email').getAttribute('placeholder')).toBe('Type your email');
    await user.type(within(dialog).getByLabelText('Email'), 'ada@work.example');
    await user.type(within(dialog).getByLabelText('Password'), 'work-password');
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Enter your current password');
    expect(api.find('POST', '/api/rbac/identities/email-and-password')).toHaveLength(0);
    await user.type(within(dialog).getByLabelText('Current password'), 'wrong-password');
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('The current password is wrong');
    await user.clear(within(dialog).getByLabelText('Current password'));
    await user.type(within(dialog).getByLabelText('Current password'), 'ada-password');
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.find('POST', '/api/rbac/identities/email-and-password')[1]!.data).toEqual({ email: 'ada@work.example', password: 'work-password', currentPassword: 'ada-password' });
    expect(await screen.findByText('Updated successfully')).toBeTruthy();
  });

  it('a wallet-only subject adds an email without a current password (it has none)', async () => {
    const api = mockFetch({ [`GET ${ME_PATH}`]: ok({ ...ME, identities: [ME.identities[1]] }), 'POST /api/rbac/identities/email-and-password': { status: 201, body: { data: { id: 'new' } } } });
    const user = userEvent.setup();
    renderPage(<IdentitySettings row={widgetRow('identity-settings')} />);
    await user.click(await screen.findByRole('button', { name: 'Add email' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add email' });
    expect(within(dialog).queryByLabelText('Current password')).toBeNull();
    await user.type(within(dialog).getByLabelText('Email'), 'ada@example.com');
    await user.type(within(dialog).getByLabelText('Password'), 'new-password');
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(api.find('POST', '/api/rbac/identities/email-and-password')).toHaveLength(1));
    expect(api.find('POST', '/api/rbac/identities/email-and-password')[0]!.data).toEqual({ email: 'ada@example.com', password: 'new-password' });
  });

  it('deletes an identity after confirming, and shows a refusal', async () => {
    const wallet = ME.identities[1]!.id;
    const path = `/api/rbac/subjects/${ME.id}/identities/${wallet}`;
    const api = mockFetch({ [`GET ${ME_PATH}`]: ok(ME), [`DELETE ${path}`]: [fail(400, 'An account keeps at least one identity'), ok({ id: wallet })] });
    const user = userEvent.setup();
    renderPage(<IdentitySettings row={widgetRow('identity-settings')} />);
    const rows = within(await screen.findByRole('table')).getAllByRole('row');
    await user.click(within(rows[2]!).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete?' });
    // the account has a password: removing a login asks for it, and nothing is sent without it
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(api.find('DELETE', path)).toHaveLength(0);
    await user.type(within(dialog).getByLabelText('Current password'), 'ada-password');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('An account keeps at least one identity');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.find('DELETE', path).map((r) => r.data)).toEqual([{ currentPassword: 'ada-password' }, { currentPassword: 'ada-password' }]);
  });
});

describe('subject overview', () => {
  it("shows the subject with a 'View profile' link", async () => {
    mockFetch({ [`GET ${ME_PATH}`]: ok(ME) });
    renderPage(<SubjectOverview row={widgetRow('subject-overview', { title: {} })} />, { language: 'ru' });
    expect(await screen.findByRole('heading', { name: 'ada@example.com' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Открыть профиль' }).getAttribute('href')).toBe('/ru/rbac/subjects/ada-lovelace');
  });
});
