import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { DateTimePicker, dayOf, formatDateTime, parseDate, parseDateTime } from './date-time-picker.js';

afterEach(cleanup);

describe('parseDateTime', () => {
  it('accepts DD.MM.YYYY HH:mm as local time', () => {
    const d = parseDateTime('05.03.2026 09:05')!;
    expect(d).toBeInstanceOf(Date);
    expect([d.getFullYear(), d.getMonth(), d.getDate(), d.getHours(), d.getMinutes(), d.getSeconds(), d.getMilliseconds()]).toEqual([2026, 2, 5, 9, 5, 0, 0]);
    expect(parseDateTime('29.02.2024 23:59')?.getDate()).toBe(29); // a leap day
    expect(parseDateTime('31.12.2026 00:00')?.getMonth()).toBe(11);
  });

  it.each([
    '5.3.2026 9:05',
    '31.02.2026 10:00',
    '29.02.2026 10:00',
    '31.04.2026 10:00',
    '00.03.2026 10:00',
    '05.13.2026 10:00',
    '05.00.2026 10:00',
    '05.03.2026 24:00',
    '05.03.2026 10:60',
    '2026-03-05 10:00',
    ' 05.03.2026 10:00',
    '05.03.2026 10:00 extra',
    '05.03.26 10:00',
    '05/03/2026 10:00',
    '05.03.2026T10:00',
    '05.03.2026 10:00:00',
    '05.03.2026 1000',
    '０５.03.2026 10:00',
    '',
  ])('rejects %j', (text) => {
    expect(parseDateTime(text)).toBeUndefined();
  });
});

describe('formatDateTime', () => {
  it('formats local time with zero padding', () => {
    expect(formatDateTime(new Date(2026, 2, 5, 9, 5))).toBe('05.03.2026 09:05');
    expect(formatDateTime(new Date('invalid'))).toBe('');
  });

  it('round-trips with parseDateTime', () => {
    for (const text of ['05.03.2026 09:05', '31.12.1999 23:59', '01.01.2030 00:00', '29.02.2024 12:30']) {
      expect(formatDateTime(parseDateTime(text)!)).toBe(text);
    }
    const date = new Date(2026, 6, 14, 18, 45);
    expect(parseDateTime(formatDateTime(date))!.getTime()).toBe(date.getTime());
  });
});

function Host({ initial, onChange }: { initial?: string; onChange: (v: string | undefined) => void }) {
  const [value, setValue] = useState<string | undefined>(initial);
  return (
    <>
      <label htmlFor="starts">Starts at</label>
      <DateTimePicker
        id="starts"
        value={value}
        onChange={(v) => {
          onChange(v);
          setValue(v);
        }}
      />
      <button type="button">elsewhere</button>
    </>
  );
}

const field = () => screen.getByLabelText('Starts at') as HTMLInputElement;

