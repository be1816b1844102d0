import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { renderToString } from 'react-dom/server';
import { register } from '../registry.js';
import { PageView, type PageData } from './page.js';
import { RECOVERY_KEY, recoveryBrowser, WIDGET_ERROR } from './errors.js';

const data = (over: Partial<PageData> = {}): PageData => ({
  context: { language: 'en', languages: ['en'], defaultLanguage: 'en', url: '/', params: {} },
  title: 'Home', meta: {}, before: [], content: [], after: [], ...over,
});
const block = (variant: string, module = 'test') => ({ id: `b-${variant}`, module, widget: { id: `w-${variant}`, variant } });

let reload: ReturnType<typeof vi.fn<() => void>>;
let revalidate: ReturnType<typeof vi.fn<() => Promise<undefined>>>;
beforeEach(() => {
  sessionStorage.clear();
  reload = vi.fn<() => void>();
  revalidate = vi.fn<() => Promise<undefined>>(async () => undefined);
  vi.spyOn(recoveryBrowser, 'reload').mockImplementation(reload);
  vi.spyOn(recoveryBrowser, 'revalidate').mockImplementation(revalidate);
  vi.spyOn(recoveryBrowser, 'path').mockReturnValue('/broken');
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('the global error screen after a failed server render', () => {
  it('the first time: revalidates, then reloads once; the mark stays for the path', async () => {
    render(<PageView data={data({ error: { status: 500 } })} />);
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    expect(revalidate).toHaveBeenCalledTimes(1);
    expect(revalidate.mock.invocationCallOrder[0]).toBeLessThan(reload.mock.invocationCallOrder[0]!);
    expect(sessionStorage.getItem(RECOVERY_KEY)).toBe('/broken');
    expect(screen.getByRole('alert').getAttribute('data-recovery')).toBe('reloading');
  });

  it("the second time: shows the message and 'Reload', and reloads only when asked", async () => {
    sessionStorage.setItem(RECOVERY_KEY, '/broken');
    const user = userEvent.setup();
    render(<PageView data={data({ error: { status: 500 } })} />);
    await waitFor(() => expect(screen.getByRole('alert').getAttribute('data-recovery')).toBe('shown'));
    expect(screen.getByText('Something went wrong')).toBeTruthy();
    expect(reload).not.toHaveBeenCalled();
    expect(revalidate).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Reload' }));
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('without session storage it never reloads by itself (it could not stop)', async () => {
    vi.spyOn(recoveryBrowser, 'storage').mockReturnValue(undefined);
    render(<PageView data={data({ error: { status: 500 } })} />);
    await waitFor(() => expect(screen.getByRole('alert').getAttribute('data-recovery')).toBe('shown'));
    expect(reload).not.toHaveBeenCalled();
  });

  it("a page that renders clears its path's mark", async () => {
    sessionStorage.setItem(RECOVERY_KEY, '/broken');
    render(<PageView data={data()} />);
    await waitFor(() => expect(sessionStorage.getItem(RECOVERY_KEY)).toBeNull());
  });

  it("the server markup already holds the message and a 'Reload' that works without scripts", () => {
    const html = renderToString(<PageView data={data({ error: { status: 500 } })} />);
    expect(html).toContain('data-recovery="idle"');
    expect(html).toMatch(/<form method="get">/);
    expect(html).toContain('Reload');
  });
});

describe('failures in the browser', () => {
  it("a widget that throws is replaced by 'Oh no! Something went wrong...'; the rest of the page stays", () => {
    register('test/widget/throws', () => {
      throw new Error('widget failed');
    });
    register('test/widget/fine', () => <p>Fine widget</p>);
    render(<PageView data={data({ content: [block('throws'), block('fine')] })} />);
    expect(screen.getByText(WIDGET_ERROR)).toBeTruthy();
    expect(screen.getByText('Fine widget')).toBeTruthy();
    expect(reload).not.toHaveBeenCalled();
  });

  it("a render failing outside any widget shows the global screen with its message and 'Reload', without reloading by itself", async () => {
    const malformed = { id: 'b-malformed', module: 'test', get widget(): never { throw new Error('The layout could not be drawn'); } };
    render(<PageView data={data({ before: [malformed] })} />);
    expect(await screen.findByText('The layout could not be drawn')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('alert').getAttribute('data-recovery')).toBe('shown'));
    expect(reload).not.toHaveBeenCalled();
  });

  it('an unknown variant renders nothing, on the server and in the browser', () => {
    const page = data({ content: [block('no-such-variant'), block('default', 'no-such-module')] });
    const { container } = render(<PageView data={page} />);
    // the main content holds nothing but the empty dock of the floating controls (web/storefront/floating.tsx)
    const main = container.querySelector('main')!;
    expect([...main.children].map((e) => e.getAttribute('data-floating-dock'))).toEqual(['true']);
    expect(main.textContent).toBe('');
    expect(renderToString(<PageView data={page} />)).toMatch(/<main id="main-content" tabindex="-1" class="flex-1 focus:outline-none"><div data-floating-dock="true" class="[^"]*"><\/div><\/main>/);
  });
});
