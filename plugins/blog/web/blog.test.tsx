import type { ReactNode } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { PageProvider, Variant, type Expanded, type PageContext } from '../../../web/storefront/context.js';
import { loadChunks, lookup, register } from '../../../web/registry.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { registerBlogWeb } from './index.js';
import { ArticleListLatest, LATEST_LIMIT } from './latest.js';
import { registerStartupWeb } from '../../startup/web/index.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

beforeAll(async () => {
  registerBlogWeb();
  registerStartupWeb();
  register('file-storage/file/default', ({ row }: { row: Expanded }) => <img alt={String(row.alt)} src={String(row.file)} />);
  await loadChunks();
});

const doc = (heading: string, text: string) => JSON.stringify({ type: 'doc', content: [
  { type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: heading }] },
  { type: 'paragraph', content: [{ type: 'text', text }] },
] });

const article = (slug: string, en: string, ru: string, extra: Record<string, unknown> = {}): Expanded => ({
  id: `id-${slug}`, variant: 'default', slug,
  title: { en, ru }, subtitle: { en: `${en} subtitle`, ru: `${ru} подзаголовок` },
  description: { en: doc(`${en} heading`, `${en} body`), ru: doc(`${ru} заголовок`, `${ru} текст`) },
  ...extra,
});
const launch = article('launch-week', 'Launch week', 'Неделя запусков', {
  articlesToFileStorageModuleFiles: [{ id: 'l1', variant: 'default', fileStorageModuleFile: { id: 'f1', variant: 'default', alt: 'Cover', file: '/files/cover.png' } }],
  articlesToEcommerceModuleProducts: [{ id: 'l2', variant: 'default', ecommerceModuleProduct: { id: 'p1', variant: 'default', slug: 'shop-template', title: { en: 'Shop template', ru: 'Шаблон магазина' } } }],
});
const choosing = article('choosing-a-template', 'Choosing a template', 'Выбор шаблона');
const link = (a: Expanded, i: number) => ({ id: `w-${a.id}`, variant: 'default', orderIndex: i, article: a });

const widget = (variant: string, extra: Record<string, unknown> = {}): Expanded => ({
  id: 'w', variant, title: { en: 'From the blog', ru: 'Блог' }, subtitle: { en: 'Latest news', ru: 'Новости' },
  widgetsToArticles: [launch, choosing].map(link), ...extra,
});
const news: Expanded = { id: 'c1', variant: 'default', slug: 'news', title: { en: 'News', ru: 'Новости' }, description: { en: 'Studio news' },
  categoriesToArticles: [{ id: 'ca1', variant: 'default', article: choosing }] };
const guides: Expanded = { id: 'c2', variant: 'default', slug: 'guides', title: { en: 'Guides', ru: 'Руководства' } };
const withCategories = (variant: string) => widget(variant, { widgetsToCategories: [news, guides].map((c, i) => ({ id: `wc${i}`, variant: 'default', category: c })) });

function page(language = 'en', params: Record<string, Expanded> = {}): PageContext {
  return { language, languages: ['en', 'ru'], defaultLanguage: 'en', url: '/', params };
}
const at = (p: PageContext, node: ReactNode) => (
  <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
    <PageProvider value={p}>{node}</PageProvider>
  </QueryClientProvider>
);
const show = (row: Expanded, p = page(), module = 'blog') => render(at(p, <Variant module={module} entity="widget" row={row} />));

describe('blog article list', () => {
  it('shows the widget title and one card per article with Read more linking to the article', () => {
    show(widget('article-list-default'));
    expect(screen.getByRole('heading', { level: 2, name: 'From the blog' })).toBeTruthy();
    expect(screen.getByText('Latest news')).toBeTruthy();
    const cards = screen.getAllByRole('listitem');
    expect(cards.map((c) => within(c).getByRole('heading').textContent)).toEqual(['Launch week', 'Choosing a template']);
    const more = screen.getAllByRole('link', { name: /^Read more/ });
    expect(more.map((a) => a.getAttribute('href'))).toEqual(['/blog/articles/launch-week', '/blog/articles/choosing-a-template']);
    expect(more.map((a) => a.getAttribute('aria-label'))).toEqual(['Read more: Launch week', 'Read more: Choosing a template']);
    expect(screen.getByRole('list').className).toContain('md:grid-cols-2');
    expect(screen.getByRole('list').className).toContain('lg:grid-cols-3');
  });

  it('in Russian shows the Russian texts and prefixes the links', () => {
    show(widget('article-list-default'), page('ru'));
    expect(screen.getByRole('heading', { level: 2, name: 'Блог' })).toBeTruthy();
    expect(screen.getByText('Неделя запусков')).toBeTruthy();
    expect(screen.getAllByRole('link', { name: /^Читать далее/ })[0].getAttribute('href')).toBe('/ru/blog/articles/launch-week');
  });

  it('the startup widget draws with the same components', () => {
    show(widget('article-list-default'), page(), 'startup');
    expect(screen.getAllByRole('link', { name: /^Read more/ })).toHaveLength(2);
  });
});

