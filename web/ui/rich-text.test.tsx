import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { toast } from 'sonner';
import { COPY_RESET_MS, CopyButton, RichTextEditor, RichTextView, isSafeHref, linkAction, parseRichText, plainText, toEditorDoc } from './rich-text.js';

vi.mock('sonner', () => ({ toast: Object.assign(vi.fn(), { success: vi.fn(), error: vi.fn() }) }));

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.clearAllMocks();
});

const para = (text: string) => ({ type: 'paragraph', content: [{ type: 'text', text }] });

const SAMPLE = JSON.stringify({
  type: 'doc',
  content: [
    { type: 'heading', attrs: { level: 3 }, content: [{ type: 'text', text: 'Title three' }] },
    {
      type: 'paragraph',
      content: [
        { type: 'text', text: 'Some ' },
        { type: 'text', text: 'bold', marks: [{ type: 'bold' }] },
        { type: 'text', text: ' and ' },
        { type: 'text', text: 'a link', marks: [{ type: 'link', attrs: { href: 'https://example.com/x' } }] },
      ],
    },
  ],
});

describe('parseRichText', () => {
  it('returns a stored doc as is', () => {
    expect(parseRichText(SAMPLE)).toEqual(JSON.parse(SAMPLE));
  });

  it('turns invalid JSON, non-doc JSON and plain text into paragraphs (one per line)', () => {
    expect(parseRichText('{"type":"doc",')).toEqual({ type: 'doc', content: [para('{"type":"doc",')] });
    expect(parseRichText('first line\nsecond line')).toEqual({ type: 'doc', content: [para('first line'), para('second line')] });
    expect(parseRichText('a\r\n\r\nb')).toEqual({ type: 'doc', content: [para('a'), { type: 'paragraph' }, para('b')] });
    expect(parseRichText('{"type":"paragraph"}')).toEqual({ type: 'doc', content: [para('{"type":"paragraph"}')] });
    expect(parseRichText('42')).toEqual({ type: 'doc', content: [para('42')] });
    expect(parseRichText('{"type":"doc","content":"x"}').content).toEqual([para('{"type":"doc","content":"x"}')]);
  });

  it('gives an empty doc for empty values', () => {
    for (const v of ['', null, undefined]) expect(parseRichText(v)).toEqual({ type: 'doc', content: [{ type: 'paragraph' }] });
  });

  it('plainText separates blocks with newlines and keeps inline text together', () => {
    expect(plainText(JSON.parse(SAMPLE))).toBe('Title three\nSome bold and a link');
  });
});

describe('link helpers', () => {
  it('isSafeHref (the one allow-list of link targets) allows http(s), mailto, tel and relative urls only', () => {
    for (const ok of ['https://a.b', 'HTTP://a.b/c?d', 'mailto:x@y.z', 'tel:+100', '/path', '/', 'relative/path', '#top']) expect(isSafeHref(ok)).toBe(true);
    for (const bad of ['javascript:alert(1)', 'JavaScript:alert(1)', ' javascript:alert(1)', 'java\tscript:alert(1)', 'data:text/html,x', '//evil.com', '/\\evil.com', '\\evil.com', 'vbscript:x', '', 42, null]) {
      expect(isSafeHref(bad)).toBe(false);
    }
  });

  it('linkAction: cancel does nothing, empty removes, safe sets, unsafe is refused', () => {
    expect(linkAction(null)).toEqual({ type: 'none' });
    expect(linkAction('')).toEqual({ type: 'unset' });
    expect(linkAction('   ')).toEqual({ type: 'unset' });
    expect(linkAction(' https://x.y ')).toEqual({ type: 'set', href: 'https://x.y' });
    expect(linkAction('javascript:alert(1)')).toEqual({ type: 'invalid' });
  });

  it('toEditorDoc falls back to plain text for docs the editor schema rejects', () => {
    const odd = JSON.stringify({ type: 'doc', content: [{ type: 'widget', content: [{ type: 'text', text: 'kept' }] }, para('too')] });
    expect(toEditorDoc(odd)).toEqual({ type: 'doc', content: [para('kept'), para('too')] });
    expect(toEditorDoc(SAMPLE)).toEqual(JSON.parse(SAMPLE));
  });
});

