import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { entity, fakeApi, renderAdmin } from '../test-utils.js';
import { FormDialog } from './row.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the row dialog', () => {
  it('a row that does not exist is headed "Not found", not "Add new"', async () => {
    fakeApi({});
    renderAdmin(<FormDialog entity={entity('blog/article')} open missing onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog', { name: 'Not found: Article' });
    expect(dialog.textContent).toContain('does not exist');
    expect(screen.queryByText(/Add new/)).toBeNull();
  });

  it('a new row is "Add new"', async () => {
    fakeApi({});
    renderAdmin(<FormDialog entity={entity('blog/article')} open onClose={() => undefined} />);
    expect(await screen.findByRole('dialog', { name: 'Add new: Article' })).toBeTruthy();
  });
});
