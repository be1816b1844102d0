import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { Variant } from '../../../web/storefront/context.js';
import { registerFileStorageWeb } from '../../file-storage/web/index.js';
import { registerWebsiteBuilderWeb } from './index.js';
import { loadChunks } from '../../../web/registry.js';
import { L, button, buttonsArray, expectHydrates, link, renderIn, row } from './test-fixtures.js';

beforeAll(async () => {
  registerWebsiteBuilderWeb();
  registerFileStorageWeb();
  await loadChunks();
});
afterEach(cleanup);

const doc = JSON.stringify({ type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'We build sites.' }] }, { type: 'bulletList', content: [{ type: 'listItem', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'React' }] }] }] }] });
const feature = (en: string, ru: string, variant = 'default') => row(variant, { title: L(en, ru), subtitle: L(`${en} sub`, `${ru} под`), description: L(`${en} text`, `${ru} текст`) });
const vacancy = row('vacancy', {
  title: L('Frontend developer', 'Фронтенд-разработчик'),
  subtitle: L('Remote', 'Удалённо'),
  description: L(doc, doc),
  featuresToButtonsArrays: [link('buttonsArray', buttonsArray(button(L('Apply', 'Откликнуться'), 'mailto:jobs@studio.example', 'primary')))],
});
const features = [feature('Templates', 'Шаблоны'), feature('Custom work', 'Разработка'), vacancy];
const image = (name: string) => row('default', { file: name, mimeType: 'image/png', alt: L(name, name) });

describe("website-builder/widget 'content-default'", () => {
  const widget = row('content-default', {
    anchor: 'what-we-do',
    title: L('What we do', 'Что мы делаем'),
    subtitle: L('Services', 'Услуги'),
    description: L('Sites for small businesses.', 'Сайты для малого бизнеса.'),
    widgetsToFeatures: features.map((f, i) => link('feature', f, i)),
    widgetsToButtonsArrays: [link('buttonsArray', buttonsArray(button(L('Contact us', 'Связаться'), '/contact', 'primary')))],
    widgetsToFileStorageModuleFiles: [link('fileStorageModuleFile', image('team.png'))],
  });

  it('shows its anchor, texts, a 3-column feature grid, buttons and files', () => {
    const { container } = renderIn(<Variant module="website-builder" entity="widget" row={widget} />, 'ru');
    expect(container.querySelector('section')!.id).toBe('what-we-do');
    expect(screen.getByRole('heading', { level: 2, name: 'Что мы делаем' })).toBeTruthy();
    expect(screen.getByText('Услуги')).toBeTruthy();
    expect(screen.getByText('Сайты для малого бизнеса.')).toBeTruthy();
    const cards = screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent);
    expect(cards).toEqual(['Шаблоны', 'Разработка', 'Фронтенд-разработчик']);
    expect(screen.getByRole('heading', { name: 'Шаблоны' }).closest('.grid')!.className).toContain('lg:grid-cols-3');
    expect(screen.getByRole('link', { name: 'Связаться' }).getAttribute('href')).toBe('/ru/contact');
    expect(screen.getByRole('img', { name: 'team.png' }).getAttribute('src')).toBe('/files/team.png');
  });

  it("'default' renders the same content", () => {
    renderIn(<Variant module="website-builder" entity="widget" row={{ ...widget, variant: 'default' }} />);
    expect(screen.getByRole('heading', { level: 2, name: 'What we do' })).toBeTruthy();
  });

  it('server and client render the same markup (hydration without errors)', async () => {
    const slide = row('full-width-banner', { title: L('Launch week', 'Неделя запуска'), slidesToButtonsArrays: [link('buttonsArray', buttonsArray(button(L('Read', 'Читать'), '/blog/articles/launch-week', 'primary')))] });
    const hero = { ...widget, widgetsToSliders: [link('slider', row('default', { slidersToSlides: [link('slide', slide), link('slide', { ...slide, id: 'b' }, 1)] }))] };
    await expectHydrates(<Variant module="website-builder" entity="widget" row={hero} />, 'ru');
  });
});