describe('RichTextView', () => {
  it('round trip: heading h3, bold and link render as elements with the right text', () => {
    const { container } = render(<RichTextView value={SAMPLE} />);
    expect(container.querySelector('h3')?.textContent).toBe('Title three');
    expect(container.querySelector('strong')?.textContent).toBe('bold');
    const a = container.querySelector('a')!;
    expect(a.textContent).toBe('a link');
    expect(a.getAttribute('href')).toBe('https://example.com/x');
    expect(a.getAttribute('rel')).toBe('noopener noreferrer');
    expect(container.querySelector('p')?.textContent).toBe('Some bold and a link');
  });

  it('renders unsafe links as plain text and never renders stored HTML', () => {
    const doc = {
      type: 'doc',
      content: [
        {
          type: 'paragraph',
          content: [
            { type: 'text', text: 'click me', marks: [{ type: 'link', attrs: { href: 'javascript:alert(1)' } }] },
            { type: 'text', text: '<img src=x onerror=alert(1)>' },
          ],
        },
        { type: 'iframe', attrs: { src: 'https://evil' }, content: [{ type: 'text', text: 'inner text' }] },
        { type: 'heading', attrs: { level: 9 }, content: [{ type: 'text', text: 'bad level' }] },
        { type: 'script', content: [] },
      ],
    };
    const { container } = render(<RichTextView value={JSON.stringify(doc)} />);
    expect(container.querySelector('a')).toBeNull();
    expect(container.querySelector('img, iframe, script, h9')).toBeNull();
    expect(container.textContent).toContain('click me');
    expect(container.textContent).toContain('<img src=x onerror=alert(1)>');
    expect(container.textContent).toContain('inner text');
    expect([...container.querySelectorAll('p')].map((p) => p.textContent)).toContain('bad level');
  });

  it('renders lists, blockquote, code, breaks and rules from the allow-list', () => {
    const doc = {
      type: 'doc',
      content: [
        { type: 'orderedList', attrs: { start: 3 }, content: [{ type: 'listItem', content: [para('item')] }] },
        { type: 'bulletList', content: [{ type: 'listItem', content: [para('dot')] }] },
        { type: 'blockquote', content: [para('quoted')] },
        { type: 'codeBlock', content: [{ type: 'text', text: 'const x = 1;' }] },
        { type: 'paragraph', content: [{ type: 'text', text: 'a' }, { type: 'hardBreak' }, { type: 'text', text: 'b', marks: [{ type: 'italic' }, { type: 'strike' }, { type: 'code' }] }] },
        { type: 'horizontalRule' },
        { type: 'paragraph', content: [{ type: 'text', text: 'mail', marks: [{ type: 'link', attrs: { href: 'mailto:a@b.c' } }] }, { type: 'text', text: 'rel', marks: [{ type: 'link', attrs: { href: '/blog' } }] }] },
      ],
    };
    const { container } = render(<RichTextView value={JSON.stringify(doc)} />);
    expect(container.querySelector('ol')?.getAttribute('start')).toBe('3');
    expect(container.querySelector('ol li')?.textContent).toBe('item');
    expect(container.querySelector('ul li')?.textContent).toBe('dot');
    expect(container.querySelector('blockquote')?.textContent).toBe('quoted');
    expect(container.querySelector('pre code')?.textContent).toBe('const x = 1;');
    expect(container.querySelector('br')).not.toBeNull();
    expect(container.querySelector('em s code')?.textContent).toBe('b');
    expect(container.querySelector('hr')).not.toBeNull();
    expect([...container.querySelectorAll('a')].map((a) => [a.getAttribute('href'), a.getAttribute('target')])).toEqual([['mailto:a@b.c', null], ['/blog', null]]);
  });

  it('shows invalid JSON as plain text', () => {
    const { container } = render(<RichTextView value={'not json {\nsecond'} />);
    expect([...container.querySelectorAll('p')].map((p) => p.textContent)).toEqual(['not json {', 'second']);
  });
});

