import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { toast } from 'sonner';
import { AdminApp, ErrorBoundary, navGroups } from './app.js';
import { registerGenericAdmin } from './generic/index.js';
import { fakeApi, model } from './test-utils.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function open(path: string) {
  registerGenericAdmin();
  toast.dismiss();
  history.replaceState(null, '', path);
  return render(<AdminApp />);
}

describe('the list of models', () => {
  it('shows titles by module, sorted; relation tables only under their owner behind a toggle or a filter', () => {
    const groups = navGroups(model(), '', false);
    const ecommerce = groups.find((g) => g.module === 'ecommerce')!;
    expect(ecommerce.title).toBe('Ecommerce');
    const titles = ecommerce.items.map((i) => i.entity.title);
    expect(titles).toEqual([...titles].sort((a, b) => a.localeCompare(b)));
    expect(titles).toContain('Product');
    expect(ecommerce.items.every((i) => !i.entity.relation && !i.children.length)).toBe(true);
    expect(groups.map((g) => g.title)).toContain('File storage');

    const withRelations = navGroups(model(), '', true).find((g) => g.module === 'ecommerce')!;
    const product = withRelations.items.find((i) => i.entity.id === 'ecommerce/product')!;
    expect(product.children.map((c) => c.title)).toEqual(expect.arrayContaining(['Products to attributes']));
    const filtered = navGroups(model(), 'categories to', false);
    expect(filtered.flatMap((g) => g.items.flatMap((i) => i.children.map((c) => c.id)))).toEqual(expect.arrayContaining(['ecommerce/categories-to-products', 'blog/categories-to-articles']));
  });

  it('filters, tells same-titled models apart, and opens one', async () => {
    fakeApi({ 'ecommerce/product': [{ adminTitle: 'Lamp', slug: 'lamp' }] });
    open('/admin/');
    const nav = await screen.findByRole('navigation', { name: 'Models' });
    expect(within(nav).getByRole('link', { name: 'Widget (Host)' })).toBeTruthy();
    await userEvent.type(within(nav).getByRole('searchbox'), 'prod');
    expect(within(nav).queryByRole('link', { name: 'Currency' })).toBeNull();
    await userEvent.click(within(nav).getByRole('link', { name: 'Product' }));
    await screen.findByRole('region', { name: 'Products' });
    expect(location.pathname).toBe('/admin/ecommerce/products');
    await waitFor(() => expect(document.title).toBe('Products · Admin'));
  });
});

describe('the admin app', () => {
  it('lands on a dashboard with counts and recent changes, and says who is signed in', async () => {
    fakeApi({ 'ecommerce/product': [{ adminTitle: 'Lamp', slug: 'lamp' }, { adminTitle: 'Desk', slug: 'desk' }], 'blog/article': [{ adminTitle: 'Launch week', slug: 'launch' }] });
    open('/admin/');
    await screen.findByRole('heading', { name: 'Dashboard' });
    const recent = screen.getByRole('region', { name: 'Recent changes' });
    await within(recent).findByRole('link', { name: 'Launch week' });
    expect(within(recent).getByRole('link', { name: 'Desk' })).toBeTruthy();
    const ecommerce = screen.getByRole('region', { name: 'Ecommerce' });
    const products = within(ecommerce).getByRole('link', { name: 'Products' });
    await waitFor(() => expect(products.parentElement!.textContent).toContain('2'));
    expect(screen.getByText('editor@example.com')).toBeTruthy();
    expect(document.title).toBe('Dashboard · Admin');
  });

  it('an unknown address says Not found', async () => {
    fakeApi({});
    open('/admin/nothing/here');
    await screen.findByRole('heading', { name: 'Not found' });
    expect(screen.getByRole('link', { name: 'Go to the dashboard' })).toBeTruthy();
  });

  it('the list’s page and search come from the address, and so does the open row', async () => {
    const api = fakeApi({ 'ecommerce/product': Array.from({ length: 25 }, (_, i) => ({ adminTitle: `Item ${String(i).padStart(2, '0')}`, slug: `item-${i}` })) });
    const item = api.rows('ecommerce/product')[3]!;
    open(`/admin/ecommerce/products/${item.id}?page=2`);
    await screen.findByText('Page 2 of 2');
    const dialog = await screen.findByRole('dialog', { name: 'Edit: Product · Item 03' });
    await waitFor(() => expect(document.title).toBe('Item 03 · Product · Admin'));
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(dialog.isConnected).toBe(false));
    expect(location.pathname + location.search).toBe('/admin/ecommerce/products?page=2');
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search Products' }), 'Item 1');
    await waitFor(() => expect(new URLSearchParams(location.search).get('q')).toBe('Item 1'));
    expect(new URLSearchParams(location.search).get('page')).toBeNull();
  });
});

describe('the error boundary', () => {
  it('shows the spec’s message with Reload instead of a blank page', () => {
    const Broken = () => {
      throw new Error('Failed to fetch dynamically imported module');
    };
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <ErrorBoundary>
        <Broken />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('heading', { name: 'Oh no! Something went wrong...' })).toBeTruthy();
    expect(screen.getByText('Failed to fetch dynamically imported module')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
  });
});

describe('a session that ends while editing', () => {
  it('asks to sign in again over the page, and the form keeps what was typed', async () => {
    const api = fakeApi({ 'blog/article': [{ adminTitle: 'Launch week', slug: 'launch' }] });
    const item = api.rows('blog/article')[0]!;
    localStorage.removeItem('rbac.subject.refresh');
    open(`/admin/blog/articles/${item.id}`);
    const dialog = await screen.findByRole('dialog', { name: 'Edit: Article · Launch week' });
    const title = within(dialog).getByLabelText(/^Admin title/) as HTMLInputElement;
    await userEvent.clear(title);
    await userEvent.type(title, 'Launch week, revised');
    // signed out elsewhere: the save is refused, and no refresh token brings the session back
    api.fail(`PATCH /api/blog/articles/${item.id}`, 401, { message: 'Not authorized', status: 401 });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Update' }));
    const ended = await screen.findByRole('alertdialog', { name: 'Your session ended' });
    expect(ended.textContent).toContain('What you were editing is kept');
    expect(await screen.findByText('Your session ended: sign in again, then save. Your changes are kept.')).toBeTruthy();
    // the page under it is as it was
    expect((within(dialog).getByLabelText(/^Admin title/) as HTMLInputElement).value).toBe('Launch week, revised');
  });
});