describe("website-builder/feature 'vacancy'", () => {
  it('opens a dialog with title, subtitle, description and its buttons', async () => {
    const user = userEvent.setup();
    renderIn(<Variant module="website-builder" entity="feature" row={vacancy} />, 'ru');
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.click(screen.getByRole('button', { name: /Подробнее/ }));
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByRole('heading', { name: 'Фронтенд-разработчик' })).toBeTruthy();
    expect(within(dialog).getByText('Удалённо')).toBeTruthy();
    expect(within(dialog).getByText('React')).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: 'Откликнуться' }).getAttribute('target')).toBe('_blank');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('the other content widgets', () => {
  it("'content-heading' is a big heading with its subtitle", () => {
    renderIn(<Variant module="website-builder" entity="widget" row={row('content-heading', { title: L('Our work', 'Наши работы'), subtitle: L('Selected projects', 'Избранные проекты') })} />, 'ru');
    expect(screen.getByRole('heading', { level: 1, name: 'Наши работы' })).toBeTruthy();
    expect(screen.getByText('Избранные проекты')).toBeTruthy();
  });

  it("'content-description' shows its text and files, with a special layout for exactly 3 images", () => {
    const three = ['a.png', 'b.png', 'c.png'].map(image);
    const w = (files: ReturnType<typeof image>[]) => row('content-description', { description: L(doc, doc), widgetsToFileStorageModuleFiles: files.map((f, i) => link('fileStorageModuleFile', f, i)) });
    const { container, unmount } = renderIn(<Variant module="website-builder" entity="widget" row={w(three)} />);
    expect(screen.getByText('We build sites.')).toBeTruthy();
    expect(screen.getAllByRole('img')).toHaveLength(3);
    expect(container.querySelector('[data-layout="three-images"]')).not.toBeNull();
    unmount();
    const two = renderIn(<Variant module="website-builder" entity="widget" row={w(three.slice(0, 2))} />);
    expect(screen.getAllByRole('img')).toHaveLength(2);
    expect(two.container.querySelector('[data-layout="three-images"]')).toBeNull();
  });

  it("'content-features-list' lists its features", () => {
    renderIn(<Variant module="website-builder" entity="widget" row={row('content-features-list', { title: L('Included', 'Включено'), widgetsToFeatures: features.slice(0, 2).map((f, i) => link('feature', f, i)) })} />);
    const items = screen.getAllByRole('listitem');
    expect(items.map((li) => within(li).getByRole('heading').textContent)).toEqual(['Templates', 'Custom work']);
    expect(within(items[0]).getByText('Templates text')).toBeTruthy();
  });

  it("'content-features-vacancy-list' draws every feature as a vacancy", () => {
    renderIn(<Variant module="website-builder" entity="widget" row={row('content-features-vacancy-list', { widgetsToFeatures: [link('feature', feature('Designer', 'Дизайнер')), link('feature', vacancy, 1)] })} />);
    expect(screen.getAllByRole('button', { name: /View details/ })).toHaveLength(2);
  });

  it("'content-map' has an overlay that the first click dismisses", async () => {
    const user = userEvent.setup();
    renderIn(<Variant module="website-builder" entity="widget" row={row('content-map', { title: L('Visit us', 'Приходите') })} />);
    expect(screen.getByRole('img', { name: 'Map: Visit us' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Click to interact' }));
    expect(screen.queryByRole('button', { name: 'Click to interact' })).toBeNull();
    expect(document.querySelector('iframe')).toBeNull();
  });

  it("'content-divider' is a rule", () => {
    renderIn(<Variant module="website-builder" entity="widget" row={row('content-divider')} />);
    expect(screen.getByRole('separator')).toBeTruthy();
  });
});
