import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { renderToString } from 'react-dom/server';
import { LeadBlock, PageProvider, Variant, type Expanded, type PageContext } from '../../../web/storefront/context.js';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { registerCrmWeb } from './index.js';
import { loadChunks } from '../../../web/registry.js';

const toast = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn() }));
vi.mock('sonner', () => ({ toast }));

afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
  toast.success.mockReset();
  toast.error.mockReset();
});
beforeAll(async () => {
  registerCrmWeb();
  await loadChunks();
});

const FORM_ID = '9c000000-0000-4000-8000-000000000101';
let n = 0;
const input = (fields: Record<string, unknown>): Expanded => ({ id: `i${++n}`, variant: 'default', slug: `input-${n}`, type: 'default', isRequired: false, ...fields });
const option = (value: string, en: string) => ({ id: `o-${value}`, variant: 'default', option: { id: `opt-${value}`, variant: 'default', value, title: { en, ru: en.toUpperCase() } } });

const contactInputs = [
  input({ type: 'text', variant: 'text-default', name: 'name', isRequired: true, label: { en: 'Your name', ru: 'Ваше имя' }, placeholder: { en: 'Jane Doe', ru: 'Анна' } }),
  input({ type: 'email', variant: 'text-default', name: 'email', isRequired: true, label: { en: 'Email', ru: 'Почта' } }),
  input({ type: 'textarea', variant: 'textarea-default', name: 'message', title: { en: 'Message', ru: 'Сообщение' } }),
];
const form = (inputs: Expanded[] = contactInputs): Expanded => ({
  id: FORM_ID, variant: 'default', title: { en: 'Contact us', ru: 'Свяжитесь с нами' }, subtitle: { en: 'We answer fast' },
  description: { en: JSON.stringify({ type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'No spam, ever.' }] }] }) },
  formsToInputs: inputs.map((i, k) => ({ id: `fi${k}`, variant: 'default', input: i })),
});
const widget = (variant: string, inputs?: Expanded[]): Expanded => ({
  id: 'w1', variant, title: { en: 'Have a project in mind?', ru: 'Есть идея?' }, widgetsToForms: [{ id: 'wf', variant: 'default', form: form(inputs) }],
});
const page = (language = 'en'): PageContext => ({ language, languages: ['en', 'ru'], defaultLanguage: 'en', url: '/', params: {} });
const show = (row: Expanded, p = page()) =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <PageProvider value={p}><Variant module="crm" entity="widget" row={row} /></PageProvider>
    </QueryClientProvider>,
  );