describe('CopyButton', () => {
  const mockClipboard = (writeText: (t: string) => Promise<void>) => {
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: vi.fn(writeText) }, configurable: true });
    return navigator.clipboard.writeText as ReturnType<typeof vi.fn>;
  };
  beforeEach(() => vi.useFakeTimers());

  it('copies, shows the check for exactly 2000 ms, then the copy icon again', async () => {
    const writeText = mockClipboard(() => Promise.resolve());
    const { container } = render(<CopyButton text="secret text" />);
    expect(container.querySelector('[data-icon="copy"]')).not.toBeNull();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy to clipboard' }));
    });
    expect(writeText).toHaveBeenCalledWith('secret text');
    expect(toast.success).toHaveBeenCalledWith('Text copied to clipboard');
    expect(container.querySelector('[data-icon="check"]')).not.toBeNull();
    expect(screen.getByRole('button').getAttribute('aria-label')).toBe('Copied');
    act(() => vi.advanceTimersByTime(COPY_RESET_MS - 1));
    expect(container.querySelector('[data-icon="check"]')).not.toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(container.querySelector('[data-icon="check"]')).toBeNull();
    expect(container.querySelector('[data-icon="copy"]')).not.toBeNull();
    expect(COPY_RESET_MS).toBe(2000);
  });

  it('shows the failure toast and no check when copying fails', async () => {
    mockClipboard(() => Promise.reject(new Error('denied')));
    const { container } = render(<CopyButton text="x" />);
    await act(async () => {
      fireEvent.click(screen.getByRole('button'));
    });
    expect(toast.error).toHaveBeenCalledWith('Failed to copy text to clipboard');
    expect(toast.success).not.toHaveBeenCalled();
    expect(container.querySelector('[data-icon="check"]')).toBeNull();
  });
});

function EditorHost({ initial, onChange }: { initial: string | null; onChange: (v: string) => void }) {
  const [value, setValue] = useState<string | null>(initial);
  return (
    <RichTextEditor
      id="body"
      label="Body"
      value={value}
      onChange={(v) => {
        onChange(v);
        setValue(v);
      }}
    />
  );
}

