import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { RichTextEditor } from './rich-text.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const para = (text: string) => ({ type: 'paragraph', content: [{ type: 'text', text }] });

function Host({ onChange }: { onChange: (v: string) => void }) {
  const [value, setValue] = useState<string>(JSON.stringify({ type: 'doc', content: [para('hello')] }));
  return (
    <RichTextEditor
      id="body"
      label="Body"
      linkEditor="inline"
      value={value}
      onChange={(v) => {
        onChange(v);
        setValue(v);
      }}
    />
  );
}

describe('the inline link editor', () => {
  it('adds, edits and removes a link without the browser’s prompt; internal links open in the same tab', async () => {
    const prompt = vi.fn();
    vi.stubGlobal('prompt', prompt);
    const onChange = vi.fn();
    const { container } = render(<Host onChange={onChange} />);
    const link = () => container.querySelector('[role=textbox] a');

    await userEvent.click(screen.getByRole('button', { name: 'Link' }));
    const editor = screen.getByRole('group', { name: 'Link' });
    const url = within(editor).getByLabelText('URL');
    expect(document.activeElement).toBe(url);
    await userEvent.type(url, '/docs{Enter}');
    await waitFor(() => expect(link()?.getAttribute('href')).toBe('/docs'));
    expect(screen.queryByRole('group', { name: 'Link' })).toBeNull();
    const mark = (JSON.parse(onChange.mock.lastCall![0]).content[0].content as { marks?: { attrs: Record<string, unknown> }[] }[]).find((n) => n.marks)!.marks![0]!;
    expect(mark.attrs).toMatchObject({ href: '/docs', target: null });

    // the cursor in the link: the editor shows its url, to change it
    await userEvent.click(screen.getByRole('button', { name: 'Link' }));
    const again = within(screen.getByRole('group', { name: 'Link' })).getByLabelText('URL') as HTMLInputElement;
    expect(again.value).toBe('/docs');
    await userEvent.clear(again);
    await userEvent.type(again, 'javascript:alert(1){Enter}');
    expect(screen.getByText('Use an http(s), mailto or /relative URL')).toBeTruthy();
    expect(again.getAttribute('aria-invalid')).toBe('true');
    await userEvent.clear(again);
    await userEvent.type(again, 'https://example.com{Enter}');
    await waitFor(() => expect(link()?.getAttribute('href')).toBe('https://example.com'));
    expect(onChange.mock.lastCall![0]).toContain('"target":"_blank"');

    // Escape closes only the link editor
    await userEvent.click(screen.getByRole('button', { name: 'Link' }));
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('group', { name: 'Link' })).toBeNull();

    // Remove link (an empty url does the same, as the spec's prompt)
    await userEvent.click(screen.getByRole('button', { name: 'Link' }));
    await userEvent.click(screen.getByRole('button', { name: 'Remove link' }));
    await waitFor(() => expect(link()).toBeNull());
    expect(prompt).not.toHaveBeenCalled();
  });
});
