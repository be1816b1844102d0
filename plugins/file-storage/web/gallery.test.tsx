import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { PageProvider, Variant, type Expanded } from '../../../web/storefront/context.js';
import { registerPluginVariants } from '../../web.js';

beforeAll(registerPluginVariants);
afterEach(cleanup);

const show = (module: string, row: Expanded, language = 'en') =>
  render(
    <PageProvider value={{ language, languages: ['en', 'ru'], defaultLanguage: 'en', url: '/', params: {} }}>
      <Variant module={module} entity="widget" row={row} />
    </PageProvider>,
  );
const text = { title: { en: 'Downloads', ru: 'Загрузки' }, subtitle: { en: 'Everything in one place' } };

describe("module widgets' default variant", () => {
  it('file-storage: the widget text, then its files in order as a list', () => {
    const file = (n: number, name: string): Expanded => ({ id: `ff${n}`, variant: 'default', fileId: `f${n}`, file: { id: `f${n}`, variant: 'default', file: `/files/${name}`, mimeType: 'image/png', title: { en: name } } });
    show('file-storage', { id: 'w1', variant: 'default', ...text, widgetsToFiles: [file(1, 'one.png'), file(2, 'two.png')] }, 'ru');
    expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Загрузки');
    const items = screen.getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0].querySelector('img')?.getAttribute('src')).toBe('/files/one.png');
    expect(items[1].querySelector('img')?.getAttribute('src')).toBe('/files/two.png');
  });

  it('billing, agent and notification: the widget text as a section; nothing at all when it has none', () => {
    for (const module of ['billing', 'agent', 'notification']) {
      const { container, unmount } = show(module, { id: 'w2', variant: 'default', ...text });
      expect(screen.getByRole('heading', { level: 2 }).textContent, module).toBe('Downloads');
      expect(screen.getByText('Everything in one place')).toBeTruthy();
      expect(container.querySelector('section')).not.toBeNull();
      unmount();
      const empty = show(module, { id: 'w3', variant: 'default' });
      expect(empty.container.innerHTML, module).toBe('');
      empty.unmount();
    }
  });

  it('an unknown variant still renders nothing', () => {
    const { container } = show('billing', { id: 'w4', variant: 'no-such-variant', ...text });
    expect(container.innerHTML).toBe('');
  });
});
