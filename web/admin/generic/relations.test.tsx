import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { entity, fakeApi, model, renderAdmin } from '../test-utils.js';
import { relationsOf } from '../labels.js';
import { RelationSections, linkFields, reorder } from './relations.js';
import { DeleteDialog } from './row.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** a product with one category linked, and two more categories to pick from */
function shop() {
  const api = fakeApi({
    'ecommerce/product': [{ adminTitle: 'Lamp', slug: 'lamp' }],
    'ecommerce/category': [{ adminTitle: 'Templates', slug: 'templates' }, { adminTitle: 'Plans', slug: 'plans' }, { adminTitle: 'Gifts', slug: 'gifts' }],
    'ecommerce/store': [{ adminTitle: 'Studio store', slug: 'studio' }],
  });
  const product = api.rows('ecommerce/product')[0]!;
  const [templates, plans, gifts] = api.rows('ecommerce/category');
  api.rows('ecommerce/categories-to-products').push({ id: crypto.randomUUID(), categoryId: templates!.id, productId: product.id, orderIndex: 0, createdAt: '2026-01-01T00:00:00.000Z' });
  api.rows('ecommerce/stores-to-products').push({ id: crypto.randomUUID(), storeId: api.rows('ecommerce/store')[0]!.id, productId: product.id, sku: 'LAMP-01', orderIndex: 0, createdAt: '2026-01-01T00:00:00.000Z' });
  return { api, product, templates: templates!, plans: plans!, gifts: gifts! };
}

