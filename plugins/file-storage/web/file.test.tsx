import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { PageProvider, Variant, type Expanded } from '../../../web/storefront/context.js';
import { loadChunks, registered } from '../../../web/registry.js';
import { fileKind, fileUrl } from './file.js';
import { FILE_VARIANTS, registerFileStorageWeb } from './index.js';

beforeAll(async () => {
  registerFileStorageWeb();
  await loadChunks();
});
afterEach(cleanup);

const file = (fields: Record<string, unknown>, variant = 'default'): Expanded => ({ id: '11111111-0000-4000-8000-000000000001', variant, ...fields });
const show = (row: Expanded, language = 'en') =>
  render(
    <PageProvider value={{ language, languages: ['en', 'ru'], defaultLanguage: 'en', url: '/', params: {} }}>
      <Variant module="file-storage" entity="file" row={row} />
    </PageProvider>,
  );

describe('fileUrl', () => {
  it('keeps https urls and absolute paths, prefixes stored names with /files/', () => {
    expect(fileUrl('https://cdn.example.com/a.png')).toBe('https://cdn.example.com/a.png');
    expect(fileUrl('/files/0b6e.png')).toBe('/files/0b6e.png');
    expect(fileUrl('0b6e.png')).toBe('/files/0b6e.png');
    expect(fileUrl(undefined)).toBe('');
  });
});

describe('fileKind', () => {
  it('goes by the mime type, then by the extension', () => {
    expect(fileKind(file({ file: 'x', mimeType: 'video/mp4' }))).toBe('video');
    expect(fileKind(file({ file: 'clip.webm' }))).toBe('video');
    expect(fileKind(file({ file: 'x', extension: 'MP4' }))).toBe('video');
    expect(fileKind(file({ file: 'photo.jpg?v=2' }))).toBe('image');
    expect(fileKind(file({ file: 'doc.pdf', mimeType: 'application/pdf' }))).toBe('other');
  });
});

describe('file-storage/file', () => {
  it('is registered for default and every generate-template variant', () => {
    for (const v of FILE_VARIANTS) expect(registered()).toContain(`file-storage/file/${v}`);
  });

  it('renders an image with its alt in the page language', () => {
    show(file({ file: 'team.png', mimeType: 'image/png', alt: { en: 'Our team', ru: 'Наша команда' }, width: 800, height: 600, className: 'rounded' }), 'ru');
    const img = screen.getByRole('img', { name: 'Наша команда' });
    expect(img.getAttribute('src')).toBe('/files/team.png');
    expect(img.getAttribute('width')).toBe('800');
    expect(img.className).toContain('rounded');
  });

  it('renders a video with controls', () => {
    const { container } = show(file({ file: 'https://cdn.example.com/demo.mp4', alt: { en: 'Demo' } }));
    const video = container.querySelector('video')!;
    expect(video.hasAttribute('controls')).toBe(true);
    expect(video.querySelector('source')!.getAttribute('src')).toBe('https://cdn.example.com/demo.mp4');
    expect(container.querySelector('img')).toBeNull();
  });

  it('wraps the media in containerClassName', () => {
    const { container } = show(file({ file: '/files/a.webp', containerClassName: 'aspect-video' }));
    expect(container.firstElementChild!.className).toBe('aspect-video');
    expect(container.querySelector('.aspect-video > img')).not.toBeNull();
  });

  it('renders the same for a generate-template variant', () => {
    show(file({ file: 'og.png', alt: { en: 'Preview' } }, 'generate-template-opengraph-image'));
    expect(screen.getByRole('img', { name: 'Preview' }).getAttribute('src')).toBe('/files/og.png');
  });

  it('links other files (PDF) for download, and renders nothing without a file', () => {
    show(file({ file: 'terms.pdf', mimeType: 'application/pdf', alt: { en: 'Terms' } }));
    expect(screen.getByRole('link', { name: 'Terms' }).getAttribute('href')).toBe('/files/terms.pdf');
    cleanup();
    const { container } = show(file({ file: '' }));
    expect(container.innerHTML).toBe('');
  });
});
