import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { toast } from 'sonner';
import { AdminApp } from '../app.js';
import { registerGenericAdmin } from '../generic/index.js';
import { entity, fakeApi, renderAdmin } from '../test-utils.js';
import { EntityCount } from './counts.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the dashboard’s counts', () => {
  it('counts models without a title field too (orders, requests, runs, sessions, payment intents)', async () => {
    fakeApi({
      'ecommerce/order': [{ status: 'new' }, { status: 'new' }, { status: 'new' }],
      'crm/request': [{ payload: { name: 'Ann' } }],
      'billing/payment-intent': [{ status: 'succeeded', amount: 5 }, { status: 'succeeded', amount: 7 }],
    });
    registerGenericAdmin();
    toast.dismiss();
    history.replaceState(null, '', '/admin/');
    render(<AdminApp />);
    await screen.findByRole('heading', { name: 'Dashboard' });
    const countOf = (module: string, link: string) => within(screen.getByRole('region', { name: module })).getByRole('link', { name: link }).parentElement!;
    await waitFor(() => expect(countOf('Ecommerce', 'Orders').textContent).toBe('Orders3'));
    await waitFor(() => expect(countOf('CRM', 'Requests').textContent).toBe('Requests1'));
    await waitFor(() => expect(countOf('Billing', 'Payment intents').textContent).toBe('Payment intents2'));
    await waitFor(() => expect(countOf('Agent', 'Runs').textContent).toBe('Runs0'));
    await waitFor(() => expect(countOf('RBAC', 'Sessions').textContent).toBe('Sessions0'));
    expect(screen.queryByText('—')).toBeNull();
  });

  it('says why when a count is refused', async () => {
    const api = fakeApi({});
    api.fail('GET /api/ecommerce/orders/count', 403, { message: 'Forbidden', status: 403 });
    renderAdmin(<EntityCount entity={entity('ecommerce/order')} />);
    const refused = await screen.findByText('no access');
    expect(refused.getAttribute('title')).toBe('This account may not count these rows');
  });
});
