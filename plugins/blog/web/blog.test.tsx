import type { ReactNode } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { PageProvider, Variant, type Expanded, type PageContext } from '../../../web/storefront/context.js';
import { register } from '../../../web/registry.js';
import { registerBlogWeb } from './index.js';
import { registerStartupWeb } from '../../startup/web/index.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

beforeAll(() => {
  registerBlogWeb();
  registerStartupWeb();
  register('file-storage/file/default', ({ row }: { row: Expanded }) => <img alt={String(row.alt)} src={String(row.file)} />);
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
const at = (p: PageContext, node: ReactNode) => <PageProvider value={p}>{node}</PageProvider>;
const show = (row: Expanded, p = page(), module = 'blog') => render(at(p, <Variant module={module} entity="widget" row={row} />));

describe('blog article list', () => {
  it('shows the widget title and one card per article with Read more linking to the article', () => {
    show(widget('article-list-default'));
    expect(screen.getByRole('heading', { level: 2, name: 'From the blog' })).toBeTruthy();
    expect(screen.getByText('Latest news')).toBeTruthy();
    const cards = screen.getAllByRole('listitem');
    expect(cards.map((c) => within(c).getByRole('heading').textContent)).toEqual(['Launch week', 'Choosing a template']);
    const more = screen.getAllByRole('link', { name: 'Read more' });
    expect(more.map((a) => a.getAttribute('href'))).toEqual(['/blog/articles/launch-week', '/blog/articles/choosing-a-template']);
    expect(screen.getByRole('list').className).toContain('md:grid-cols-2');
    expect(screen.getByRole('list').className).toContain('lg:grid-cols-3');
  });

  it('in Russian shows the Russian texts and prefixes the links', () => {
    show(widget('article-list-default'), page('ru'));
    expect(screen.getByRole('heading', { level: 2, name: 'Блог' })).toBeTruthy();
    expect(screen.getByText('Неделя запусков')).toBeTruthy();
    expect(screen.getAllByRole('link', { name: 'Read more' })[0].getAttribute('href')).toBe('/ru/blog/articles/launch-week');
  });

  it('the startup widget draws with the same components', () => {
    show(widget('article-list-default'), page(), 'startup');
    expect(screen.getAllByRole('link', { name: 'Read more' })).toHaveLength(2);
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
    expect(screen.getByRole('link', { name: 'View product' }).getAttribute('href')).toBe('/ru/ecommerce/products/shop-template');
  });
});

describe('blog article with private content', () => {
  const me = (status: number) => {
    const fetch = vi.fn(async () => new Response('{}', { status }));
    vi.stubGlobal('fetch', fetch);
    return fetch;
  };

  it('renders a skeleton on the server: the description never reaches the markup', () => {
    const html = renderToString(at(page(), <Variant module="blog" entity="widget" row={widget('article-overview-with-private-content-default')} />));
    expect(html).toContain('Launch week');
    expect(html).not.toContain('Launch week body');
    expect(html).toContain('animate-pulse');
  });

  it('shows the article to a signed-in visitor (me answers 200), asking with credentials', async () => {
    const fetch = me(200);
    show(widget('article-overview-with-private-content-default'));
    await screen.findByText('Launch week body');
    expect(fetch).toHaveBeenCalledWith('/api/rbac/subjects/authentication/me', { credentials: 'include' });
    expect(screen.queryByText('Sign in to read this article')).toBeNull();
  });

  it('asks anyone else to sign in, linking to the sign-in methods in the page language', async () => {
    me(401);
    show(widget('article-overview-with-private-content-default'), page('ru'));
    await screen.findByText('Sign in to read this article');
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/ru/rbac/subject/authentication/select-method');
    expect(screen.queryByText('Неделя запусков текст')).toBeNull();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Неделя запусков');
  });

  it('treats a failed call as not signed in', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => { throw new TypeError('offline'); }));
    show(widget('article-overview-with-private-content-default'));
    await waitFor(() => expect(screen.getByText('Sign in to read this article')).toBeTruthy());
  });
});

describe('blog categories', () => {
  it('category list: cards with More linking to the category', () => {
    show(withCategories('category-list-default'), page('ru'));
    expect(screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual(['Новости', 'Руководства']);
    expect(screen.getAllByRole('link', { name: 'More' }).map((a) => a.getAttribute('href'))).toEqual(['/ru/blog/categories/news', '/ru/blog/categories/guides']);
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
    expect(screen.getByRole('link', { name: 'Read more' }).getAttribute('href')).toBe('/blog/articles/choosing-a-template');
    cleanup();
    show(withCategories('category-overview-default'), page('en', { 'blog.category': guides }));
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Guides');
    expect(screen.queryByRole('link', { name: 'Read more' })).toBeNull();
  });
});
