import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import type { FieldInfo } from '../api.js';
import { Cell, displayDate, displayDateTime } from './cell.js';

afterEach(cleanup);

const field = (kind: string): FieldInfo => ({ name: 'x', kind, required: false, secret: false, common: false, unique: false, widget: 'text' }) as FieldInfo;

describe('table cells', () => {
  it('shows a date-only value as DD.MM.YYYY, like a date-time’s day', () => {
    const { container } = render(<Cell field={field('date')} value="2026-03-15" language="en" />);
    expect(container.textContent).toBe('15.03.2026');
    expect(displayDate('0050-01-02')).toBe('02.01.0050');
    expect(displayDate('not a date')).toBe('not a date');
    expect(displayDateTime('2026-03-15T10:30:00')).toBe('15.03.2026 10:30');
  });
});
