import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { PageProvider, Variant, type Expanded } from '../../../web/storefront/context.js';
import { registerAnalyticWeb } from './index.js';
import { loadChunks } from '../../../web/registry.js';

beforeAll(async () => {
  registerAnalyticWeb();
  await loadChunks();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const widget: Expanded = { id: '11111111-0000-4000-8000-0000000000a1', variant: 'default', metric: 'page-view', title: { en: 'Visitors', ru: 'Посетители' } };
const show = (language = 'en') =>
  render(
    <PageProvider value={{ language, languages: ['en', 'ru'], defaultLanguage: 'en', url: '/', params: {} }}>
      <Variant module="analytic" entity="widget" row={widget} />
    </PageProvider>,
  );

describe('analytic/widget default', () => {
  it('asks its public value route and shows the total in the page language', async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify({ data: { metric: 'page-view', dimension: null, days: 7, total: 12345, series: [{ day: '2026-01-01', value: 5 }] } }), { status: 200 }));
    vi.stubGlobal('fetch', fetch);
    show('ru');
    expect(screen.getByText('Посетители')).toBeTruthy();
    expect(await screen.findByText(/за последние 7 дн\./)).toBeTruthy();
    expect(document.querySelector('[data-metric-total]')!.textContent).toBe(new Intl.NumberFormat('ru').format(12345));
    expect(fetch).toHaveBeenCalledWith(`/api/analytic/widgets/${widget.id}/value`, expect.anything());
  });

  it('shows a dash when the value cannot be had', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('{}', { status: 500 })));
    show();
    expect(await screen.findByText('—')).toBeTruthy();
  });
});
