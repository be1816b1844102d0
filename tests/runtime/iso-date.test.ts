import { describe, expect, it } from 'vitest';
import { isoDate } from '../../runtime/crud/iso-date.js';

const DAY = 86400000;

describe('isoDate: the text a date is sent as', () => {
  it('is toISOString for every day from 1970 to 9999, at a spread of times of day', () => {
    const last = Date.UTC(9999, 11, 31);
    const wrong: string[] = [];
    for (let day = 0; day * DAY <= last; day++) {
      const ms = day * DAY + ((day * 7919) % DAY);
      if (isoDate(new Date(ms)) !== new Date(ms).toISOString()) wrong.push(new Date(ms).toISOString());
    }
    expect(wrong).toEqual([]);
  });

  it('is toISOString at the edges: midnight, the last millisecond, leap days, the end of 9999, and past the fast range', () => {
    const cases = [
      0, 1, 999, DAY - 1, DAY, Date.UTC(1972, 1, 29, 12), Date.UTC(2000, 1, 29, 23, 59, 59, 999), Date.UTC(2000, 2, 1), Date.UTC(2100, 1, 28, 23, 59, 59, 999),
      Date.UTC(2100, 2, 1), Date.UTC(2026, 10, 24, 1, 2, 3, 4), Date.UTC(9999, 11, 31, 23, 59, 59, 999),
      // outside 1970..9999: Date's own text (six-digit years, dates before the epoch)
      Date.UTC(9999, 11, 31, 23, 59, 59, 999) + 1, -1, -DAY * 365 * 3000, 8.64e15, -8.64e15,
    ];
    for (const ms of cases) expect(isoDate(new Date(ms))).toBe(new Date(ms).toISOString());
  });

  it('is what JSON.stringify writes for random dates, and null for an invalid one', () => {
    const wrong: number[] = [];
    for (let i = 0; i < 20000; i++) {
      const d = new Date(Math.floor((Math.random() * 2 - 0.3) * 253402300799999));
      if (JSON.stringify(isoDate(d)) !== JSON.stringify(d)) wrong.push(d.getTime());
    }
    expect(wrong).toEqual([]);
    expect(isoDate(new Date(Number.NaN))).toBeNull();
    expect(JSON.stringify({ at: isoDate(new Date('not a date')) })).toBe(JSON.stringify({ at: new Date('not a date') }));
  });
});
