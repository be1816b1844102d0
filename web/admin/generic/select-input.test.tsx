import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { entity, fakeApi, renderAdmin } from '../test-utils.js';
import { AdminSelectInput } from './select-input.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the reference picker', () => {
  it('says how many rows there are, shows 20 more at a time, and searches all of them', async () => {
    fakeApi({ 'host/widget': Array.from({ length: 24 }, (_, i) => ({ adminTitle: `Widget ${String(i).padStart(2, '0')}`, slug: `w-${i}` })) });
    const onChange = vi.fn();
    renderAdmin(<AdminSelectInput id="w" entity={entity('host/widget')} value={undefined} onChange={onChange} />);
    await userEvent.click(await screen.findByRole('combobox'));
    await screen.findByText('20 of 24 shown — type to search');
    expect(screen.getAllByRole('option')).toHaveLength(20);
    await userEvent.click(screen.getByRole('button', { name: 'Show more' }));
    await screen.findByText('24 items');
    expect(screen.getAllByRole('option')).toHaveLength(24);
    await userEvent.type(screen.getByRole('combobox'), 'Widget 23');
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(1));
    await userEvent.keyboard('{Enter}');
    expect(onChange).toHaveBeenCalledWith(expect.any(String));
  });

  it('says so when the chosen row does not exist', async () => {
    fakeApi({});
    renderAdmin(<AdminSelectInput id="w" entity={entity('host/widget')} value="00000000-0000-4000-8000-000000000000" onChange={() => undefined} />);
    await screen.findByText('The chosen row does not exist any more: choose another');
    expect(screen.getByRole('combobox').getAttribute('aria-invalid')).toBe('true');
  });
});
