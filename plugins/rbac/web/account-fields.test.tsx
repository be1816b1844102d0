import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { AccountMenu } from './account-menu.js';
import { IdentitySettings } from './identity-settings.js';
import { SubjectOverview } from './subject.js';
import { browserSandbox, ME, mockFetch, ok, renderPage, widgetRow } from './test-utils.js';

const ME_PATH = '/api/rbac/subjects/authentication/me';
const EMAIL_ID = ME.identities[0]!.id;
browserSandbox();

/** the field an error message is under: the label of the input that names it in aria-describedby */
const fieldOf = (message: HTMLElement) => {
  const input = document.querySelector(`[aria-describedby~="${message.id}"]`) as HTMLInputElement | null;
  return input?.labels?.[0]?.textContent;
};

describe('role badges in the page language', () => {
  it('the built-in roles are named by the words on /ru (the settings page card and the account menu)', async () => {
    mockFetch({ [`GET ${ME_PATH}`]: ok({ ...ME, roles: [...ME.roles, { id: 'r-admin', slug: 'admin', title: 'Administrator' }, { id: 'r-ed', slug: 'editor', title: 'Editor' }] }) });
    const user = userEvent.setup();
    renderPage(
      <>
        <SubjectOverview row={widgetRow('subject-overview')} />
        <AccountMenu row={widgetRow('account-menu')} />
      </>,
      { language: 'ru' },
    );
    const [card] = await screen.findAllByRole('list', { name: 'Роли' });
    expect(within(card!).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Участник', 'Администратор', 'Editor']);
    await user.click(await screen.findByRole('button', { name: /ada@example\.com/ }));
    const menu = screen.getAllByRole('list', { name: 'Роли' })[1]!;
    expect(within(menu).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Участник', 'Администратор', 'Editor']);
  });

  it("in the default language a role's own title stands; a title given per language is picked", async () => {
    mockFetch({ [`GET ${ME_PATH}`]: ok({ ...ME, roles: [{ id: 'r1', slug: 'member', title: 'Team member' }, { id: 'r2', slug: 'vip', title: { en: 'VIP', ru: 'ВИП' } }] }) });
    const { unmount } = renderPage(<SubjectOverview row={widgetRow('subject-overview')} />);
    expect(within(await screen.findByRole('list', { name: 'Roles' })).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Team member', 'VIP']);
    unmount();
    renderPage(<SubjectOverview row={widgetRow('subject-overview')} />, { language: 'ru' });
    expect(within(await screen.findByRole('list', { name: 'Роли' })).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Участник', 'ВИП']);
  });
});

describe('current password messages', () => {
  it('Change email: an empty current password is asked for, in the page language, and nothing is sent', async () => {
    const path = `/api/rbac/subjects/${ME.id}/identities/${EMAIL_ID}`;
    const api = mockFetch({ [`GET ${ME_PATH}`]: ok(ME), [`PATCH ${path}`]: ok({}) });
    const user = userEvent.setup();
    renderPage(<IdentitySettings row={widgetRow('identity-settings')} />, { language: 'ru' });
    await user.click(await screen.findByRole('button', { name: 'Сменить адрес' }));
    const dialog = await screen.findByRole('dialog', { name: 'Сменить адрес' });
    await user.click(within(dialog).getByRole('button', { name: 'Сохранить' }));
    const alert = within(dialog).getByRole('alert');
    expect(alert.textContent).toBe('Введите текущий пароль');
    expect(fieldOf(alert)).toBe('Текущий пароль');
    expect(api.find('PATCH', path)).toHaveLength(0);
  });

  it("Change password: the server's 'current password is wrong' is shown under Current password, and goes with an edit", async () => {
    const path = `/api/rbac/identities/${EMAIL_ID}/change-password`;
    const wrong = { status: 400, body: { message: 'The current password is wrong', status: 400, cause: [{ field: 'password', rule: 'match', message: 'password is wrong' }] } };
    mockFetch({ [`GET ${ME_PATH}`]: ok(ME), [`PATCH ${path}`]: wrong });
    const user = userEvent.setup();
    renderPage(<IdentitySettings row={widgetRow('identity-settings')} />);
    await user.click(await screen.findByRole('button', { name: 'Change Password' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change Password' });
    await user.type(within(dialog).getByLabelText('Current password'), 'not-my-password');
    await user.type(within(dialog).getByLabelText('New password'), 'a-new-password');
    await user.click(within(dialog).getByRole('button', { name: 'Update password' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toBe('The current password is wrong');
    expect(fieldOf(alert)).toBe('Current password');
    expect(within(dialog).getAllByRole('alert')).toHaveLength(1);
    expect(within(dialog).getByLabelText('Current password').getAttribute('aria-invalid')).toBe('true');
    expect(within(dialog).getByLabelText('New password').getAttribute('aria-invalid')).toBeNull();
    await user.type(within(dialog).getByLabelText('Current password'), 'x');
    expect(within(dialog).queryByRole('alert')).toBeNull();
  });
});
