import { beforeAll, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { loadChunks, register, registered } from '../../../web/registry.js';
import { PageProvider, type Expanded } from '../../../web/storefront/context.js';
import { registerRbacWeb } from './index.js';
import { SocialProfileList, SubjectList, SubjectOverviewWithProducts } from './subjects.js';
import { browserSandbox, ME, mockFetch, ok, renderPage, widgetRow } from './test-utils.js';

browserSandbox();
beforeAll(async () => {
  registerRbacWeb();
  await loadChunks();
  register('social/profile/default', ({ row }: { row: Expanded }) => <p data-variant="profile-default">{String(row.slug)}</p>);
});

const product = (slug: string, title: string): Expanded => ({ id: `prod-${slug}`, variant: 'default', slug, title: { en: title }, shortDescription: { en: `About ${title}` } });
const ada: Expanded = {
  id: 'subj-ada', variant: 'default', adminTitle: 'Ada Lovelace', slug: 'ada-lovelace',
  subjectsToEcommerceModuleProducts: [
    { id: 'sp1', variant: 'default', ecommerceModuleProduct: product('engine', 'Analytical engine') },
    { id: 'sp2', variant: 'default', ecommerceModuleProduct: product('notes', 'Notes') },
  ],
  subjectsToSocialModuleProfiles: [{ id: 'ss1', variant: 'default', socialModuleProfile: { id: 'p1', variant: 'default', slug: 'ada-writes' } }],
};
const grace: Expanded = { id: 'subj-grace', variant: 'default', adminTitle: 'Grace Hopper', slug: 'grace' };
const listed = (subjects: Expanded[]) => ({ widgetsToSubjects: subjects.map((subject, i) => ({ id: `ws${i}`, variant: 'default', subject })) });

describe('subject list', () => {
  it("shows the widget's subjects as cards with 'View profile', in order, and nothing private", () => {
    renderPage(<SubjectList row={widgetRow('subject-list', { title: { en: 'Members' }, ...listed([ada, grace]) })} />);
    const cards = within(screen.getByRole('list', { name: 'Members' })).getAllByRole('listitem');
    expect(cards.map((c) => within(c).getByRole('heading').textContent)).toEqual(['Ada Lovelace', 'Grace Hopper']);
    expect(within(cards[1]!).getByRole('link', { name: 'View profile' }).getAttribute('href')).toBe('/rbac/subjects/grace');
    expect(screen.queryByText(/@?ada-lovelace$/)).toBeNull();
  });

  it("says 'No found items' when the widget lists none", () => {
    renderPage(<SubjectList row={widgetRow('subject-list')} />);
    expect(screen.getByText('No found items')).toBeTruthy();
  });
});

describe('subject overview with product list', () => {
  it("the page's subject with its products, drawn by the product card when the ecommerce module registers one", () => {
    register('ecommerce/product/default', ({ row }: { row: Expanded }) => <p data-variant="product-default">{String(row.slug)}</p>);
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    const { container } = renderPage(<SubjectOverviewWithProducts row={widgetRow('subject-overview-ecommerce-module-product-list', { title: { en: 'Profile' } })} />, { params: { 'rbac.subject': ada } });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Ada Lovelace');
    expect([...container.querySelectorAll('[data-variant="product-default"]')].map((e) => e.textContent)).toEqual(['engine', 'notes']);
    // the profiles are the social profile list's; the overview asks the server for nothing
    expect(container.querySelector('[data-variant="profile-default"]')).toBeNull();
    expect(fetch).not.toHaveBeenCalled();
  });

  it("without a page subject, the widget's first subject; 'No products yet' when it has none", () => {
    renderPage(<SubjectOverviewWithProducts row={widgetRow('subject-overview-ecommerce-module-product-list', listed([grace]))} />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Grace Hopper');
    expect(screen.getByText('No products yet')).toBeTruthy();
  });

  it("on a page about no subject, the signed-in subject's card and its products, fetched in the browser", async () => {
    const api = mockFetch({
      'GET /api/rbac/subjects/authentication/me': ok(ME),
      'GET /api/rbac/subjects-to-ecommerce-module-products': ok([{ id: 'l1', subjectId: ME.id, ecommerceModuleProductId: 'prod-notes' }]),
      'GET /api/ecommerce/products': ok([product('notes', 'Notes')]),
    });
    renderPage(<SubjectOverviewWithProducts row={widgetRow('subject-overview-ecommerce-module-product-list', { title: {} })} />);
    expect(await screen.findByRole('link', { name: 'View profile' })).toBeTruthy();
    expect(await screen.findByText('notes')).toBeTruthy();
    const [links] = api.find('GET', '/api/rbac/subjects-to-ecommerce-module-products');
    expect(decodeURIComponent(links!.url)).toContain(`filters[and][0][value]=${ME.id}`);
  });

  it('the server markup of a subject page holds the public subject and its products, no session', () => {
    const html = renderToString(
      <QueryClientProvider client={new QueryClient()}>
        <PageProvider value={{ language: 'en', languages: ['en'], defaultLanguage: 'en', url: '/rbac/subjects/ada-lovelace', params: { 'rbac.subject': ada } }}>
          <SubjectOverviewWithProducts row={widgetRow('subject-overview-ecommerce-module-product-list')} />
        </PageProvider>
      </QueryClientProvider>,
    );
    expect(html).toContain('Ada Lovelace');
    expect(html).toContain('engine');
    expect(html).not.toContain('@example.com');
  });
});

describe('social profile list', () => {
  it("the page subject's profiles as 'default' cards, else 'No profiles yet'", () => {
    const { container } = renderPage(<SocialProfileList row={widgetRow('social-profile-list', { title: { en: 'Profiles' } })} />, { params: { 'rbac.subject': ada } });
    expect([...container.querySelectorAll('[data-variant="profile-default"]')].map((e) => e.textContent)).toEqual(['ada-writes']);
  });

  it('says so when the subject has none', () => {
    renderPage(<SocialProfileList row={widgetRow('social-profile-list')} />, { params: { 'rbac.subject': grace } });
    expect(screen.getByText('No profiles yet')).toBeTruthy();
  });

  it('every rbac widget variant of the manifest has its screen', async () => {
    const manifest = (await import('../../../schemas/rbac/widget.json', { with: { type: 'json' } })).default as { variants: string[] };
    const screens = registered().filter((k) => k.startsWith('rbac/widget/')).map((k) => k.slice('rbac/widget/'.length));
    expect(screens.sort()).toEqual([...manifest.variants].sort());
  });
});