describe('relations in a form', () => {
  it('titles each relation by its far entity; empty ones are folded; linked rows show their titles as links, with their own fields', async () => {
    const { product, templates } = shop();
    renderAdmin(<RelationSections entity={entity('ecommerce/product')} row={product} />);
    const categories = await screen.findByRole('region', { name: 'Categories' });
    expect(await within(categories).findByRole('link', { name: 'Templates' })).toHaveProperty('href', expect.stringContaining(`/admin/ecommerce/categories/${templates.id}`));
    const stores = screen.getByRole('region', { name: 'Stores' });
    await within(stores).findByRole('link', { name: 'Studio store' });
    expect(within(stores).getByText('LAMP-01')).toBeTruthy();
    // a nested table: the far entity, then the link's own fields
    expect(within(stores).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Order', 'Store', 'SKU', 'Actions']);
    const orders = screen.getByRole('region', { name: 'Orders' });
    await waitFor(() => expect(within(orders).getByRole('button', { name: /^Orders/ }).getAttribute('aria-expanded')).toBe('false'));
    expect(screen.queryByRole('region', { name: /products to/i })).toBeNull();
    // each section's Add is named after its relation, not just 'Add'
    expect(within(categories).getByRole('button', { name: 'Add Categories' })).toBeTruthy();
    expect(within(stores).getByRole('button', { name: 'Add Stores' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add' })).toBeNull();
  });

  it('adds several categories at once by picking them, ordered after the ones there', async () => {
    const { api, product, plans, gifts } = shop();
    renderAdmin(<RelationSections entity={entity('ecommerce/product')} row={product} />);
    const categories = await screen.findByRole('region', { name: 'Categories' });
    await within(categories).findByRole('link', { name: 'Templates' });
    await userEvent.click(within(categories).getByRole('button', { name: 'Add Categories' }));
    const pick = await screen.findByRole('dialog', { name: 'Add categories' });
    // the picker starts in its search, not on Close
    await waitFor(() => expect(document.activeElement).toBe(within(pick).getByRole('searchbox')));
    // the one already linked cannot be picked again; the list says how many there are
    const already = await within(pick).findByRole('checkbox', { name: /Templates/ });
    expect((already as HTMLInputElement).disabled).toBe(true);
    expect(within(pick).getByText('3 items')).toBeTruthy();
    await userEvent.click(within(pick).getByRole('checkbox', { name: /Plans/ }));
    await userEvent.type(within(pick).getByRole('searchbox'), 'gi');
    await userEvent.click(await within(pick).findByRole('checkbox', { name: /Gifts/ }));
    await userEvent.click(within(pick).getByRole('button', { name: 'Add 2' }));
    await within(categories).findByRole('link', { name: 'Gifts' });
    const bulk = api.calls.find((c) => c.method === 'POST' && c.path === '/api/ecommerce/categories-to-products/bulk')!;
    expect(bulk.data).toEqual([
      { productId: product.id, categoryId: plans.id, orderIndex: 1 },
      { productId: product.id, categoryId: gifts.id, orderIndex: 2 },
    ]);
    expect(within(categories).getAllByRole('link').map((l) => l.textContent)).toEqual(['Templates', 'Plans', 'Gifts']);
  });

  it('creates a far row in place and links it', async () => {
    const { api, product } = shop();
    renderAdmin(<RelationSections entity={entity('ecommerce/product')} row={product} />);
    const categories = await screen.findByRole('region', { name: 'Categories' });
    await userEvent.click(within(categories).getByRole('button', { name: 'Add Categories' }));
    const pick = await screen.findByRole('dialog', { name: 'Add categories' });
    await userEvent.click(within(pick).getByRole('button', { name: 'Create new category' }));
    const create = await screen.findByRole('dialog', { name: 'Add new: Category' });
    await userEvent.type(within(create).getByLabelText(/^Admin title/), 'Lighting');
    await userEvent.click(within(create).getByRole('button', { name: 'Create' }));
    await within(categories).findByRole('link', { name: 'Lighting' });
    const lighting = api.rows('ecommerce/category').find((c) => c.adminTitle === 'Lighting')!;
    expect(api.rows('ecommerce/categories-to-products').some((l) => l.categoryId === lighting.id && l.productId === product.id)).toBe(true);
  });

  it('a link with a required field of its own is added through its form (a store’s sku)', async () => {
    const { product } = shop();
    renderAdmin(<RelationSections entity={entity('ecommerce/product')} row={product} />);
    const stores = await screen.findByRole('region', { name: 'Stores' });
    await userEvent.click(within(stores).getByRole('button', { name: 'Add Stores' }));
    const form = await screen.findByRole('dialog', { name: 'Add: Stores' });
    expect(within(form).getByLabelText(/^SKU/)).toBeTruthy();
    expect(within(form).getByRole('combobox', { name: /^Store/ })).toBeTruthy();
    // the product itself is fixed: not asked for
    expect(within(form).queryByRole('combobox', { name: /^Product/ })).toBeNull();
  });

  it('reorders: only the rows whose place changed get a new orderIndex', () => {
    const rows = [{ id: 'a', orderIndex: 0 }, { id: 'b', orderIndex: 1 }, { id: 'c', orderIndex: 2 }];
    expect(reorder(rows, 2, 0)).toEqual({ order: ['c', 'a', 'b'], changes: [{ id: 'c', orderIndex: 0 }, { id: 'a', orderIndex: 1 }, { id: 'b', orderIndex: 2 }] });
    expect(reorder(rows, 0, 1).changes).toEqual([{ id: 'b', orderIndex: 0 }, { id: 'a', orderIndex: 1 }]);
    // rows added with equal indexes get distinct ones
    expect(reorder([{ id: 'a', orderIndex: 0 }, { id: 'b', orderIndex: 0 }], 1, 0)).toEqual({ order: ['b', 'a'], changes: [{ id: 'a', orderIndex: 1 }] });
  });

  it('a link’s own fields are its non-key fields, the variant when there is a choice', () => {
    const m = model();
    const names = (from: string, rel: string) => linkFields(relationsOf(m, entity(from)).find((r) => r.relation.id === rel)!).map((f) => f.name);
    expect(names('ecommerce/product', 'ecommerce/stores-to-products')).toEqual(['sku']);
    expect(names('ecommerce/product', 'ecommerce/orders-to-products')).toEqual(['quantity', 'prices']);
    expect(names('host/page', 'host/pages-to-layouts')).toEqual(['variant']);
    expect(names('ecommerce/product', 'ecommerce/categories-to-products')).toEqual([]);
  });
});

describe('the delete dialog', () => {
  it('keeps "Delete?" with Cancel and Delete, names the row and counts what goes with it', async () => {
    const { product } = shop();
    const onOpenChange = vi.fn();
    renderAdmin(<DeleteDialog entity={entity('ecommerce/product')} row={product} open onOpenChange={onOpenChange} />);
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete?' });
    expect(within(dialog).getByText('“Lamp”')).toBeTruthy();
    await within(dialog).findByText('2 linked rows go with it.');
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await screen.findByText('Deleted successfully');
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });
});
