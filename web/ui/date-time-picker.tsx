import { useEffect, useRef, useState, type CSSProperties, type KeyboardEvent } from 'react';
import { DayPicker } from 'react-day-picker';
import 'react-day-picker/style.css';
import { Calendar, CalendarClock } from 'lucide-react';
import { Button } from './button.js';
import { cn } from './cn.js';
import { Input } from './input.js';

/** the one display and input format (spec section 9) */
export const DATE_TIME_FORMAT = 'DD.MM.YYYY HH:mm';
export const DATE_TIME_ERROR = `Use ${DATE_TIME_FORMAT}`;
/** the same for a date alone (a manifest's `date` field, stored as YYYY-MM-DD) */
export const DATE_FORMAT = 'DD.MM.YYYY';
export const DATE_ERROR = `Use ${DATE_FORMAT}`;
/** 00..23 */
export const HOURS: readonly number[] = Array.from({ length: 24 }, (_, i) => i);
/** 5-minute steps, 12 options: 00, 05, ..., 55 */
export const MINUTES: readonly number[] = Array.from({ length: 12 }, (_, i) => i * 5);

/** react-day-picker's own CSS is unlayered and sets its variables on .rdp-root, so override them inline */
const CALENDAR_THEME = {
  '--rdp-accent-color': 'var(--color-blue-600, #2563eb)',
  '--rdp-accent-background-color': 'var(--color-blue-50, #eff6ff)',
  '--rdp-day-height': '2.25rem',
  '--rdp-day-width': '2.25rem',
  '--rdp-day_button-height': '2.125rem',
  '--rdp-day_button-width': '2.125rem',
} as CSSProperties;

const STRICT = /^(\d{2})\.(\d{2})\.(\d{4}) (\d{2}):(\d{2})$/;
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * Parses exactly `DD.MM.YYYY HH:mm` (24-hour, local time). Anything else — other separators,
 * one-digit parts, surrounding spaces, trailing text, impossible dates such as 31.02 or hours
 * 24 / minutes 60 — gives undefined.
 */
export function parseDateTime(text: string): Date | undefined {
  const m = STRICT.exec(text);
  if (!m) return undefined;
  const [day, month, year, hours, minutes] = m.slice(1).map(Number) as [number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || hours > 23 || minutes > 59) return undefined;
  const date = new Date(2000, 0, 1, 0, 0, 0, 0);
  date.setFullYear(year, month - 1, day); // setFullYear: years 0000-0099 are not mapped to 19xx
  date.setHours(hours, minutes, 0, 0);
  // a day that does not exist rolls over into the next month: reject it
  if (date.getFullYear() !== year || date.getMonth() !== month - 1 || date.getDate() !== day) return undefined;
  return date;
}

/** `DD.MM.YYYY HH:mm` in local time; an invalid Date gives '' */
export function formatDateTime(date: Date): string {
  if (Number.isNaN(date.getTime())) return '';
  return `${pad(date.getDate())}.${pad(date.getMonth() + 1)}.${pad(date.getFullYear(), 4)} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

const STRICT_DATE = /^\d{2}\.\d{2}\.\d{4}$/;
/** Parses exactly `DD.MM.YYYY` (a real calendar day) as that day's local midnight; anything else gives undefined */
export function parseDate(text: string): Date | undefined {
  return STRICT_DATE.test(text) ? parseDateTime(`${text} 00:00`) : undefined;
}

/** `DD.MM.YYYY` of a date's local day; an invalid Date gives '' */
export function formatDate(date: Date): string {
  return formatDateTime(date).slice(0, 10);
}

/** the local day of a date as the API's date-only value, `YYYY-MM-DD`: no time zone moves it */
export function dayOf(date: Date): string {
  return `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** a `YYYY-MM-DD` value as that day's local midnight (never read as UTC, which is the day before west of Greenwich) */
function fromDay(value: string | null | undefined): Date | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value ?? '');
  return m ? parseDateTime(`${m[3]}.${m[2]}.${m[1]} 00:00`) : undefined;
}

