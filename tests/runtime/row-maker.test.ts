import { describe, expect, it } from 'vitest';
import { getTableColumns } from 'drizzle-orm';
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { rowMaker } from '../../runtime/crud/repository.js';

const table = sqliteTable('t', {
  id: text('id'),
  title: text('title', { mode: 'json' }),
  createdAt: integer('created_at', { mode: 'timestamp_ms' }),
  published: integer('published', { mode: 'boolean' }),
  count: integer('count'),
});
const columns = Object.entries(getTableColumns(table)) as [string, never][];
/** what drizzle makes of the same driver values, column by column */
const drizzleRow = (values: unknown[]) => Object.fromEntries(columns.map(([name, col], i) => [name, values[i] === null ? null : (col as { mapFromDriverValue(v: unknown): unknown }).mapFromDriverValue(values[i])]));

describe('rowMaker: rows of one shape from driver values', () => {
  const values = [['r1', '{"en":"Hello","ru":"Привет"}', 1764000000123, 1, 7], ['r2', null, null, 0, null]];

  it('makes what drizzle makes of each column (JSON text, dates, booleans, plain values, nulls), keys in column order', () => {
    const make = rowMaker(columns);
    for (const v of values) {
      const row = make(v);
      expect(row).toEqual(drizzleRow(v));
      expect(Object.keys(row)).toEqual(['id', 'title', 'createdAt', 'published', 'count']);
    }
    expect(make(values[0]).createdAt).toBeInstanceOf(Date);
    expect(make(values[0]).published).toBe(true);
    expect(make(values[0])).not.toBe(make(values[0]));
  });

  it('gives a name that is not a plain identifier the plain loop, never code: the same row, and no prototype set', () => {
    const odd = [...columns.slice(0, 2), ['__proto__', columns[1][1]], ['a-b', columns[4][1]]] as [string, never][];
    const row = rowMaker(odd)(['r1', '{"en":"x"}', '{"polluted":true}', 6]);
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect((row as { polluted?: boolean }).polluted).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(row, '__proto__')?.value).toEqual({ polluted: true });
    expect(row.id).toBe('r1');
    expect(row.title).toEqual({ en: 'x' });
    expect(row['a-b']).toBe(6);
  });
});