describe('blog article overview', () => {
  it("shows the page's article (params['blog.article']) with its rich text and files", () => {
    show(widget('article-overview-default'), page('en', { 'blog.article': choosing }));
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Choosing a template');
    expect(screen.getByRole('heading', { level: 2, name: 'Choosing a template heading' })).toBeTruthy();
    expect(screen.getByText('Choosing a template body')).toBeTruthy();
  });

  it("falls back to the widget's first article, drawing its files through file-storage", () => {
    show(widget('article-overview-default'), page('ru'));
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Неделя запусков');
    expect(screen.getByText('Неделя запусков подзаголовок')).toBeTruthy();
    expect(screen.getByText('Неделя запусков текст')).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Cover' })).toBeTruthy();
  });

  it('renders nothing without an article', () => {
    const { container } = show(widget('article-overview-default', { widgetsToArticles: [] }));
    expect(container.innerHTML).toBe('');
  });

  it('the product-list variant adds the article\'s products as cards', () => {
    show(widget('article-overview-ecommerce-module-product-list-default'), page('ru'));
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Неделя запусков');
    expect(screen.getByRole('heading', { level: 3, name: 'Шаблон магазина' })).toBeTruthy();
    expect(screen.getByRole('link', { name: /^Посмотреть товар/ }).getAttribute('href')).toBe('/ru/ecommerce/products/shop-template');
  });
});

