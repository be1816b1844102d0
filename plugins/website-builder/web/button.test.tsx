import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { Variant } from '../../../web/storefront/context.js';
import { loadChunks, registered } from '../../../web/registry.js';
import { BUTTON_VARIANTS } from '../../../web/ui/button.js';
import { registerFileStorageWeb } from '../../file-storage/web/index.js';
import { registerWebsiteBuilderWeb } from './index.js';
import { L, button, buttonsArray, link, renderIn, row } from './test-fixtures.js';

beforeAll(async () => {
  registerWebsiteBuilderWeb();
  registerFileStorageWeb();
  await loadChunks();
});
afterEach(cleanup);

describe('registrations', () => {
  it('registers every variant the manifests list for the storefront', () => {
    const keys = registered();
    for (const v of ['default', 'content-default', 'footer-default', 'navbar-default', 'content-description', 'content-heading', 'content-features-list', 'content-map', 'content-divider', 'content-features-vacancy-list']) {
      expect(keys).toContain(`website-builder/widget/${v}`);
    }
    for (const v of ['default', 'destructive', 'primary', 'secondary', 'outline', 'link', 'ghost']) expect(keys).toContain(`website-builder/button/${v}`);
    for (const v of ['default', 'row', 'column']) expect(keys).toContain(`website-builder/buttons-array/${v}`);
    for (const k of ['slider/default', 'slide/default', 'slide/full-width-banner', 'slide/plain-container', 'feature/default', 'feature/vacancy', 'logotype/default']) {
      expect(keys).toContain(`website-builder/${k}`);
    }
  });
});

describe('website-builder/button', () => {
  it('is a link styled like the Button of its variant, with the language prefix', () => {
    renderIn(<Variant module="website-builder" entity="button" row={button(L('Blog', 'Блог'), '/blog/articles/launch-week', 'primary')} />, 'ru');
    const a = screen.getByRole('link', { name: 'Блог' });
    expect(a.getAttribute('href')).toBe('/ru/blog/articles/launch-week');
    expect(a.className).toContain(BUTTON_VARIANTS.primary);
    expect(a.hasAttribute('target')).toBe(false);
  });

  it('opens external urls in a new tab and leaves them unprefixed', () => {
    renderIn(<Variant module="website-builder" entity="button" row={button(L('Docs', 'Документация'), 'https://example.com/docs', 'outline')} />, 'ru');
    const a = screen.getByRole('link', { name: 'Документация' });
    expect(a.getAttribute('href')).toBe('https://example.com/docs');
    expect(a.getAttribute('target')).toBe('_blank');
    expect(a.getAttribute('rel')).toBe('noopener noreferrer');
    expect(a.className).toContain(BUTTON_VARIANTS.outline);
  });

  it('falls back to English and keeps the default language unprefixed', () => {
    renderIn(<Variant module="website-builder" entity="button" row={button({ en: 'Home' }, '/', 'ghost')} />, 'en');
    expect(screen.getByRole('link', { name: 'Home' }).getAttribute('href')).toBe('/');
  });
});

describe('website-builder/buttons-array', () => {
  it('draws its buttons in order, each by its own variant', () => {
    const array = buttonsArray(button(L('First', 'Первая'), '/a', 'primary'), button(L('Second', 'Вторая'), '/b', 'secondary'));
    renderIn(<Variant module="website-builder" entity="buttons-array" row={array} />);
    expect(screen.getAllByRole('link').map((a) => a.textContent)).toEqual(['First', 'Second']);
    expect(screen.getByRole('link', { name: 'Second' }).className).toContain(BUTTON_VARIANTS.secondary);
  });

  it('renders nothing for an unknown button variant', () => {
    renderIn(<Variant module="website-builder" entity="buttons-array" row={buttonsArray(button(L('Odd', 'Странная'), '/x', 'no-such-variant'))} />);
    expect(screen.queryByRole('link')).toBeNull();
  });
});

describe('website-builder/logotype', () => {
  it('shows the title as a wordmark linking home', () => {
    renderIn(<Variant module="website-builder" entity="logotype" row={row('default', { title: L('Studio', 'Студия') })} />, 'ru');
    const a = screen.getByRole('link', { name: /Студия/ });
    expect(a.getAttribute('href')).toBe('/ru');
  });

  it('shows its first file as the image, linking to its url', () => {
    const file = row('default', { file: 'logo.png', mimeType: 'image/png', alt: L('Studio logo', 'Логотип студии') });
    const logotype = row('default', { title: L('Studio', 'Студия'), url: '/about', logotypesToFileStorageModuleFiles: [link('fileStorageModuleFile', file)] });
    renderIn(<Variant module="website-builder" entity="logotype" row={logotype} />);
    expect(screen.getByRole('link', { name: 'Studio' }).getAttribute('href')).toBe('/about');
    expect(screen.getByRole('img').getAttribute('src')).toBe('/files/logo.png');
  });
});