/** an ISO string (or nothing) as a Date, undefined when missing or unparsable */
function toDate(value: string | null | undefined): Date | undefined {
  if (!value) return undefined;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

export interface DateTimePickerProps {
  /** id of the text field, so that a <label htmlFor> names it */
  id: string;
  /** an ISO date-time string; with `dateOnly` a date `YYYY-MM-DD` */
  value: string | null | undefined;
  /** an ISO string (Date#toISOString), with `dateOnly` the day picked as `YYYY-MM-DD`; undefined when cleared */
  onChange: (value: string | undefined) => void;
  /** a date alone: typed `DD.MM.YYYY`, the panel a calendar only, the value `YYYY-MM-DD` as is (no time zone) */
  dateOnly?: boolean;
  disabled?: boolean;
  /** told whether the typed text is refused, at once (a form blocks saving while it is) */
  onValidityChange?: (invalid: boolean) => void;
}

/**
 * A date-time field: type `DD.MM.YYYY HH:mm` (committed on blur or Enter), or open the panel
 * with a calendar, 24 hour buttons and 12 minute buttons (5-minute steps). Escape or a click
 * outside closes the panel and focus returns to the button that opened it.
 */
export function DateTimePicker({ id, value, onChange, disabled, onValidityChange, dateOnly }: DateTimePickerProps) {
  const current = dateOnly ? fromDay(value) : toDate(value);
  const format = dateOnly ? formatDate : formatDateTime;
  const valueOf = (date: Date | undefined) => date && (dateOnly ? dayOf(date) : date.toISOString());
  const choose = dateOnly ? 'Choose date' : 'Choose date and time';
  const shown = current ? format(current) : '';
  const [text, setText] = useState(shown);
  const [invalid, setInvalidState] = useState(false);
  const validity = useRef(onValidityChange);
  validity.current = onValidityChange;
  const setInvalid = (next: boolean) => {
    setInvalidState(next);
    validity.current?.(next);
  };
  const [open, setOpen] = useState(false);
  const [month, setMonth] = useState<Date>(() => current ?? new Date());
  const rootRef = useRef<HTMLDivElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const panelId = `${id}-panel`;
  const errorId = `${id}-error`;

  // the value changed from outside (or after our own onChange): show it
  useEffect(() => {
    setText(shown);
    setInvalid(false);
  }, [shown]);

  // a click outside closes the panel
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (rootRef.current && !rootRef.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  const emit = (date: Date | undefined) => {
    setText(date ? format(date) : '');
    setInvalid(false);
    const next = valueOf(date);
    if (next !== valueOf(current)) onChange(next);
  };

  const commit = () => {
    const typed = text.trim();
    if (typed === shown) return setInvalid(false); // unchanged: keep the stored value (and its seconds) as is
    if (typed === '') return emit(undefined);
    const parsed = (dateOnly ? parseDate : parseDateTime)(typed);
    if (parsed) emit(parsed);
    else setInvalid(true);
  };

  const close = () => {
    setOpen(false);
    triggerRef.current?.focus();
  };

  const onPanelKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'Escape') return;
    e.preventDefault();
    e.stopPropagation(); // do not also close an enclosing dialog
    close();
  };

  /** the date the hour / minute / day buttons start from: the value, or today at 00:00 */
  const base = () => {
    if (current) return new Date(current);
    const d = new Date();
    d.setHours(0, 0, 0, 0);
    return d;
  };

  const setHour = (h: number) => {
    const d = base();
    d.setHours(h, d.getMinutes(), 0, 0);
    emit(d);
  };
  const setMinute = (m: number) => {
    const d = base();
    d.setMinutes(m, 0, 0);
    emit(d);
  };
  const setDay = (day: Date) => {
    if (dateOnly) return emit(day);
    const time = base();
    const d = new Date(day);
    d.setHours(time.getHours(), time.getMinutes(), 0, 0);
    emit(d);
  };

  const timeButton = (n: number, pressed: boolean, onClick: () => void) => (
    <button
      key={n}
      type="button"
      aria-pressed={pressed}
      onClick={onClick}
      className={cn(
        'h-7 rounded font-mono text-xs transition-colors focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-blue-600',
        pressed ? 'bg-blue-600 text-white' : 'bg-slate-100 text-slate-800 hover:bg-slate-200',
      )}
    >
      {pad(n)}
    </button>
  );

  return (
    <div
      ref={rootRef}
      className="relative flex flex-col gap-1"
      onBlur={(e) => {
        // Tab moved focus out of the field and its panel: close the panel
        if (open && e.relatedTarget && !rootRef.current?.contains(e.relatedTarget as Node)) setOpen(false);
      }}
    >
      <div className="flex gap-2">
        <Input
          id={id}
          value={text}
          disabled={disabled}
          placeholder={dateOnly ? DATE_FORMAT : DATE_TIME_FORMAT}
          inputMode="numeric"
          autoComplete="off"
          aria-invalid={invalid || undefined}
          aria-describedby={invalid ? errorId : undefined}
          className={cn(invalid && 'border-red-600 focus:border-red-600 focus:ring-red-600/20')}
          onChange={(e) => setText(e.target.value)}
          onBlur={commit}
          onKeyDown={(e) => {
            if (e.key !== 'Enter') return;
            if (text.trim() !== shown) e.preventDefault(); // commit first instead of submitting a form
            commit();
          }}
        />
        <Button
          ref={triggerRef}
          variant="outline"
          size="icon"
          disabled={disabled}
          aria-label={choose}
          aria-haspopup="dialog"
          aria-expanded={open}
          aria-controls={open ? panelId : undefined}
          onClick={() => {
            if (!open) setMonth(current ?? new Date());
            setOpen(!open);
          }}
          className="shrink-0"
        >
          {dateOnly ? <Calendar aria-hidden className="h-4 w-4" /> : <CalendarClock aria-hidden className="h-4 w-4" />}
        </Button>
      </div>
      {invalid && (
        <p id={errorId} className="text-xs text-red-600">
          {dateOnly ? DATE_ERROR : DATE_TIME_ERROR}
        </p>
      )}
      {open && (
        <div
          id={panelId}
          role="dialog"
          aria-label={choose}
          data-escape-layer=""
          onKeyDown={onPanelKeyDown}
          className="absolute left-0 top-full z-50 mt-1 flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-3 shadow-lg"
        >
          <div className="flex flex-col gap-3 sm:flex-row">
            <DayPicker
              mode="single"
              required
              autoFocus
              weekStartsOn={1}
              selected={current}
              onSelect={setDay}
              month={month}
              onMonthChange={setMonth}
              className="text-sm"
              style={CALENDAR_THEME}
            />
            {!dateOnly && <div className="flex w-56 flex-col gap-2">
              <div role="group" aria-label="Hour" className="grid grid-cols-6 gap-1">
                {HOURS.map((h) => timeButton(h, current?.getHours() === h, () => setHour(h)))}
              </div>
              <div role="group" aria-label="Minute" className="grid grid-cols-6 gap-1">
                {MINUTES.map((m) => timeButton(m, current?.getMinutes() === m, () => setMinute(m)))}
              </div>
            </div>}
          </div>
          <div className="flex justify-end gap-2">
            <Button variant="ghost" size="sm" onClick={() => { emit(undefined); close(); }}>
              Clear
            </Button>
            <Button variant="secondary" size="sm" onClick={close}>
              Done
            </Button>
          </div>
        </div>
      )}
    </div>
  );
}