describe('crm form list', () => {
  it('draws the widget text, the form text and the inputs by their type, with labels and required flags', () => {
    show(widget('form-list-default'));
    expect(screen.getByRole('heading', { level: 2, name: 'Have a project in mind?' })).toBeTruthy();
    const f = screen.getByRole('form', { name: 'Contact us' });
    expect(within(f).getByText('We answer fast')).toBeTruthy();
    expect(within(f).getByText('No spam, ever.')).toBeTruthy();
    const name = screen.getByLabelText(/Your name/) as HTMLInputElement;
    expect([name.type, name.name, name.required, name.placeholder]).toEqual(['text', 'name', true, 'Jane Doe']);
    const email = screen.getByLabelText(/Email/) as HTMLInputElement;
    expect([email.type, email.required]).toEqual(['email', true]);
    const message = screen.getByLabelText('Message') as HTMLTextAreaElement;
    expect([message.tagName, message.required]).toEqual(['TEXTAREA', false]);
    expect(screen.getByRole('button', { name: 'Submit' })).toBeTruthy();
  });

  it("leading the page's content, its title is the page's h1 (a page that starts with a form has one)", () => {
    for (const variant of ['form-list-default', 'form-list-wide']) {
      const { unmount } = render(
        <QueryClientProvider client={new QueryClient()}>
          <PageProvider value={page()}>
            <LeadBlock id="w1"><Variant module="crm" entity="widget" row={widget(variant)} /></LeadBlock>
          </PageProvider>
        </QueryClientProvider>,
      );
      expect(screen.getByRole('heading', { level: 1, name: 'Have a project in mind?' }), variant).toBeTruthy();
      unmount();
    }
  });

  it('speaks the page language', () => {
    show(widget('form-list-wide'), page('ru'));
    expect(screen.getByRole('heading', { level: 2, name: 'Есть идея?' })).toBeTruthy();
    expect(screen.getByRole('form', { name: 'Свяжитесь с нами' })).toBeTruthy();
    expect((screen.getByLabelText(/Ваше имя/) as HTMLInputElement).placeholder).toBe('Анна');
    expect(screen.getByLabelText('Сообщение')).toBeTruthy();
  });

  it('the wide variant puts the text and the forms in two columns on large screens', () => {
    const { container } = show(widget('form-list-wide'));
    expect(container.querySelector('.lg\\:grid-cols-2')).toBeTruthy();
  });

  it('number, select, radio, checkbox and unknown types', () => {
    show(widget('form-list-default', [
      input({ type: 'number', variant: 'number-default', name: 'pages', label: { en: 'Pages' } }),
      input({ type: 'select', name: 'plan', label: { en: 'Plan' }, placeholder: { en: 'Choose a plan' }, inputsToOptions: [option('landing', 'Landing'), option('shop', 'Shop')] }),
      input({ type: 'radio', name: 'when', label: { en: 'When' }, inputsToOptions: [option('now', 'Now'), option('later', 'Later')] }),
      input({ type: 'checkbox', name: 'extras', label: { en: 'Extras' }, inputsToOptions: [option('seo', 'SEO'), option('hosting', 'Hosting')] }),
      input({ type: 'checkbox', name: 'consent', label: { en: 'I agree' }, isRequired: true }),
      input({ type: 'date', name: 'deadline', label: { en: 'Deadline' } }),
      input({ type: 'weird', name: 'x' }),
    ]));
    expect((screen.getByLabelText('Pages') as HTMLInputElement).type).toBe('number');
    const plan = screen.getByLabelText('Plan') as HTMLSelectElement;
    expect([...plan.options].map((o) => [o.value, o.text])).toEqual([['', 'Choose a plan'], ['landing', 'Landing'], ['shop', 'Shop']]);
    const when = screen.getByRole('group', { name: 'When' });
    expect(within(when).getAllByRole('radio').map((r) => (r as HTMLInputElement).value)).toEqual(['now', 'later']);
    expect(within(screen.getByRole('group', { name: 'Extras' })).getAllByRole('checkbox')).toHaveLength(2);
    expect((screen.getByRole('checkbox', { name: /I agree/ }) as HTMLInputElement).required).toBe(true);
    expect((screen.getByLabelText('Deadline') as HTMLInputElement).type).toBe('date');
    expect(screen.getByText('Unknown input type')).toBeTruthy();
  });

  it('server markup posts to the requests address, so a form sent before hydration still arrives', () => {
    const html = renderToString(
      <QueryClientProvider client={new QueryClient()}>
        <PageProvider value={page()}><Variant module="crm" entity="widget" row={widget('form-list-default')} /></PageProvider>
      </QueryClientProvider>,
    );
    expect(html).toContain(`action="/api/crm/forms/${FORM_ID}/requests"`);
    expect(html).toContain('method="post"');
  });
});

