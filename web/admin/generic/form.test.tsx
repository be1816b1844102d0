import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { entity, fakeApi, renderAdmin } from '../test-utils.js';
import { GenericForm } from './form.js';
import { FormDialog } from './row.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const posts = (api: ReturnType<typeof fakeApi>, path: string) => api.calls.filter((c) => c.method === 'POST' && c.path === path);
/** the field with this label (a required one's label also says so) */
const field = (label: string) => screen.getByLabelText(new RegExp(`^${label}( \\*)?( \\(required\\))?$`)) as HTMLInputElement;

describe('the generic form', () => {
  it('an empty form makes nothing when a field is required: said beside it, the focus on it, no console error', async () => {
    const api = fakeApi({});
    const logged = vi.spyOn(console, 'error');
    renderAdmin(<GenericForm entity={entity('host/page')} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Create' }));
    const url = field('URL');
    await waitFor(() => expect(url.getAttribute('aria-invalid')).toBe('true'));
    expect(url.closest('[data-field-invalid]')!.textContent).toContain('Required');
    expect(document.activeElement).toBe(url);
    expect(posts(api, '/api/host/pages')).toHaveLength(0);
    // an input the editor can correct is not a failure to log (rjsf said 'Form validation failed' there)
    expect(logged).not.toHaveBeenCalled();
    logged.mockRestore();
  });

  it('the admin title and the slug are generated when left blank: not required, a hint says so, an empty form creates', async () => {
    const api = fakeApi({});
    renderAdmin(<GenericForm entity={entity('ecommerce/product')} />);
    await screen.findByRole('button', { name: 'Create' });
    for (const name of ['Admin title', 'Slug']) {
      expect(screen.getByText(name).closest('label')!.textContent).not.toContain('(required)');
      const help = document.getElementById(field(name).getAttribute('aria-describedby')!)!;
      expect(help.textContent).toBe('Generated when left blank');
    }
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    await screen.findByText('Created successfully');
    const sent = posts(api, '/api/ecommerce/products')[0]!.data as Record<string, unknown>;
    expect(sent.adminTitle).toBeUndefined();
    expect(sent.slug).toBeUndefined();
    // the choices started on their defaults, and what they showed is what was sent
    expect(sent).toMatchObject({ type: 'one_off', variant: 'default' });
  });

  it('an enum that always holds a value (required, or with a default) offers no blank choice; an optional one does', async () => {
    const values = (label: string) => [...(screen.getByLabelText(label) as HTMLSelectElement).options].map((o) => o.value);
    // Add new starts on the manifest's default
    fakeApi({});
    renderAdmin(<GenericForm entity={entity('ecommerce/product')} />);
    await screen.findByRole('button', { name: 'Create' });
    expect((screen.getByLabelText('Type') as HTMLSelectElement).value).toBe('one_off');
    expect(values('Type')).toEqual(['one_off', 'subscription']);
    expect((screen.getByLabelText('Variant') as HTMLSelectElement).value).toBe('default');
    expect(values('Variant')).not.toContain('');
    cleanup();

    // Edit: the order's status has a default, so it is never blank
    const api = fakeApi({ 'ecommerce/order': [{ status: 'paying', type: 'cart' }] });
    const order = api.rows('ecommerce/order')[0]!;
    renderAdmin(<GenericForm entity={entity('ecommerce/order')} row={order} />);
    await screen.findByRole('button', { name: 'Update' });
    expect((screen.getByLabelText('Status') as HTMLSelectElement).value).toBe('paying');
    expect(values('Status')).toEqual(['new', 'paying', 'approving', 'packaging', 'delivering', 'delivered', 'canceled']);
    expect(values('Type')).toEqual(['cart', 'history']);
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'Delivered');
    await userEvent.click(screen.getByRole('button', { name: 'Update' }));
    await screen.findByText('Updated successfully');
    expect(api.calls.find((c) => c.method === 'PATCH')!.data).toMatchObject({ status: 'delivered' });
    cleanup();

    // an optional enum without a default keeps '—', which clears it
    const invoices = fakeApi({ 'billing/invoice': [{ provider: 'stripe' }] });
    renderAdmin(<GenericForm entity={entity('billing/invoice')} row={invoices.rows('billing/invoice')[0]!} />);
    await screen.findByRole('button', { name: 'Update' });
    const provider = document.querySelector<HTMLSelectElement>('select[id$="_provider"]')!;
    expect(provider.value).toBe('stripe');
    expect(provider.options[0]!.value).toBe('');
    await userEvent.selectOptions(provider, '—');
    await userEvent.click(screen.getByRole('button', { name: 'Update' }));
    await screen.findByText('Updated successfully');
    expect(invoices.calls.find((c) => c.method === 'PATCH')!.data).toMatchObject({ provider: null });
    cleanup();

    // a required enum without a default starts on 'Choose…', which cannot be picked back
    fakeApi({});
    renderAdmin(<GenericForm entity={entity('rbac/permission')} />);
    await screen.findByRole('button', { name: 'Create' });
    const method = screen.getByLabelText(/^Method/) as HTMLSelectElement;
    expect(method.value).toBe('');
    expect(method.options[0]!.textContent).toBe('Choose…');
    expect(method.options[0]!.disabled).toBe(true);
  });

  it('the admin title and the slug follow the title as it is typed, until edited; the pattern is said in words', async () => {
    const api = fakeApi({});
    renderAdmin(<GenericForm entity={entity('ecommerce/category')} />);
    await screen.findByRole('button', { name: 'Create' });
    const title = document.querySelector<HTMLInputElement>('input[lang="en"]')!;
    await userEvent.type(title, 'Ready templates');
    expect(field('Admin title').value).toBe('Ready templates');
    expect(field('Slug').value).toBe('ready-templates');
    await userEvent.clear(field('Slug'));
    await userEvent.type(field('Slug'), 'Not A Slug');
    await userEvent.type(title, ' 2');
    expect(field('Slug').value).toBe('Not A Slug');
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    await screen.findByText('Use only lowercase letters, digits and hyphens');
    expect(screen.queryByText(/must match/)).toBeNull();
    await userEvent.clear(field('Slug'));
    await userEvent.type(field('Slug'), 'ready');
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    await screen.findByText('Created successfully');
    expect(posts(api, '/api/ecommerce/categories')[0]!.data).toMatchObject({ adminTitle: 'Ready templates 2', slug: 'ready', title: { en: 'Ready templates 2' } });
  });

  it('text defaults are placeholders, not values; a path gets its leading slash; the language is a select of the site’s', async () => {
    const api = fakeApi({});
    renderAdmin(<GenericForm entity={entity('host/page')} />);
    await screen.findByRole('button', { name: 'Create' });
    expect(field('Title').value).toBe('');
    expect(field('Title').placeholder).toBe('Page');
    expect(field('Description').placeholder).toBe('Description');
    expect(field('URL').value).toBe('');
    expect(screen.getByText('URL').closest('label')!.textContent).toContain('(required)');
    const language = screen.getByLabelText('Language') as HTMLSelectElement;
    expect(language.tagName).toBe('SELECT');
    expect([...language.options].map((o) => o.value).filter(Boolean)).toEqual(['en', 'ru']);
    expect(language.value).toBe('en');
    await userEvent.type(field('Admin title'), 'Blog');
    await userEvent.type(field('URL'), 'blog');
    // added as typed: a form sent with Enter from the field sends it too
    expect(field('URL').value).toBe('/blog');
    await userEvent.tab();
    expect(field('URL').value).toBe('/blog');
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    await screen.findByText('Created successfully');
    const sent = posts(api, '/api/host/pages')[0]!.data as Record<string, unknown>;
    expect(sent).toMatchObject({ adminTitle: 'Blog', url: '/blog', language: 'en' });
    expect(sent.title).toBeUndefined();
    expect(sent.description).toBeUndefined();
  });

  it('a date-time that cannot be read is refused beside the field, and nothing is saved', async () => {
    const api = fakeApi({});
    renderAdmin(<GenericForm entity={entity('agent/agent')} />);
    await userEvent.type(await screen.findByLabelText('Admin title', { exact: false }), 'Nightly');
    await userEvent.type(field('Interval'), '0 3 * * *');
    const when = screen.getByLabelText('Last run at') as HTMLInputElement;
    await userEvent.type(when, '32.13.2026 25:99');
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    await screen.findByText('Use DD.MM.YYYY HH:mm');
    expect(when.getAttribute('aria-invalid')).toBe('true');
    expect(posts(api, '/api/agent/agents')).toHaveLength(0);
    await userEvent.clear(when);
    await userEvent.type(when, '05.03.2026 09:05');
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    await screen.findByText('Created successfully');
    expect(posts(api, '/api/agent/agents')[0]!.data).toMatchObject({ lastRunAt: new Date(2026, 2, 5, 9, 5).toISOString() });
  });

  it('a server error on a field is said once, beside it; a server fault offers Retry and goes away once saved', async () => {
    const api = fakeApi({ 'ecommerce/product': [{ adminTitle: 'Taken', slug: 'taken' }] });
    renderAdmin(<GenericForm entity={entity('ecommerce/product')} />);
    await userEvent.type(await screen.findByLabelText('Admin title', { exact: false }), 'Lamp');
    await userEvent.clear(field('Slug'));
    await userEvent.type(field('Slug'), 'taken');
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    const beside = await screen.findByText('Slug is already taken');
    expect(beside.closest('[data-field-invalid]')).toBe(field('Slug').closest('[data-field-invalid]'));
    expect([...document.querySelectorAll('[data-sonner-toast]')].map((t) => t.textContent).join()).not.toContain('already taken');
    expect(screen.getByRole('button', { name: 'Create' }).getAttribute('data-status')).toBe('error');
    expect(document.activeElement).toBe(field('Slug'));
    // the server's word was about 'taken': once the value changes it goes
    await userEvent.type(field('Slug'), '-2');
    expect(screen.queryByText('Slug is already taken')).toBeNull();

    await userEvent.clear(field('Slug'));
    await userEvent.type(field('Slug'), 'lamp');
    api.fail('POST /api/ecommerce/products', 500, { message: 'Internal Server Error', status: 500 });
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    const toast = await screen.findByText('The change could not be saved: the server had a problem. Try again.');
    expect(screen.queryByText(/500 \| Internal Server Error/)).toBeNull();
    await userEvent.click(within(toast.closest('[data-sonner-toast]') as HTMLElement).getByRole('button', { name: 'Retry' }));
    await screen.findByText('Created successfully');
    await waitFor(() => expect(screen.queryByText('The change could not be saved: the server had a problem. Try again.')).toBeNull());
  });

  it('a key/value document has its label and is edited as pairs', async () => {
    const api = fakeApi({});
    renderAdmin(<GenericForm entity={entity('crm/request')} />);
    expect(await screen.findByText('Payload')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Add entry' }));
    await userEvent.type(screen.getByLabelText('Key 1'), 'name');
    await userEvent.type(screen.getByLabelText('Value of name'), 'Ann');
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    await screen.findByText('Created successfully');
    expect(posts(api, '/api/crm/requests')[0]!.data).toMatchObject({ payload: { name: 'Ann' } });
  });

  it('an upload fills the title from the file’s name and the size, extension and type from the answer', async () => {
    const api = fakeApi({});
    renderAdmin(<GenericForm entity={entity('file-storage/file')} />);
    await screen.findByRole('button', { name: 'Create' });
    const bytes = new Uint8Array(1234);
    await userEvent.upload(screen.getByLabelText('Upload a file'), new File([bytes], 'team_photo-2026.png', { type: 'image/png' }));
    await waitFor(() => expect(api.calls.map((c) => c.path)).toContain('/api/file-storage/files/upload'));
    await waitFor(() => expect(field('Admin title').value).toBe('team photo 2026'));
    expect(field('Size').value).toBe('1234');
    expect(field('Extension').value).toBe('png');
    expect(field('MIME type').value).toBe('image/png');
    expect(field('Slug').value).toBe('team-photo-2026');
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    await screen.findByText('Created successfully');
    expect(posts(api, '/api/file-storage/files')[0]!.data).toMatchObject({ adminTitle: 'team photo 2026', size: 1234, extension: 'png', mimeType: 'image/png', file: expect.stringMatching(/^\/files\/.+\.png$/) });
  });

  it('a link to another module’s widget: the module first, then the widget by its title', async () => {
    const api = fakeApi({ 'host/widget': [{ adminTitle: 'Home hero', slug: 'home-hero' }], 'website-builder/widget': [{ adminTitle: 'Footer', slug: 'footer' }], 'blog/widget': [{ adminTitle: 'Latest articles', slug: 'latest' }] });
    const host = api.rows('host/widget')[0]!;
    renderAdmin(<GenericForm entity={entity('host/widgets-to-external-widgets')} prefill={{ widgetId: host.id }} />);
    const module = (await screen.findByLabelText('External module')) as HTMLSelectElement;
    expect(module.value).toBe('website-builder');
    const picker = screen.getByRole('combobox', { name: /External widget/ });
    await userEvent.click(picker);
    expect(await screen.findByRole('option', { name: /Footer/ })).toBeTruthy();
    await userEvent.keyboard('{Escape}');
    await userEvent.selectOptions(module, 'Blog');
    await userEvent.click(screen.getByRole('combobox', { name: /External widget/ }));
    await userEvent.click(await screen.findByRole('option', { name: /Latest articles/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    await screen.findByText('Created successfully');
    expect(posts(api, '/api/host/widgets-to-external-widgets')[0]!.data).toMatchObject({ widgetId: host.id, externalModule: 'blog', externalWidgetId: api.rows('blog/widget')[0]!.id });
  });
});

function Opener({ onClose }: { onClose?: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>Open agent</button>
      {open && <FormDialog entity={entity('agent/agent')} open onClose={() => { setOpen(false); onClose?.(); }} />}
    </>
  );
}

describe('the form dialog', () => {
  it('Escape with unsaved changes asks first; Keep editing keeps them, Discard closes; focus returns to the opener', async () => {
    fakeApi({});
    const onClose = vi.fn();
    renderAdmin(<Opener onClose={onClose} />);
    const opener = await screen.findByRole('button', { name: 'Open agent' });
    await userEvent.click(opener);
    await userEvent.type(await screen.findByLabelText('Admin title', { exact: false }), 'Nightly');
    await userEvent.keyboard('{Escape}');
    const ask = await screen.findByRole('alertdialog', { name: 'Discard unsaved changes?' });
    await userEvent.click(within(ask).getByRole('button', { name: 'Keep editing' }));
    expect(field('Admin title').value).toBe('Nightly');
    expect(onClose).not.toHaveBeenCalled();
    await userEvent.keyboard('{Escape}');
    await userEvent.click(within(await screen.findByRole('alertdialog', { name: 'Discard unsaved changes?' })).getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(document.activeElement).toBe(opener));
  });

  it('Escape in the calendar closes only the calendar', async () => {
    fakeApi({});
    renderAdmin(<Opener />);
    await userEvent.click(await screen.findByRole('button', { name: 'Open agent' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Choose date and time' }));
    expect(screen.getByRole('dialog', { name: 'Choose date and time' })).toBeTruthy();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Choose date and time' })).toBeNull());
    expect(screen.getByRole('dialog', { name: /Add new: Agent/ })).toBeTruthy();
    // and a second Escape closes the form (nothing typed: no question)
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: /Add new: Agent/ })).toBeNull());
  });
});

describe('an open form and changes made elsewhere', () => {
  const article = () => fakeApi({ 'blog/article': [{ adminTitle: 'First title', slug: 'first', description: { en: 'First description' } }] });

  it('an update sends only the fields the editor changed, so another editor\'s change to another field stays', async () => {
    const api = article();
    const row = api.rows('blog/article')[0]!;
    renderAdmin(<GenericForm entity={entity('blog/article')} row={row} />);
    await screen.findByRole('button', { name: 'Update' });
    const title = field('Admin title');
    await userEvent.clear(title);
    await userEvent.type(title, 'Second title');
    await userEvent.click(screen.getByRole('button', { name: 'Update' }));
    await screen.findByText('Updated successfully');
    expect(api.calls.find((c) => c.method === 'PATCH')!.data).toEqual({ adminTitle: 'Second title' });
  });

  it('the row changed elsewhere: a clean form shows it; a form with changes keeps them, says so, and saves only them', async () => {
    const api = article();
    const row = api.rows('blog/article')[0]!;
    const later = (patch: Record<string, unknown>, at: string) => ({ ...row, ...patch, updatedAt: at });
    const view = renderAdmin(<GenericForm entity={entity('blog/article')} row={row} />);
    await screen.findByRole('button', { name: 'Update' });
    // clean: the form follows the row
    view.rerender(<GenericForm entity={entity('blog/article')} row={later({ adminTitle: 'Changed by Ann' }, '2026-03-01T11:00:00.000Z')} />);
    await waitFor(() => expect(field('Admin title').value).toBe('Changed by Ann'));
    expect(document.querySelector('[data-changed-elsewhere]')).toBeNull();
    // with changes of its own: kept, and said
    await userEvent.clear(field('Slug'));
    await userEvent.type(field('Slug'), 'mine');
    view.rerender(<GenericForm entity={entity('blog/article')} row={later({ adminTitle: 'Changed by Bob' }, '2026-03-01T12:00:00.000Z')} />);
    await waitFor(() => expect(document.querySelector('[data-changed-elsewhere]')?.textContent).toContain('Someone else changed this article since you opened it'));
    expect(field('Slug').value).toBe('mine');
    await userEvent.click(screen.getByRole('button', { name: 'Update' }));
    await screen.findByText('Updated successfully');
    expect(api.calls.filter((c) => c.method === 'PATCH').at(-1)!.data).toEqual({ slug: 'mine' });
  });

  it('leaving the page with unsaved changes asks the browser to confirm; without changes it does not', async () => {
    article();
    const leave = () => {
      const e = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(e);
      return e.defaultPrevented;
    };
    renderAdmin(<GenericForm entity={entity('blog/article')} />);
    await screen.findByRole('button', { name: 'Create' });
    expect(leave()).toBe(false);
    await userEvent.type(field('Admin title'), 'Draft');
    expect(leave()).toBe(true);
    cleanup();
    expect(leave()).toBe(false);
  });
});

describe('a refusal about a field the form does not show beside it', () => {
  it('is said in a toast naming the field by its label, not its raw name', async () => {
    const api = fakeApi({ 'ecommerce/product': [{ adminTitle: 'Lamp', slug: 'lamp' }], 'ecommerce/attribute': [{ adminTitle: 'Price', slug: 'price' }] });
    const product = api.rows('ecommerce/product')[0]!;
    const attribute = api.rows('ecommerce/attribute')[0]!;
    api.fail('POST /api/ecommerce/products-to-attributes', 400, {
      message: 'Validation failed: productId names no ecommerce/product', status: 400,
      cause: [{ field: 'productId', rule: 'reference', message: 'productId names no ecommerce/product' }],
    });
    // the product and the attribute are where the form is (a nested table's keys): kept, not shown
    renderAdmin(<GenericForm entity={entity('ecommerce/products-to-attributes')} prefill={{ productId: product.id, attributeId: attribute.id }} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Product names no ecommerce/product')).toBeTruthy();
  });
});