describe('RichTextEditor', () => {
  it('renders the initial value with its formatting and a toolbar', () => {
    const { container } = render(<EditorHost initial={SAMPLE} onChange={() => {}} />);
    const box = screen.getByRole('textbox', { name: 'Body' });
    expect(box.id).toBe('body');
    expect(box.getAttribute('contenteditable')).toBe('true');
    expect(container.querySelector('h3')?.textContent).toBe('Title three');
    expect(container.querySelector('strong')?.textContent).toBe('bold');
    expect(container.querySelector('a')?.getAttribute('href')).toBe('https://example.com/x');
    const toolbar = screen.getByRole('toolbar', { name: 'Body formatting' });
    const names = [...toolbar.querySelectorAll('button')].map((b) => b.getAttribute('aria-label'));
    expect(names).toEqual(['Bold', 'Italic', 'Heading 1', 'Heading 2', 'Heading 3', 'Heading 4', 'Heading 5', 'Heading 6', 'Bullet list', 'Ordered list', 'Link', 'Undo', 'Redo', 'Copy to clipboard']);
  });

  it('renders plain-text values as paragraphs', () => {
    const { container } = render(<EditorHost initial={'line one\nline two'} onChange={() => {}} />);
    expect([...container.querySelectorAll('[role=textbox] p')].map((p) => p.textContent)).toEqual(['line one', 'line two']);
  });

  it('toolbar buttons change the doc, report aria-pressed and emit JSON', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<EditorHost initial={JSON.stringify({ type: 'doc', content: [para('hello')] })} onChange={onChange} />);
    const h2 = screen.getByRole('button', { name: 'Heading 2' });
    expect(h2.getAttribute('aria-pressed')).toBe('false');
    await user.click(h2);
    const doc = JSON.parse(onChange.mock.lastCall![0] as string);
    expect(doc.content[0]).toMatchObject({ type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'hello' }] });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Heading 2' }).getAttribute('aria-pressed')).toBe('true'));
    expect((screen.getByRole('button', { name: 'Undo' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('Link uses the prompt: a safe url sets the link, an empty string removes it, cancel does nothing', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    const { container } = render(<EditorHost initial={JSON.stringify({ type: 'doc', content: [para('hello')] })} onChange={onChange} />);
    const prompt = vi.fn<(message?: string, defaultValue?: string) => string | null>();
    vi.stubGlobal('prompt', prompt); // happy-dom has no window.prompt
    const link = () => screen.getByRole('button', { name: 'Link' });

    prompt.mockReturnValueOnce('/docs');
    await user.click(link()); // empty selection: the url is inserted as linked text
    expect(prompt).toHaveBeenLastCalledWith('URL', '');
    await waitFor(() => expect(container.querySelector('[role=textbox] a')?.getAttribute('href')).toBe('/docs'));
    expect(onChange.mock.lastCall![0]).toContain('"href":"/docs"');
    const calls = onChange.mock.calls.length;

    prompt.mockReturnValueOnce(null);
    await user.click(link()); // cursor is inside the link: the prompt shows the current url
    expect(prompt).toHaveBeenLastCalledWith('URL', '/docs');
    expect(onChange.mock.calls.length).toBe(calls);

    prompt.mockReturnValueOnce('javascript:alert(1)');
    await user.click(link());
    expect(toast.error).toHaveBeenCalled();
    expect(container.querySelector('[role=textbox] a')?.getAttribute('href')).toBe('/docs');

    prompt.mockReturnValueOnce('');
    await user.click(link());
    await waitFor(() => expect(container.querySelector('[role=textbox] a')).toBeNull());
    expect(onChange.mock.lastCall![0]).not.toContain('"link"');
  });

  it('disabled makes the editor read-only and disables the toolbar', () => {
    render(<RichTextEditor id="ro" value={SAMPLE} onChange={() => {}} disabled />);
    expect(screen.getByRole('textbox').getAttribute('contenteditable')).toBe('false');
    expect((screen.getByRole('button', { name: 'Bold' }) as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('RichTextEditor opens any valid stored document', () => {
  it('a doc written by another client, keys in another order (text before marks) or with its own spacing, opens with its text and marks', async () => {
    const foreign = '{"type":"doc","content":[{"type":"paragraph","content":[{"type":"text","text":"Hello","marks":[{"type":"bold"}]}]}]}';
    const spaced = JSON.stringify(JSON.parse(foreign), null, 2).replace(/"marks": \[/, '"marks" : [');
    for (const value of [foreign, spaced]) {
      const onChange = vi.fn();
      const { container, unmount } = render(<RichTextEditor id="body" label="Body" value={value} onChange={onChange} />);
      await waitFor(() => expect(container.querySelector('[role="textbox"] strong')?.textContent).toBe('Hello'));
      // opening it is not an edit
      expect(onChange).not.toHaveBeenCalled();
      unmount();
    }
  });
});

describe('RichTextView on a page', () => {
  it("writes internal links with the page's language prefix (spec §2), as every other link of the page; external and prefixed ones stay", async () => {
    const { PageProvider } = await import('../storefront/context.js');
    const link = (href: string, text: string) => ({ type: 'text', text, marks: [{ type: 'link', attrs: { href } }] });
    const value = JSON.stringify({ type: 'doc', content: [{ type: 'paragraph', content: [link('/ecommerce', 'shop'), link('https://example.com/x', 'out'), link('/ru/blog', 'blog'), link('mailto:a@example.com', 'mail'), link('#top', 'top')] }] });
    const hrefs = (language: string) => {
      const { container, unmount } = render(
        <PageProvider value={{ language, languages: ['en', 'ru'], defaultLanguage: 'en', url: '/', params: {} }}>
          <RichTextView value={value} />
        </PageProvider>,
      );
      const found = [...container.querySelectorAll('a')].map((a) => a.getAttribute('href'));
      unmount();
      return found;
    };
    expect(hrefs('ru')).toEqual(['/ru/ecommerce', 'https://example.com/x', '/ru/blog', 'mailto:a@example.com', '#top']);
    // the same text drawn on an English page (kept per language: not the Russian tree again)
    expect(hrefs('en')).toEqual(['/ecommerce', 'https://example.com/x', '/ru/blog', 'mailto:a@example.com', '#top']);
    expect(hrefs('ru')[0]).toBe('/ru/ecommerce');
    // outside a page (the admin) as stored
    const { container } = render(<RichTextView value={value} />);
    expect(container.querySelector('a')?.getAttribute('href')).toBe('/ecommerce');
  });
});
