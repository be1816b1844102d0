import { useState } from 'react';
import { describe, expect, it, vi, afterEach } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { LocalizedInput, type LocalizedValue } from './localized-input.js';

afterEach(cleanup);

/** a controlled host that records every onChange */
function Host({ initial, onChange, multiline }: { initial?: LocalizedValue | null; onChange: (v: Record<string, string>) => void; multiline?: boolean }) {
  const [value, setValue] = useState<LocalizedValue | null | undefined>(initial);
  return (
    <>
      <label htmlFor="title">Title</label>
      <LocalizedInput
        id="title"
        value={value}
        languages={['en', 'ru']}
        multiline={multiline}
        onChange={(v) => {
          onChange(v);
          setValue(v);
        }}
      />
    </>
  );
}

describe('LocalizedInput', () => {
  it('renders one tab per language, upper-cased, the first selected', () => {
    render(<Host initial={null} onChange={() => {}} />);
    const tabs = screen.getAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(['EN', 'RU']);
    expect(tabs[0]!.getAttribute('aria-selected')).toBe('true');
    expect(tabs[1]!.getAttribute('aria-selected')).toBe('false');
    expect(screen.getByRole('tabpanel').getAttribute('aria-labelledby')).toBe(tabs[0]!.id);
    expect(screen.getByLabelText('Title').tagName).toBe('INPUT');
  });

  it('typing in EN, switching to RU and typing gives both languages', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<Host onChange={onChange} />);
    await user.type(screen.getByLabelText('Title'), 'Hello');
    await user.click(screen.getByRole('tab', { name: /^RU/ }));
    expect(screen.getByRole('tab', { name: /^RU/ }).getAttribute('aria-selected')).toBe('true');
    const field = screen.getByLabelText('Title') as HTMLInputElement;
    expect(field.value).toBe('');
    expect(field.lang).toBe('ru');
    await user.type(field, 'Привет');
    expect(onChange).toHaveBeenLastCalledWith({ en: 'Hello', ru: 'Привет' });
    // switching back shows the EN text again
    await user.click(screen.getByRole('tab', { name: /^EN/ }));
    expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('Hello');
  });

  it('marks the tabs of languages that have text', () => {
    render(<Host initial={{ ru: 'Текст' }} onChange={() => {}} />);
    const [en, ru] = screen.getAllByRole('tab');
    expect(en!.hasAttribute('data-filled')).toBe(false);
    expect(ru!.hasAttribute('data-filled')).toBe(true);
    expect(ru!.textContent).toContain('has text');
  });

  it('arrow keys, Home and End move between tabs (wrapping) with a roving tabindex', async () => {
    const user = userEvent.setup();
    render(<Host initial={{ en: 'a', ru: 'б' }} onChange={() => {}} />);
    const [en, ru] = screen.getAllByRole('tab');
    expect(en!.tabIndex).toBe(0);
    expect(ru!.tabIndex).toBe(-1);
    en!.focus();
    await user.keyboard('{ArrowRight}');
    expect(ru!.getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(ru);
    expect(ru!.tabIndex).toBe(0);
    expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('б');
    await user.keyboard('{ArrowRight}');
    expect(en!.getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(en);
    await user.keyboard('{ArrowLeft}');
    expect(ru!.getAttribute('aria-selected')).toBe('true');
    await user.keyboard('{Home}');
    expect(en!.getAttribute('aria-selected')).toBe('true');
    await user.keyboard('{End}');
    expect(ru!.getAttribute('aria-selected')).toBe('true');
    // Tab from the selected tab reaches the text field
    await user.tab();
    expect(document.activeElement).toBe(screen.getByLabelText('Title'));
  });

  it('emptying a language removes its key and keeps the others', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<Host initial={{ en: 'Hi', ru: 'Привет', de: 'Hallo' }} onChange={onChange} />);
    await user.clear(screen.getByLabelText('Title'));
    const last = onChange.mock.lastCall![0] as Record<string, string>;
    expect(last).toEqual({ ru: 'Привет', de: 'Hallo' });
    expect('en' in last).toBe(false);
    expect(screen.getByRole('tab', { name: /^EN/ }).hasAttribute('data-filled')).toBe(false);
  });

  it('renders a textarea when multiline and disables the field when disabled', () => {
    const { rerender } = render(<Host multiline onChange={() => {}} />);
    expect(screen.getByLabelText('Title').tagName).toBe('TEXTAREA');
    rerender(<LocalizedInput id="x" value={undefined} onChange={() => {}} languages={['en']} disabled />);
    expect((screen.getByRole('textbox') as HTMLInputElement).disabled).toBe(true);
  });
});
