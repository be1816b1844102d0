import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { entity, fakeApi, renderAdmin } from '../test-utils.js';
import { GenericForm } from './form.js';
import { DUPLICATE_KEY, duplicateKeys, typedValue } from './widgets.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const sent = (api: ReturnType<typeof fakeApi>, method: string) => api.calls.filter((c) => c.method === method && c.path.startsWith('/api/crm/requests'));

describe('the JSON key/value editor', () => {
  it('flags a duplicate key beside its entry and blocks saving until it is fixed', async () => {
    const api = fakeApi({});
    renderAdmin(<GenericForm entity={entity('crm/request')} />);
    await screen.findByText('Payload');
    const add = async (key: string, value: string, n: number) => {
      await userEvent.click(screen.getByRole('button', { name: 'Add entry' }));
      await userEvent.type(screen.getByLabelText(`Key ${n}`), key);
      await userEvent.type(screen.getAllByLabelText(`Value of ${key}`).at(-1)!, value);
    };
    await add('email', 'a', 1);
    await add('age', '42', 2);
    await add('email', 'b', 3);
    const third = screen.getByLabelText('Key 3');
    expect(third.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(third.getAttribute('aria-describedby')!)!.textContent).toBe(DUPLICATE_KEY);
    // the first entry of the key is not the duplicate
    expect(screen.getByLabelText('Key 1').getAttribute('aria-invalid')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    await new Promise((r) => setTimeout(r, 100));
    expect(sent(api, 'POST')).toHaveLength(0);
    // the field's own message, not the date picker's
    expect(screen.queryByText(/DD\.MM\.YYYY/)).toBeNull();
    // fixed: it saves every entry
    await userEvent.clear(third);
    await userEvent.type(third, 'email2');
    expect(screen.queryByText(DUPLICATE_KEY)).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    await screen.findByText('Created successfully');
    expect(sent(api, 'POST')[0]!.data).toMatchObject({ payload: { email: 'a', age: '42', email2: 'b' } });
  });

  it('keeps the type of a stored value: a number stays a number, a boolean a boolean', async () => {
    const api = fakeApi({ 'crm/request': [{ payload: { count: 5, ok: true, name: 'Ann', size: 1 } }] });
    const row = api.rows('crm/request')[0]!;
    renderAdmin(<GenericForm entity={entity('crm/request')} row={row} />);
    const count = (await screen.findByLabelText('Value of count')) as HTMLInputElement;
    expect(count.value).toBe('5');
    await userEvent.clear(count);
    await userEvent.type(count, '6');
    const ok = screen.getByLabelText('Value of ok');
    await userEvent.clear(ok);
    await userEvent.type(ok, 'false');
    // text the old type cannot read is text
    const size = screen.getByLabelText('Value of size');
    await userEvent.clear(size);
    await userEvent.type(size, 'large');
    await userEvent.click(screen.getByRole('button', { name: 'Update' }));
    await screen.findByText('Updated successfully');
    expect(sent(api, 'PATCH')[0]!.data).toMatchObject({ payload: { count: 6, ok: false, name: 'Ann', size: 'large' } });
    expect(typeof (sent(api, 'PATCH')[0]!.data as { payload: { count: unknown } }).payload.count).toBe('number');
  });

  it('reads values by their old type', () => {
    expect(typedValue({ key: 'a', value: '6', raw: 5 })).toBe(6);
    expect(typedValue({ key: 'a', value: '-1.5e2', raw: 5 })).toBe(-150);
    expect(typedValue({ key: 'a', value: '6 apples', raw: 5 })).toBe('6 apples');
    expect(typedValue({ key: 'a', value: '', raw: 5 })).toBe('');
    expect(typedValue({ key: 'a', value: 'TRUE', raw: false })).toBe(true);
    expect(typedValue({ key: 'a', value: 'yes', raw: false })).toBe('yes');
    expect(typedValue({ key: 'a', value: '42', raw: '41' })).toBe('42');
    expect(typedValue({ key: 'a', value: '42' })).toBe('42');
    expect(typedValue({ key: 'a', value: '', raw: null })).toBe(null);
    expect([...duplicateKeys([{ key: 'a', value: '' }, { key: ' a ', value: '' }, { key: '', value: '' }, { key: '', value: '' }])]).toEqual(['a']);
  });
});

describe('server causes beside a field', () => {
  it('name the field by its label: "URL is already taken", not "url is already taken"', async () => {
    fakeApi({ 'host/page': [{ adminTitle: 'Blog', url: '/blog', title: 'Blog' }] });
    renderAdmin(<GenericForm entity={entity('host/page')} />);
    const url = (await screen.findByLabelText(/^URL/)) as HTMLInputElement;
    await userEvent.type(url, '/blog');
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(url.closest('[data-field-invalid]')?.textContent).toContain('URL is already taken'));
    expect(screen.queryByText(/url is already taken/)).toBeNull();
  });
});
