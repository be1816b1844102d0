import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { entity, fakeApi, model, renderAdmin } from '../test-utils.js';
import { GenericTable } from './table.js';
import { DEFAULT_STATE, listFilters, stateFromQuery, stateToQuery } from './table-state.js';
import { searchColumns, tableColumns } from './columns.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const listCalls = (api: ReturnType<typeof fakeApi>, path: string) => api.calls.filter((c) => c.method === 'GET' && c.path === path);

describe('the generic table', () => {
  it('says names in words: headers, enum values; the total; actions in a column that stays in view', async () => {
    fakeApi({ 'ecommerce/product': [{ adminTitle: 'Lamp', slug: 'lamp', type: 'one_off', title: { en: 'Lamp' } }, { adminTitle: 'Plan', slug: 'plan', type: 'subscription' }] });
    renderAdmin(<GenericTable entity={entity('ecommerce/product')} />);
    const table = await screen.findByRole('table');
    await within(table).findAllByText('Lamp');
    const headers = within(table).getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(expect.arrayContaining(['Admin title', 'Slug', 'Type', 'Created at']));
    expect(headers.join()).not.toMatch(/adminTitle|createdAt/);
    expect(within(table).getByText('One off')).toBeTruthy();
    expect(within(table).getByText('Subscription')).toBeTruthy();
    expect(screen.getByText('2 items')).toBeTruthy();
    const actions = within(table).getByRole('button', { name: 'Edit Lamp' }).closest('td')!;
    expect(actions.className).toContain('sticky');
    // each row's actions are named after the row
    expect(within(table).getByRole('button', { name: 'Delete Lamp' })).toBeTruthy();
    expect(within(table).getByRole('button', { name: 'Edit Plan' })).toBeTruthy();
    expect(within(table).queryByRole('button', { name: 'Edit' })).toBeNull();
  });

  it('shows referenced rows by their title, linking to them, fetched in one request per entity', async () => {
    const api = fakeApi({ 'ecommerce/category': [{ adminTitle: 'Templates', slug: 'templates' }], 'ecommerce/product': [{ adminTitle: 'Lamp', slug: 'lamp' }, { adminTitle: 'Desk', slug: 'desk' }] });
    const [category] = api.rows('ecommerce/category');
    const [lamp, desk] = api.rows('ecommerce/product');
    api.rows('ecommerce/categories-to-products').push(
      { id: crypto.randomUUID(), categoryId: category!.id, productId: lamp!.id, orderIndex: 0, createdAt: '2026-01-01T00:00:00.000Z' },
      { id: crypto.randomUUID(), categoryId: category!.id, productId: desk!.id, orderIndex: 0, createdAt: '2026-01-01T00:00:01.000Z' },
    );
    renderAdmin(<GenericTable entity={entity('ecommerce/categories-to-products')} />);
    const table = await screen.findByRole('table');
    const links = await within(table).findAllByRole('link', { name: 'Templates' });
    expect(links).toHaveLength(2);
    expect(links[0]!.getAttribute('href')).toBe(`/admin/ecommerce/categories/${category!.id}`);
    expect(await within(table).findByRole('link', { name: 'Lamp' })).toBeTruthy();
    // one request for both categories' titles, by id
    const byIds = listCalls(api, '/api/ecommerce/categories').filter((c) => (c.query.filters as { and?: { method: string }[] })?.and?.[0]?.method === 'inArray');
    expect(byIds).toHaveLength(1);
  });

  it('searches every text field and every language of the titles, and the ids', async () => {
    const api = fakeApi({ 'host/page': [{ adminTitle: 'Blog', url: '/blog', title: 'Blog' }, { adminTitle: 'Home', url: '/', title: 'Home' }] });
    renderAdmin(<GenericTable entity={entity('host/page')} />);
    await screen.findByText('2 items');
    await userEvent.type(screen.getByRole('searchbox'), '/blog');
    await screen.findByText('1 item');
    const last = listCalls(api, '/api/host/pages').at(-1)!;
    const or = (last.query.filters as { or: { column: string; method: string; value: string }[] }).or;
    expect(or.map((f) => f.column)).toEqual(expect.arrayContaining(['id', 'adminTitle', 'url', 'title', 'description']));
    expect(or.every((f) => f.method === 'ilike' && f.value === '/blog')).toBe(true);
    // localized fields in every language, rich text left out
    expect(searchColumns(entity('ecommerce/product'), model().languages)).toEqual(expect.arrayContaining(['title.en', 'title.ru', 'shortDescription.ru']));
    expect(searchColumns(entity('ecommerce/product'), model().languages)).not.toContain('description.en');
  });

  it('filters by enum, boolean, date and reference', async () => {
    const api = fakeApi({ 'ecommerce/product': [{ adminTitle: 'Lamp', slug: 'lamp', type: 'one_off' }, { adminTitle: 'Plan', slug: 'plan', type: 'subscription' }] });
    renderAdmin(<GenericTable entity={entity('ecommerce/product')} />);
    await screen.findByText('2 items');
    await userEvent.click(screen.getByRole('button', { name: 'Filters' }));
    const filters = screen.getByRole('group', { name: 'Filters' });
    await userEvent.selectOptions(within(filters).getByLabelText('Type'), 'Subscription');
    await screen.findByText('1 item');
    expect(screen.getByRole('button', { name: 'Filters (1)' })).toBeTruthy();
    const and = (listCalls(api, '/api/ecommerce/products').at(-1)!.query.filters as { and: unknown[] }).and;
    expect(and).toEqual([{ column: 'type', method: 'eq', value: 'subscription' }]);
    expect(within(filters).getByLabelText('Created at from')).toBeTruthy();
    // layout (checked in Chromium at 1280 and 1440 px): columns as many as fit, a date range that may shrink
    // (a fieldset is min-content wide by default) and whose two dates wrap rather than run into the next filter
    expect(filters.className).toContain('auto-fill');
    const range = within(filters).getByLabelText('Created at from').closest('fieldset')!;
    expect(range.className).toContain('min-w-0');
    expect(within(filters).getByLabelText('Created at from').parentElement!.className).toContain('flex-wrap');
    // the filters of other kinds, from the model
    const order = entity('ecommerce/order');
    const f = listFilters(order, { ...DEFAULT_STATE, filters: { status: 'new', 'createdAt.from': '2026-03-01', 'createdAt.to': '2026-03-02' } }, ['en']);
    expect(f!.and).toEqual([
      { column: 'status', method: 'eq', value: 'new' },
      { column: 'createdAt', method: 'gte', value: new Date(2026, 2, 1).toISOString() },
      { column: 'createdAt', method: 'lt', value: new Date(2026, 2, 3).toISOString() },
    ]);
    // a day in the years 1 to 99 is that year, not 19xx (the Date constructor's reading of two-digit years)
    const early = listFilters(order, { ...DEFAULT_STATE, filters: { 'createdAt.from': '0050-06-15', 'createdAt.to': '0050-06-15' } }, ['en'])!.and!;
    const local = (y: number, m: number, d: number) => { const at = new Date(2000, 0, 1); at.setFullYear(y, m, d); return at.toISOString(); };
    expect(early.map((c) => (c as { value: string }).value)).toEqual([local(50, 5, 15), local(50, 5, 16)]);
    expect((early[0] as { value: string }).value).toMatch(/^0050-06-1[45]T/);
    const currency = entity('billing/currency');
    expect(listFilters(currency, { ...DEFAULT_STATE, filters: { isDefault: 'true' } }, ['en'])!.and).toEqual([{ column: 'isDefault', method: 'eq', value: true }]);
  });

  it('empty: says the spec’s "No found items" with a way forward; loading never says "0 items"', async () => {
    fakeApi({});
    renderAdmin(<GenericTable entity={entity('ecommerce/store')} />);
    await screen.findByRole('table');
    expect(screen.queryByText('0 items')).toBeNull();
    expect(screen.getByText('Loading…')).toBeTruthy();
    await screen.findByText('No found items');
    expect(screen.getByText('0 items')).toBeTruthy();
    expect(screen.getAllByRole('button', { name: 'Add new' })).toHaveLength(2);
    await userEvent.type(screen.getByRole('searchbox'), 'zzz');
    await screen.findByText('Nothing matches "zzz"');
    await userEvent.click(screen.getByRole('button', { name: 'Clear search and filters' }));
    await waitFor(() => expect((screen.getByRole('searchbox') as HTMLInputElement).value).toBe(''));
  });

  it('a failed load shows the error with Retry, and the footer no longer says "Loading…"', async () => {
    const api = fakeApi({ 'ecommerce/store': [{ adminTitle: 'Studio store', slug: 'studio' }] });
    api.fail('GET /api/ecommerce/stores', 500, { message: 'Internal Server Error', status: 500 });
    renderAdmin(<GenericTable entity={entity('ecommerce/store')} />);
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('button', { name: 'Retry' })).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Loading…')).toBeNull());
    expect(screen.getByText('Not loaded')).toBeTruthy();
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    await screen.findByText('1 item');
  });

  it('keeps long text to two lines with the whole of it on hover; key/value documents and files say what they hold', async () => {
    const long = 'A very long subtitle that would otherwise wrap onto many lines of a narrow column in the table';
    fakeApi({
      'crm/request': [{ payload: { name: 'Ann', email: 'ann@example.com', message: 'Hello' }, sourceUrl: '/contact' }],
      'ecommerce/category': [{ adminTitle: 'Templates', slug: 'templates', subtitle: { en: long } }],
      'file-storage/file': [{ adminTitle: 'Logo', slug: 'logo', file: '/files/0b6f0a8e-53b0-4c45-9c9d-0c6b8f1f0a11.png', width: 64, height: 32, size: 2048, extension: 'png', mimeType: 'image/png' }],
    });
    const { unmount } = renderAdmin(<GenericTable entity={entity('crm/request')} />);
    const requests = await screen.findByRole('table');
    expect(await within(requests).findByText('name: Ann · email: ann@example.com · message: Hello')).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: 'Payload' })).toBeTruthy();
    unmount();
    const second = renderAdmin(<GenericTable entity={entity('ecommerce/category')} />);
    const cell = await within(await screen.findByRole('table')).findByText(long);
    expect(cell.className).toContain('line-clamp-2');
    expect(cell.getAttribute('title')).toBe(long);
    second.unmount();
    renderAdmin(<GenericTable entity={entity('file-storage/file')} />);
    const table = await screen.findByRole('table');
    await within(table).findByText('Logo');
    expect(table.querySelector('img')?.getAttribute('src')).toBe('/files/0b6f0a8e-53b0-4c45-9c9d-0c6b8f1f0a11.png');
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(expect.arrayContaining(['File', 'Width', 'Height', 'Size']));
  });

  it('shows a subject’s identities (rows it owns through a relation) by email', async () => {
    const api = fakeApi({ 'rbac/subject': [{ adminTitle: 'quiet blue fox', slug: 'quiet-blue-fox' }], 'rbac/identity': [{ provider: 'email_and_password', email: 'ann@example.com' }] });
    api.rows('rbac/subjects-to-identities').push({ id: crypto.randomUUID(), subjectId: api.rows('rbac/subject')[0]!.id, identityId: api.rows('rbac/identity')[0]!.id, orderIndex: 0 });
    renderAdmin(<GenericTable entity={entity('rbac/subject')} />);
    expect(await within(await screen.findByRole('table')).findByRole('link', { name: 'ann@example.com' })).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: 'Identities' })).toBeTruthy();
  });
});

describe('the list state in the address', () => {
  it('round-trips search, filters, sort, page and size', () => {
    const state = { q: 'lamp', page: 2, size: 50, sort: [{ id: 'adminTitle', desc: true }], filters: { type: 'one_off', 'createdAt.from': '2026-01-01' } };
    const query = stateToQuery(state);
    expect(query).toBe('q=lamp&f.type=one_off&f.createdAt.from=2026-01-01&sort=-adminTitle&page=3&size=50');
    expect(stateFromQuery(new URLSearchParams(query))).toEqual(state);
    expect(stateFromQuery(new URLSearchParams('page=x&size=7'))).toEqual(DEFAULT_STATE);
  });

  it('chooses columns from the model: a relation’s references first, no styling, no rich text', () => {
    expect(tableColumns(entity('ecommerce/categories-to-products')).map((f) => f.name).slice(0, 2)).toEqual(['categoryId', 'productId']);
    const file = tableColumns(entity('file-storage/file')).map((f) => f.name);
    expect(file).not.toContain('containerClassName');
    expect(file).toContain('file');
    expect(tableColumns(entity('blog/article')).map((f) => f.name)).not.toContain('description');
  });
});
