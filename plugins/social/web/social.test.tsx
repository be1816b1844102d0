import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { PageProvider, Variant, type Expanded, type PageContext } from '../../../web/storefront/context.js';
import { loadChunks, register } from '../../../web/registry.js';
import { registerSocialWeb } from './index.js';

afterEach(cleanup);
beforeAll(async () => {
  registerSocialWeb();
  register('file-storage/file/default', ({ row }: { row: Expanded }) => <img alt={String(row.alt)} src={String(row.file)} />);
  await loadChunks();
});

const profile = (variant: string): Expanded => ({
  id: 'p1', variant, slug: 'anna', title: { en: 'Anna Petrova', ru: 'Анна Петрова' }, subtitle: { en: 'Designer', ru: 'Дизайнер' },
  description: { en: JSON.stringify({ type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Designs our templates.' }] }] }) },
  profilesToFileStorageModuleFiles: [{ id: 'pf', variant: 'default', fileStorageModuleFile: { id: 'f', variant: 'default', alt: 'Portrait', file: '/files/anna.jpg' } }],
});
const page = (language = 'en'): PageContext => ({ language, languages: ['en', 'ru'], defaultLanguage: 'en', url: '/', params: {} });
const show = (entity: string, row: Expanded, p = page()) => render(<PageProvider value={p}><Variant module="social" entity={entity} row={row} /></PageProvider>);

describe('social profile', () => {
  it('overview-default: title, subtitle, description and files', () => {
    show('profile', profile('overview-default'));
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Anna Petrova');
    expect(screen.getByText('Designer')).toBeTruthy();
    expect(screen.getByText('Designs our templates.')).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Portrait' })).toBeTruthy();
  });

  it('default: the same fields as a card, in the page language', () => {
    show('profile', profile('default'), page('ru'));
    expect(screen.getByRole('heading', { level: 3 }).textContent).toBe('Анна Петрова');
    expect(screen.getByText('Дизайнер')).toBeTruthy();
    expect(screen.getByText('Designs our templates.')).toBeTruthy();
  });

  it('the widget draws its profiles through their variants', () => {
    show('widget', { id: 'w', variant: 'default', title: { en: 'Our team' }, widgetsToProfiles: [{ id: 'wp', variant: 'default', profile: profile('default') }] });
    expect(screen.getByRole('heading', { level: 2, name: 'Our team' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 3, name: 'Anna Petrova' })).toBeTruthy();
  });
});