describe('blog article with private content', () => {
  const SUBJECT = { id: '11111111-1111-4111-8111-111111111111', slug: 'ada', identities: [], roles: [], isAdmin: false };
  const secret = { en: doc('Members', 'Members-only plan'), ru: doc('Участники', 'План для участников') };
  /** the session and the article read, as the server answers them: privateContent only with a session */
  const server = (signedIn: boolean, article: { status: number; body?: unknown } = { status: 200, body: { data: { ...launch, privateContent: secret } } }) => {
    if (signedIn) localStorage.setItem('rbac.subject.refresh', 'refresh-token');
    const fetch = vi.fn(async (url: string) => {
      if (url.endsWith('/authentication/me')) return new Response(JSON.stringify(signedIn ? { data: SUBJECT } : { message: 'Not authorized' }), { status: signedIn ? 200 : 401 });
      return new Response(JSON.stringify(article.body ?? {}), { status: article.status });
    });
    vi.stubGlobal('fetch', fetch);
    return fetch;
  };
  const privateWidget = () => widget('article-overview-with-private-content-default');

  it('the server markup holds the public part and a skeleton, never the private text (it is not in the row)', () => {
    const html = renderToString(at(page(), <Variant module="blog" entity="widget" row={privateWidget()} />));
    expect(html).toContain('Launch week');
    expect(html).toContain('Launch week body');
    expect(html).not.toContain('Members-only plan');
    expect(html).toContain('animate-pulse');
  });

  it('a signed-in visitor gets the private text from the article read with the session', async () => {
    const fetch = server(true);
    show(privateWidget());
    await screen.findByText('Members-only plan');
    expect(screen.getByText('Launch week body')).toBeTruthy();
    const read = fetch.mock.calls.find(([url]) => String(url) === `/api/blog/articles/${launch.id}`) as unknown as [string, RequestInit];
    expect(read[1].credentials).toBe('include');
    expect(screen.queryByText('Sign in to read this article')).toBeNull();
  });

  it('a visitor is asked to sign in, in the page language, and the article is not asked for', async () => {
    const fetch = server(false);
    show(privateWidget(), page('ru'));
    await screen.findByText('Войдите, чтобы прочитать статью');
    expect(screen.getByRole('link', { name: 'Войти' }).getAttribute('href')).toBe('/ru/rbac/subject/authentication/select-method');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Неделя запусков');
    expect(fetch.mock.calls.some(([url]) => String(url).startsWith('/api/blog/articles'))).toBe(false);
  });

  it('a failed read says so and offers to try again', async () => {
    server(true, { status: 500, body: { message: 'Internal server error', status: 500 } });
    show(privateWidget());
    expect((await screen.findByRole('alert')).textContent).toContain('The members-only part could not be loaded.');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});

describe('blog categories', () => {
  it('category list: cards with More linking to the category', () => {
    show(withCategories('category-list-default'), page('ru'));
    expect(screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual(['Новости', 'Руководства']);
    expect(screen.getAllByRole('link', { name: /^Подробнее/ }).map((a) => a.getAttribute('href'))).toEqual(['/ru/blog/categories/news', '/ru/blog/categories/guides']);
  });

  it('category buttons: one link per category, the current one marked', () => {
    show(withCategories('category-list-button-default'), page('en', { 'blog.category': guides }));
    const links = within(screen.getByRole('navigation')).getAllByRole('link');
    expect(links.map((a) => [a.textContent, a.getAttribute('href')])).toEqual([['News', '/blog/categories/news'], ['Guides', '/blog/categories/guides']]);
    expect(links[1].getAttribute('aria-current')).toBe('page');
    expect(links[0].getAttribute('aria-current')).toBeNull();
  });

  it("category overview: the page's category or the first, with its articles and Read more", () => {
    show(withCategories('category-overview-default'));
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('News');
    expect(screen.getByText('Studio news')).toBeTruthy();
    expect(screen.getByRole('link', { name: /^Read more/ }).getAttribute('href')).toBe('/blog/articles/choosing-a-template');
    cleanup();
    show(withCategories('category-overview-default'), page('en', { 'blog.category': guides }));
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Guides');
    expect(screen.queryByRole('link', { name: /^Read more/ })).toBeNull();
  });
});

describe('latest articles', () => {
  const newest = article('new-release', 'New release', 'Новый релиз');
  /** the public list as the server answers it, newest first; the request is kept to check its query */
  const server = (answer: { status: number; body: unknown }) => {
    const fetch = vi.fn(async (_url: string, _init?: RequestInit) => new Response(JSON.stringify(answer.body), { status: answer.status }));
    vi.stubGlobal('fetch', fetch);
    return fetch;
  };

  it('lists the newest public articles, newest first and limited, without linking them by hand', async () => {
    const fetch = server({ status: 200, body: { data: [newest, launch, choosing] } });
    show(widget('article-list-latest-default', { widgetsToArticles: [] }), page('ru'));
    await screen.findByRole('heading', { level: 3, name: 'Новый релиз' });
    expect(screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual(['Новый релиз', 'Неделя запусков', 'Выбор шаблона']);
    expect(screen.getAllByRole('link', { name: /^Читать далее/ })[0]!.getAttribute('href')).toBe('/ru/blog/articles/new-release');
    const [url, init] = fetch.mock.calls[0]!;
    const query = new URLSearchParams(new URL(String(url), 'http://x').search);
    expect(new URL(String(url), 'http://x').pathname).toBe('/api/blog/articles');
    expect(query.get('orderBy[and][0][column]')).toBe('createdAt');
    expect(query.get('orderBy[and][0][method]')).toBe('desc');
    expect(query.get('limit')).toBe(String(LATEST_LIMIT));
    // anonymously: the list every visitor gets, never a members-only field
    expect(init?.credentials).toBe('omit');
  });

  it('before the browser asks (the server markup), shows the linked articles, then the latest replace them', async () => {
    const html = renderToString(at(page(), <Variant module="blog" entity="widget" row={widget('article-list-latest-default')} />));
    expect(html).toContain('Launch week');
    expect(html).toContain('Choosing a template');
    server({ status: 200, body: { data: [newest] } });
    show(widget('article-list-latest-default'));
    expect(screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual(['Launch week', 'Choosing a template']);
    await screen.findByRole('heading', { level: 3, name: 'New release' });
    expect(screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual(['New release']);
  });

  it('without linked articles the server draws skeletons; an empty or failed list says so', async () => {
    const html = renderToString(at(page(), <Variant module="blog" entity="widget" row={widget('article-list-latest-default', { widgetsToArticles: [] })} />));
    expect(html).toContain('animate-pulse');
    server({ status: 200, body: { data: [] } });
    show(widget('article-list-latest-default', { widgetsToArticles: [] }));
    await screen.findByText('No articles yet');
    cleanup();
    server({ status: 500, body: { message: 'Internal server error', status: 500 } });
    show(widget('article-list-latest-default', { widgetsToArticles: [] }), page('ru'));
    expect((await screen.findByRole('alert')).textContent).toBe('Не удалось загрузить последние статьи.');
  });

  it('an article list with no articles says so under its heading, in the page language; no empty list is drawn', () => {
    show(widget('article-list-default', { widgetsToArticles: [] }));
    expect(screen.getByText('No articles yet')).toBeTruthy();
    expect(screen.queryByRole('list')).toBeNull();
    cleanup();
    show(widget('article-list-default', { widgetsToArticles: [] }), page('ru'));
    expect(screen.getByText('Статей пока нет')).toBeTruthy();
  });

  it('is a variant an admin can pick, registered like the others', () => {
    expect(lookup('blog', 'widget', 'article-list-latest-default')).toBe(ArticleListLatest);
    const manifest = JSON.parse(readFileSync(join(process.cwd(), 'schemas', 'blog', 'widget.json'), 'utf8')) as { variants: string[] };
    expect(manifest.variants).toContain('article-list-latest-default');
  });
});