describe('crm form submission', () => {
  const answer = (status: number, body: unknown) => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const fetch = vi.fn(async (..._args: unknown[]) => {
      await gate;
      return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    });
    vi.stubGlobal('fetch', fetch);
    return { fetch, release };
  };

  it('posts {data: fields} with credentials, shows Sending... meanwhile, then a toast and an empty form', async () => {
    const user = userEvent.setup();
    const { fetch, release } = answer(201, { data: { id: 'r1' } });
    show(widget('form-list-default'));
    await user.type(screen.getByLabelText(/Your name/), 'Ada');
    await user.type(screen.getByLabelText(/Email/), 'ada@example.com');
    await user.type(screen.getByLabelText('Message'), 'Need a shop');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    const pending = await screen.findByRole('button', { name: 'Sending...' });
    expect((pending as HTMLButtonElement).disabled).toBe(true);
    const [url, init] = fetch.mock.calls[0] as [string, RequestInit];
    expect(url).toBe(`/api/crm/forms/${FORM_ID}/requests`);
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('include');
    expect(JSON.parse(String(init.body))).toEqual({ data: { name: 'Ada', email: 'ada@example.com', message: 'Need a shop' } });
    release();
    await screen.findByRole('button', { name: 'Submit' });
    expect(toast.success).toHaveBeenCalledWith('Form submitted successfully');
    expect((screen.getByLabelText(/Your name/) as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText('Message') as HTMLTextAreaElement).value).toBe('');
  });

  it('an error answer becomes an error toast with the message, and the values stay', async () => {
    const user = userEvent.setup();
    const { release } = answer(400, { message: 'email is required', status: 400, cause: [{ field: 'email', message: 'email is required' }] });
    release();
    show(widget('form-list-default', [contactInputs[0]]));
    await user.type(screen.getByLabelText(/Your name/), 'Ada');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalled(), { timeout: 15_000 });
    expect(toast.error.mock.calls[0][0]).toContain('email is required');
    expect(toast.success).not.toHaveBeenCalled();
    expect((screen.getByLabelText(/Your name/) as HTMLInputElement).value).toBe('Ada');
  });

  it('a signed-in subject sends the fields with the formId to its own request route, and is told so', async () => {
    const user = userEvent.setup();
    const subjectId = '11111111-1111-4111-8111-111111111111';
    localStorage.setItem('rbac.subject.refresh', 'a-refresh-token');
    const fetch = vi.fn(async (url: string) => {
      const body = url.endsWith('/authentication/me') ? { data: { id: subjectId, slug: 'ada', identities: [], roles: [], isAdmin: false } } : { data: { id: 'r3' } };
      return new Response(JSON.stringify(body), { status: url.endsWith('/me') ? 200 : 201, headers: { 'content-type': 'application/json' } });
    });
    vi.stubGlobal('fetch', fetch);
    show(widget('form-list-default'));
    await screen.findByText('You are signed in: your request is linked to your account.');
    await user.type(screen.getByLabelText(/Your name/), 'Ada');
    await user.type(screen.getByLabelText(/Email/), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await vi.waitFor(() => expect(toast.success).toHaveBeenCalledWith('Form submitted successfully'), { timeout: 15_000 });
    const posts = fetch.mock.calls.filter((c) => (c as unknown as [string, RequestInit])[1]?.method === 'POST') as unknown as [string, RequestInit][];
    expect(posts.map(([url]) => url)).toEqual([`/api/rbac/subjects/${subjectId}/crm-module/form/request`]);
    expect(JSON.parse(String(posts[0][1].body))).toEqual({ data: { name: 'Ada', email: 'ada@example.com', message: '', formId: FORM_ID } });
  });

  it('a checkbox group sends its checked values as a list', async () => {
    const user = userEvent.setup();
    const { fetch, release } = answer(201, { data: { id: 'r2' } });
    release();
    show(widget('form-list-default', [input({ type: 'checkbox', name: 'extras', label: { en: 'Extras' }, inputsToOptions: [option('seo', 'SEO'), option('hosting', 'Hosting'), option('logo', 'Logo')] })]));
    await user.click(screen.getByRole('checkbox', { name: 'SEO' }));
    await user.click(screen.getByRole('checkbox', { name: 'Logo' }));
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await vi.waitFor(() => expect(toast.success).toHaveBeenCalled(), { timeout: 15_000 });
    expect(JSON.parse(String((fetch.mock.calls[0] as [string, RequestInit])[1].body))).toEqual({ data: { extras: ['seo', 'logo'] } });
  });
});

