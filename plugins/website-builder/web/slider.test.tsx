import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { Variant } from '../../../web/storefront/context.js';
import { registerFileStorageWeb } from '../../file-storage/web/index.js';
import { registerWebsiteBuilderWeb } from './index.js';
import { loadChunks } from '../../../web/registry.js';
import { wrapIndex } from './slider.js';
import { L, button, buttonsArray, link, renderIn, row } from './test-fixtures.js';
import { utilitiesOf } from '../../../web/test-classes.js';

beforeAll(async () => {
  registerWebsiteBuilderWeb();
  registerFileStorageWeb();
  await loadChunks();
});
afterEach(cleanup);

const slide = (en: string, ru: string, fields: Record<string, unknown> = {}) =>
  row('full-width-banner', { title: L(en, ru), subtitle: L(`${en} subtitle`, `${ru} подзаголовок`), ...fields });
const slides = [
  slide('Launch week', 'Неделя запуска', {
    url: '/blog/articles/launch-week',
    slidesToButtonsArrays: [link('buttonsArray', buttonsArray(button(L('Read the story', 'Читать'), '/blog/articles/launch-week', 'primary')))],
  }),
  slide('Templates', 'Шаблоны'),
  slide('Hosting', 'Хостинг'),
];
const slider = row('default', { title: L('Highlights', 'Главное'), slidersToSlides: slides.map((s, i) => link('slide', s, i)) });

/** the title of the slide that is shown (the others are aria-hidden) */
const shown = () => screen.getAllByRole('group').map((g) => within(g).queryByRole('heading')?.textContent);

describe('wrapIndex', () => {
  it('wraps both ways', () => {
    expect(wrapIndex(0, -1, 3)).toBe(2);
    expect(wrapIndex(2, 1, 3)).toBe(0);
    expect(wrapIndex(1, 1, 3)).toBe(2);
    expect(wrapIndex(0, 1, 0)).toBe(0);
  });
});

describe('website-builder/slider', () => {
  it('is 340px high on small screens and 530px on lg, with 2/12 edge zones', () => {
    renderIn(<Variant module="website-builder" entity="slider" row={slider} />);
    const region = screen.getByRole('region', { name: 'Highlights' });
    expect(region.className).toContain('h-[340px]');
    expect(region.className).toContain('lg:h-[530px]');
    expect(utilitiesOf(screen.getByRole('button', { name: 'Previous slide' }).className)).toContain('w-2/12');
    expect(utilitiesOf(screen.getByRole('button', { name: 'Next slide' }).className)).toContain('w-2/12');
    expect(shown()).toEqual(['Launch week']);
  });

  it('moves with the edge zones and wraps around both ways', async () => {
    const user = userEvent.setup();
    renderIn(<Variant module="website-builder" entity="slider" row={slider} />);
    await user.click(screen.getByRole('button', { name: 'Previous slide' }));
    expect(shown()).toEqual(['Hosting']);
    await user.click(screen.getByRole('button', { name: 'Next slide' }));
    expect(shown()).toEqual(['Launch week']);
    await user.click(screen.getByRole('button', { name: 'Next slide' }));
    await user.click(screen.getByRole('button', { name: 'Next slide' }));
    expect(shown()).toEqual(['Hosting']);
    await user.click(screen.getByRole('button', { name: 'Next slide' }));
    expect(shown()).toEqual(['Launch week']);
  });

  it('tracks the selected slide with dots and arrow keys', async () => {
    const user = userEvent.setup();
    renderIn(<Variant module="website-builder" entity="slider" row={slider} />);
    await user.click(screen.getByRole('button', { name: 'Go to slide 2' }));
    expect(shown()).toEqual(['Templates']);
    expect(screen.getByRole('button', { name: 'Go to slide 2' }).getAttribute('aria-current')).toBe('true');
    const region = screen.getByRole('region');
    fireEvent.keyDown(region, { key: 'ArrowRight' });
    expect(shown()).toEqual(['Hosting']);
    fireEvent.keyDown(region, { key: 'ArrowRight' });
    expect(shown()).toEqual(['Launch week']);
    fireEvent.keyDown(region, { key: 'ArrowLeft' });
    expect(shown()).toEqual(['Hosting']);
    expect(region.getAttribute('data-selected')).toBe('2');
  });

  it('moves on a horizontal swipe', () => {
    renderIn(<Variant module="website-builder" entity="slider" row={slider} />);
    const region = screen.getByRole('region');
    fireEvent.touchStart(region, { touches: [{ clientX: 300 }] });
    fireEvent.touchEnd(region, { changedTouches: [{ clientX: 100 }] });
    expect(shown()).toEqual(['Templates']);
    fireEvent.touchStart(region, { touches: [{ clientX: 100 }] });
    fireEvent.touchEnd(region, { changedTouches: [{ clientX: 110 }] });
    expect(shown()).toEqual(['Templates']);
    fireEvent.touchStart(region, { touches: [{ clientX: 100 }] });
    fireEvent.touchEnd(region, { changedTouches: [{ clientX: 300 }] });
    expect(shown()).toEqual(['Launch week']);
  });

  it('makes the hidden slides inert', () => {
    renderIn(<Variant module="website-builder" entity="slider" row={slider} />);
    const groups = screen.getAllByRole('group', { hidden: true });
    expect(groups.map((g) => g.hasAttribute('inert'))).toEqual([false, true, true]);
  });
});

describe('website-builder/slide', () => {
  it("full-width-banner: title, subtitle and buttons; the whole slide links to its url", () => {
    renderIn(<Variant module="website-builder" entity="slide" row={slides[0]} />, 'ru');
    expect(screen.getByRole('heading', { name: 'Неделя запуска' })).toBeTruthy();
    expect(screen.getByText('Неделя запуска подзаголовок')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Читать' }).getAttribute('href')).toBe('/ru/blog/articles/launch-week');
    const cover = screen.getByRole('link', { name: 'Неделя запуска' });
    expect(cover.getAttribute('href')).toBe('/ru/blog/articles/launch-week');
    expect(cover.className).toContain('inset-0');
  });

  it('full-width-banner without a url has no cover link; its file fills the slide', () => {
    const file = row('default', { file: 'https://cdn.example.com/hero.jpg', mimeType: 'image/jpeg' });
    renderIn(<Variant module="website-builder" entity="slide" row={{ ...slides[1], slidesToFileStorageModuleFiles: [link('fileStorageModuleFile', file)] }} />);
    expect(screen.queryByRole('link')).toBeNull();
    const img = document.querySelector('img')!;
    expect(img.getAttribute('src')).toBe('https://cdn.example.com/hero.jpg');
    expect(img.className).toContain('object-cover');
  });

  it('plain-container: title and description', () => {
    const plain = row('plain-container', { title: L('Plain', 'Простой'), description: L('Some words', 'Несколько слов') });
    renderIn(<Variant module="website-builder" entity="slide" row={plain} />, 'ru');
    expect(screen.getByRole('heading', { name: 'Простой' })).toBeTruthy();
    expect(screen.getByText('Несколько слов')).toBeTruthy();
  });
});
