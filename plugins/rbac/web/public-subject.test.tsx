import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import { loadChunks, lookup, register } from '../../../web/registry.js';
import type { Expanded } from '../../../web/storefront/context.js';
import { registerRbacWeb } from './index.js';
import { SocialProfileOverview, SubjectOverview } from './subject.js';
import { renderPage, widgetRow } from './test-utils.js';

beforeAll(async () => {
  registerRbacWeb();
  await loadChunks();
  // stand-ins for the social module's profile variants: they show which variant drew the profile
  register('social/profile/default', ({ row }: { row: Expanded }) => <p data-variant="default">{String(row.slug)}</p>);
  register('social/profile/overview-default', ({ row }: { row: Expanded }) => <p data-variant="overview-default">{String(row.slug)}</p>);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const profile = (slug: string, i: number) => ({ id: `sp-${slug}`, variant: 'default', orderIndex: i, socialModuleProfile: { id: `p-${slug}`, variant: 'overview-default', slug } });
const ada: Expanded = {
  id: 'subj-1', variant: 'default', adminTitle: 'Ada Lovelace', slug: 'ada-lovelace',
  subjectsToSocialModuleProfiles: [profile('ada-designer', 0), profile('ada-writer', 1)],
};

describe('public subject overview', () => {
  it("shows params['rbac.subject'] with its social profiles as 'default' cards, without asking for the session", () => {
    const fetch = vi.fn(async () => new Response('{}', { status: 401 }));
    vi.stubGlobal('fetch', fetch);
    renderPage(<SubjectOverview row={widgetRow('subject-overview', { title: { en: 'Profile', ru: 'Профиль' } })} />, { language: 'ru', params: { 'rbac.subject': ada } });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Ada Lovelace');
    // the slug is shown only when the subject has nothing else to be called by
    expect(screen.queryByText(/ada-lovelace/)).toBeNull();
    expect(screen.getByText('Профиль')).toBeTruthy();
    const cards = within(screen.getByRole('list', { name: 'Профили' })).getAllByRole('listitem');
    expect(cards.map((c) => c.textContent)).toEqual(['ada-designer', 'ada-writer']);
    expect(cards.every((c) => c.querySelector('[data-variant="default"]'))).toBe(true);
    expect(screen.queryByText(/Sign in/)).toBeNull();
    expect(screen.queryByRole('link', { name: 'View profile' })).toBeNull();
    expect(fetch).not.toHaveBeenCalled();
  });

  it("is titled by its first social profile's title in the page's language, before its name", () => {
    const titled = (title: Record<string, string>, i: number) => ({ id: `st-${i}`, variant: 'default', orderIndex: i, socialModuleProfile: { id: `pt-${i}`, variant: 'default', slug: `p-${i}`, title } });
    const subject: Expanded = { ...ada, subjectsToSocialModuleProfiles: [titled({}, 0), titled({ en: 'Ada, designer', ru: 'Ада, дизайнер' }, 1)] };
    renderPage(<SubjectOverview row={widgetRow('subject-overview', { title: {} })} />, { language: 'ru', params: { 'rbac.subject': subject } });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Ада, дизайнер');
    expect(screen.queryByText('Ada Lovelace')).toBeNull();
    expect(screen.queryByText(/ada-lovelace/)).toBeNull();
    cleanup();
    renderPage(<SubjectOverview row={widgetRow('subject-overview', { title: {} })} />, { params: { 'rbac.subject': subject } });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Ada, designer');
  });

  it('falls back to the slug and omits the list when the subject has no profiles', () => {
    renderPage(<SubjectOverview row={widgetRow('subject-overview', { title: {} })} />, { params: { 'rbac.subject': { id: 's', variant: 'default', slug: 'grace' } } });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('grace');
    expect(screen.queryByRole('list')).toBeNull();
  });
});

describe('social profile overview', () => {
  it("draws the page subject's profiles with 'overview-default'", () => {
    const { container } = renderPage(<SocialProfileOverview row={widgetRow('social-profile-overview', { title: {} })} />, { params: { 'rbac.subject': ada } });
    const drawn = [...container.querySelectorAll('[data-variant="overview-default"]')].map((e) => e.textContent);
    expect(drawn).toEqual(['ada-designer', 'ada-writer']);
  });

  it('renders nothing without a subject or profiles', () => {
    const { container } = renderPage(<SocialProfileOverview row={widgetRow('social-profile-overview')} />);
    expect(container.querySelector('[data-variant]')).toBeNull();
    expect(screen.queryByText('Sign in')).toBeNull();
  });

  it('is registered as rbac/widget/social-profile-overview', () => {
    expect(lookup('rbac', 'widget', 'social-profile-overview')).toBe(SocialProfileOverview);
  });
});