describe('crm form checks in the page', () => {
  const typed = [
    input({ type: 'text', variant: 'text-default', name: 'name', isRequired: true, label: { en: 'Your name', ru: 'Ваше имя' } }),
    input({ type: 'email', variant: 'text-default', name: 'email', isRequired: true, label: { en: 'Email', ru: 'Почта' } }),
    input({ type: 'url', name: 'site', label: { en: 'Site', ru: 'Сайт' } }),
    input({ type: 'tel', name: 'phone', label: { en: 'Phone', ru: 'Телефон' } }),
    input({ type: 'number', variant: 'number-default', name: 'pages', label: { en: 'Pages', ru: 'Страниц' } }),
    input({ type: 'checkbox', name: 'consent', label: { en: 'I agree', ru: 'Согласен' }, isRequired: true }),
  ];
  /** the message under a control (the alert its aria-describedby names) */
  const problemOf = (control: HTMLElement) => {
    const ids = (control.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
    return ids.map((id) => document.getElementById(id)).find((e) => e?.getAttribute('role') === 'alert')?.textContent;
  };

  it('an empty or malformed field is said under it in the page language, the first gets the focus, and nothing is sent', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    const user = userEvent.setup();
    show(widget('form-list-default', typed), page('ru'));
    const f = screen.getByRole('form', { name: 'Свяжитесь с нами' }) as HTMLFormElement;
    // the browser's own popups are off once hydrated
    expect(f.noValidate).toBe(true);
    await user.type(screen.getByLabelText(/Почта/), 'not-an-email');
    await user.type(screen.getByLabelText('Сайт'), 'example.com');
    await user.type(screen.getByLabelText('Телефон'), 'call me');
    await user.click(screen.getByRole('button', { name: 'Отправить' }));
    const name = screen.getByLabelText(/Ваше имя/);
    expect(problemOf(name)).toBe('Заполните это поле');
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(name);
    expect(problemOf(screen.getByLabelText(/Почта/))).toBe('Введите адрес почты, например name@example.com');
    expect(problemOf(screen.getByLabelText('Сайт'))).toBe('Введите адрес сайта, начинающийся с http:// или https://');
    expect(problemOf(screen.getByLabelText('Телефон'))).toBe('Введите номер телефона');
    expect(problemOf(screen.getByLabelText('Страниц'))).toBeUndefined();
    expect(problemOf(screen.getByRole('checkbox', { name: /Согласен/ }))).toBe('Отметьте, чтобы продолжить');
    expect(fetch).not.toHaveBeenCalled();
    // an edit takes its field's message away
    await user.type(name, 'Ada');
    expect(problemOf(name)).toBeUndefined();
    expect(problemOf(screen.getByLabelText('Телефон'))).toBe('Введите номер телефона');
  });

  it('a valid form is sent; the server\'s causes about its inputs are shown under them, in the page language', async () => {
    const user = userEvent.setup();
    const refused = { message: 'email must be an email address | phone is required', status: 400, cause: [{ field: 'email', rule: 'format', message: 'email must be an email address' }, { field: 'phone', rule: 'required', message: 'phone is required' }] };
    const fetch = vi.fn(async () => new Response(JSON.stringify(refused), { status: 400, headers: { 'content-type': 'application/json' } }));
    vi.stubGlobal('fetch', fetch);
    show(widget('form-list-default', typed.slice(0, 4)));
    await user.type(screen.getByLabelText(/Your name/), 'Ada');
    await user.type(screen.getByLabelText(/Email/), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await vi.waitFor(() => expect(problemOf(screen.getByLabelText(/Email/))).toBe('Enter an email address, like name@example.com'), { timeout: 15_000 });
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(problemOf(screen.getByLabelText('Phone'))).toBe('Fill in this field');
    expect(toast.error).not.toHaveBeenCalled();
    expect((screen.getByLabelText(/Your name/) as HTMLInputElement).value).toBe('Ada');
  });

  it('checks as the server does', async () => {
    const { checkFields } = await import('../server/check.js');
    const { formProblems } = await import('./check.js');
    const w = (key: string) => key;
    const inputs = [
      { key: 'n', type: 'number', required: false, options: [] },
      { key: 'e', type: 'email', required: false, options: [] },
      { key: 'u', type: 'url', required: false, options: [] },
      { key: 't', type: 'tel', required: false, options: [] },
      { key: 'd', type: 'date', required: false, options: [] },
      { key: 'r', type: 'text', required: true, options: [] },
      { key: 's', type: 'select', required: false, options: ['a', 'b'] },
    ];
    const samples: Record<string, string[]> = {
      n: ['1', '-2.5', '1e3', 'abc', '1,5', '.5'], e: ['a@b.co', 'a@b', 'a b@c.d'], u: ['https://x.dev', 'ftp://x', 'x.dev', 'http://a b'],
      t: ['+1 (555) 010-0199', 'call', '1'], d: ['2024-02-29', '2023-02-29', '2024-1-1'], r: ['x', ' ', ''], s: ['a', 'c'],
    };
    for (const input of inputs) {
      for (const value of samples[input.key]!) {
        const values = { [input.key]: value } as Record<string, string>;
        let server = true;
        try {
          checkFields([input], values);
        } catch {
          server = false;
        }
        expect([input.key, value, Object.keys(formProblems([input], values, w as never)).length === 0]).toEqual([input.key, value, server]);
      }
    }
  });
});