describe('DateTimePicker', () => {
  it('shows the value as DD.MM.YYYY HH:mm', () => {
    render(<Host initial={new Date(2026, 2, 5, 9, 5).toISOString()} onChange={() => {}} />);
    expect(field().value).toBe('05.03.2026 09:05');
  });

  it('typing a valid value calls onChange with the ISO string (on Enter and on blur)', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<Host onChange={onChange} />);
    await user.type(field(), '05.03.2026 09:05{Enter}');
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(onChange).toHaveBeenLastCalledWith(new Date(2026, 2, 5, 9, 5).toISOString());
    await user.clear(field());
    await user.type(field(), '31.12.2026 23:55');
    await user.click(screen.getByRole('button', { name: 'elsewhere' }));
    expect(onChange).toHaveBeenLastCalledWith(new Date(2026, 11, 31, 23, 55).toISOString());
    expect(field().getAttribute('aria-invalid')).toBeNull();
  });

  it('typing an invalid value shows the error and does not call onChange', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<Host initial={new Date(2026, 2, 5, 9, 5).toISOString()} onChange={onChange} />);
    await user.clear(field());
    await user.type(field(), '31.02.2026 10:00{Enter}');
    expect(onChange).not.toHaveBeenCalled();
    expect(field().getAttribute('aria-invalid')).toBe('true');
    const error = screen.getByText('Use DD.MM.YYYY HH:mm');
    expect(field().getAttribute('aria-describedby')).toBe(error.id);
    expect(field().className).toContain('border-red-600');
    // fixing it clears the error
    await user.clear(field());
    await user.type(field(), '01.03.2026 10:00{Enter}');
    expect(onChange).toHaveBeenLastCalledWith(new Date(2026, 2, 1, 10, 0).toISOString());
    expect(screen.queryByText('Use DD.MM.YYYY HH:mm')).toBeNull();
  });

  it('emptying the field clears the value; leaving it unchanged does not call onChange', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<Host initial="2026-03-05T09:05:30.123Z" onChange={onChange} />);
    await user.click(field());
    await user.tab();
    expect(onChange).not.toHaveBeenCalled(); // the seconds of the stored value survive a mere blur
    await user.clear(field());
    await user.tab();
    expect(onChange).toHaveBeenLastCalledWith(undefined);
  });

  it('hour 14 and minute 30 buttons set 14:30 keeping the date; 24 hour and 12 minute buttons', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<Host initial={new Date(2026, 2, 5, 9, 5).toISOString()} onChange={onChange} />);
    const trigger = screen.getByRole('button', { name: 'Choose date and time' });
    expect(trigger.getAttribute('aria-expanded')).toBe('false');
    await user.click(trigger);
    expect(trigger.getAttribute('aria-expanded')).toBe('true');
    const panel = screen.getByRole('dialog', { name: 'Choose date and time' });
    expect(screen.getByRole('grid')).toBeTruthy(); // the calendar
    const hours = within(within(panel).getByRole('group', { name: 'Hour' })).getAllByRole('button');
    const minutes = within(within(panel).getByRole('group', { name: 'Minute' })).getAllByRole('button');
    expect(hours.map((b) => b.textContent)).toEqual(Array.from({ length: 24 }, (_, i) => String(i).padStart(2, '0')));
    expect(minutes).toHaveLength(12);
    expect(minutes.map((b) => b.textContent)).toEqual(['00', '05', '10', '15', '20', '25', '30', '35', '40', '45', '50', '55']);
    expect(hours.filter((b) => b.getAttribute('aria-pressed') === 'true').map((b) => b.textContent)).toEqual(['09']);
    expect(minutes.filter((b) => b.getAttribute('aria-pressed') === 'true').map((b) => b.textContent)).toEqual(['05']);

    await user.click(hours[14]!);
    await user.click(within(panel).getByRole('button', { name: '30' }));
    expect(onChange).toHaveBeenLastCalledWith(new Date(2026, 2, 5, 14, 30).toISOString());
    expect(field().value).toBe('05.03.2026 14:30');
    expect(hours[14]!.getAttribute('aria-pressed')).toBe('true');
    expect(hours[9]!.getAttribute('aria-pressed')).toBe('false');
    expect(minutes[6]!.getAttribute('aria-pressed')).toBe('true');
  });

  it('choosing a calendar day keeps the time', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<Host initial={new Date(2026, 2, 5, 14, 30).toISOString()} onChange={onChange} />);
    await user.click(screen.getByRole('button', { name: 'Choose date and time' }));
    await user.click(screen.getByRole('button', { name: /March 10th, 2026/ }));
    expect(onChange).toHaveBeenLastCalledWith(new Date(2026, 2, 10, 14, 30).toISOString());
    expect(field().value).toBe('10.03.2026 14:30');
  });

  it('Escape closes the panel and returns focus; Clear empties the value', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<Host initial={new Date(2026, 2, 5, 14, 30).toISOString()} onChange={onChange} />);
    const trigger = screen.getByRole('button', { name: 'Choose date and time' });
    await user.click(trigger);
    expect(screen.getByRole('dialog').contains(document.activeElement)).toBe(true); // the calendar took focus
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(trigger);

    await user.click(trigger);
    await user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(onChange).toHaveBeenLastCalledWith(undefined);
    expect(field().value).toBe('');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('a click outside closes the panel', async () => {
    const user = userEvent.setup();
    render(<Host onChange={() => {}} />);
    await user.click(screen.getByRole('button', { name: 'Choose date and time' }));
    expect(screen.getByRole('dialog')).toBeTruthy();
    await user.click(document.body);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('disabled disables the field and the button', () => {
    render(<DateTimePicker id="d" value={null} onChange={() => {}} disabled />);
    expect((screen.getByRole('textbox') as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Choose date and time' }) as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('DateTimePicker dateOnly (a date field)', () => {
  function DayHost({ initial, onChange }: { initial?: string; onChange: (v: string | undefined) => void }) {
    const [value, setValue] = useState<string | undefined>(initial);
    return (
      <>
        <label htmlFor="due">Due</label>
        <DateTimePicker dateOnly id="due" value={value} onChange={(v) => (onChange(v), setValue(v))} />
      </>
    );
  }
  const due = () => screen.getByLabelText('Due') as HTMLInputElement;

  it('shows YYYY-MM-DD as DD.MM.YYYY and sends the day typed as YYYY-MM-DD, never moved by the time zone', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<DayHost initial="2026-03-01" onChange={onChange} />);
    expect(due().value).toBe('01.03.2026');
    expect(due().placeholder).toBe('DD.MM.YYYY');
    await user.click(due());
    await user.tab();
    expect(onChange).not.toHaveBeenCalled();
    await user.clear(due());
    await user.type(due(), '31.12.0099{Enter}');
    expect(onChange).toHaveBeenLastCalledWith('0099-12-31');
    expect(due().value).toBe('31.12.0099');
  });

  it('refuses a time, another order or a day that does not exist, saying the form', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<DayHost onChange={onChange} />);
    for (const text of ['15.03.2026 10:00', '2026-03-15', '03/15/2026', '29.02.2026']) {
      await user.clear(due());
      await user.type(due(), `${text}{Enter}`);
      expect(due().getAttribute('aria-invalid'), text).toBe('true');
    }
    expect(onChange).not.toHaveBeenCalled();
    expect(screen.getByText('Use DD.MM.YYYY')).toBeTruthy();
    expect(parseDate('29.02.2024')?.getDate()).toBe(29);
    expect(dayOf(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
  });
});
