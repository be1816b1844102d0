import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { IdentityCreateByEmail } from './identity-create.js';
import { browserSandbox, fail, ME, mockFetch, ok, renderPage, widgetRow } from './test-utils.js';

browserSandbox();
const ME_PATH = 'GET /api/rbac/subjects/authentication/me';
const ADD = `POST /api/rbac/subjects/${ME.id}/identities`;
const row = () => widgetRow('identity-create-by-email', { title: { en: 'Add an email' }, subtitle: {}, description: {} });

describe('identity create-by-email', () => {
  it("one email field ('Type your email') and Submit; then the current password; posts both and says a link was sent", async () => {
    const api = mockFetch({ [ME_PATH]: ok(ME), [ADD]: { status: 201, body: { data: { id: 'new' } } } });
    const user = userEvent.setup();
    renderPage(<IdentityCreateByEmail row={row()} />);
    const email = await screen.findByPlaceholderText('Type your email');
    expect(screen.getAllByRole('textbox')).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(screen.getByRole('alert').textContent).toBe('Enter a valid email address');
    await user.type(email, 'Second@Example.com');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    const current = await screen.findByLabelText('Current password');
    expect(document.activeElement).toBe(current);
    await user.type(current, 'password123');
    await user.click(screen.getByRole('button', { name: 'Add email' }));
    expect(await screen.findByRole('status')).toBeTruthy();
    expect(screen.getByText(/We sent it a link/)).toBeTruthy();
    expect(api.find('POST', `/api/rbac/subjects/${ME.id}/identities`)[0]!.data).toEqual({ email: 'second@example.com', password: 'password123', currentPassword: 'password123' });
  });

  it('a wrong current password stays on the second step with the message; a taken address goes back to the email', async () => {
    const wrong = { status: 400, body: { message: 'The current password is wrong', status: 400, cause: [{ field: 'currentPassword', rule: 'match', message: 'currentPassword is wrong' }] } };
    const taken = { status: 409, body: { message: 'An account with this email already exists', status: 409, cause: [{ field: 'email', rule: 'unique', message: 'email is already registered' }] } };
    mockFetch({ [ME_PATH]: ok(ME), [ADD]: [wrong, taken] });
    const user = userEvent.setup();
    renderPage(<IdentityCreateByEmail row={row()} />);
    await user.type(await screen.findByPlaceholderText('Type your email'), 'taken@example.com');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await user.type(await screen.findByLabelText('Current password'), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Add email' }));
    expect((await screen.findByRole('alert')).textContent).toContain('The current password is wrong');
    await user.click(screen.getByRole('button', { name: 'Add email' }));
    expect((await screen.findByRole('alert')).textContent).toContain('An account with this email already exists');
    expect(screen.getByPlaceholderText('Type your email')).toBeTruthy();
  });

  it('a wallet-only subject chooses a password for the new address instead', async () => {
    const wallet = { ...ME, identities: [ME.identities[1]!] };
    const api = mockFetch({ [ME_PATH]: ok(wallet), [ADD]: { status: 201, body: { data: { id: 'new' } } } });
    const user = userEvent.setup();
    renderPage(<IdentityCreateByEmail row={row()} />);
    await user.type(await screen.findByPlaceholderText('Type your email'), 'first@example.com');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await user.type(await screen.findByLabelText('Password for this email'), 'a-new-password');
    await user.click(screen.getByRole('button', { name: 'Add email' }));
    await screen.findByRole('status');
    expect(api.find('POST', `/api/rbac/subjects/${ME.id}/identities`)[0]!.data).toEqual({ email: 'first@example.com', password: 'a-new-password' });
  });

  it('a visitor is asked to sign in and sees no field', async () => {
    mockFetch({ [ME_PATH]: fail(401, 'Not authorized') });
    renderPage(<IdentityCreateByEmail row={row()} />);
    expect(await screen.findByRole('link', { name: 'Sign in' })).toBeTruthy();
    expect(screen.queryByPlaceholderText('Type your email')).toBeNull();
  });
});
