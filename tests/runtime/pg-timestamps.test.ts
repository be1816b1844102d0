import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { PgTimestamp } from 'drizzle-orm/pg-core';
import { timestampFromPg } from '../../runtime/db/pg.js';
import { dateOf, dateTimeOf } from '../../engine/fields/index.js';

/**
 * PostgreSQL's text of a timestamp is read by its parts (runtime/db/pg.ts): `new Date(text)`, drizzle's own reading,
 * took `0050-06-15 12:00:00+00` for 1950. Checked on fixed texts, on every kind of text PostgreSQL itself writes
 * (offsets with seconds, BC, years past 9999, in several session time zones), and against Date over random instants.
 */
describe('timestampFromPg', () => {
  it('reads the years 0001 to 0099 as themselves, and every part of the text', () => {
    for (const [text, iso] of [
      ['0050-06-15 12:00:00+00', '0050-06-15T12:00:00.000Z'],
      ['0001-01-01 00:00:00+00', '0001-01-01T00:00:00.000Z'],
      ['0099-12-31 23:59:59.999+00', '0099-12-31T23:59:59.999Z'],
      ['0004-02-29 00:00:00+00', '0004-02-29T00:00:00.000Z'],
      ['0100-03-01 00:00:00+00', '0100-03-01T00:00:00.000Z'],
      ['2026-01-01 10:00:00.5+05:30', '2026-01-01T04:30:00.500Z'],
      ['2026-01-01 10:00:00.12-03', '2026-01-01T13:00:00.120Z'],
      ['2026-01-01 10:00:00.123456+00', '2026-01-01T10:00:00.123Z'],
      ['0001-01-01 00:17:30+00:17:30', '0001-01-01T00:00:00.000Z'],
      ['0001-01-01 00:00:00-04:56:02', '0001-01-01T04:56:02.000Z'],
      ['2026-07-01 12:00:00', '2026-07-01T12:00:00.000Z'],
      ['9999-12-31 23:59:59.999+00', '9999-12-31T23:59:59.999Z'],
      ['10000-01-01 00:00:00+00', '+010000-01-01T00:00:00.000Z'],
      ['0001-12-31 23:00:00+00 BC', '0000-12-31T23:00:00.000Z'],
      ['0001-02-29 00:00:00+00 BC', '0000-02-29T00:00:00.000Z'],
      ['0002-01-01 00:00:00+00 BC', '-000001-01-01T00:00:00.000Z'],
    ] as const) {
      expect(timestampFromPg(text).toISOString(), text).toBe(iso);
    }
    expect(Number.isNaN(timestampFromPg('infinity').getTime())).toBe(true);
  });

  it('is what drizzle reads a timestamp column with', () => {
    const read = (PgTimestamp.prototype as unknown as { mapFromDriverValue(v: unknown): unknown }).mapFromDriverValue;
    expect((read('0050-06-15 12:00:00+00') as Date).toISOString()).toBe('0050-06-15T12:00:00.000Z');
    const date = new Date(0);
    expect(read(date)).toBe(date);
  });

  it('agrees with Date on random instants of the years 0001 to 9999, written as PostgreSQL writes them', () => {
    const first = Date.parse('0001-01-01T00:00:00Z');
    const last = Date.parse('9999-12-31T23:59:59.999Z');
    let seed = 12345;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    for (let i = 0; i < 5000; i++) {
      const ms = Math.floor(first + random() * (last - first));
      const iso = new Date(ms).toISOString();
      const offsetMinutes = Math.floor(random() * 27 * 60) - 12 * 60;
      const local = new Date(ms + offsetMinutes * 60000).toISOString();
      const sign = offsetMinutes < 0 ? '-' : '+';
      const abs = Math.abs(offsetMinutes);
      const text = `${local.slice(0, 10)} ${local.slice(11, 23)}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
      if (!/^\d{4}-/.test(local)) continue;
      expect(timestampFromPg(text).toISOString(), text).toBe(iso);
      // and the one rule reads the same instant from its ISO text
      expect(dateTimeOf(iso)?.getTime(), iso).toBe(ms);
      expect(dateOf(iso.slice(0, 10)), iso).toBe(iso.slice(0, 10));
    }
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)('reads what PostgreSQL writes, in any session time zone (local mean time offsets with seconds, BC, past 9999)', async () => {
    const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL, types: { getTypeParser: () => (v: string) => v } as unknown as pg.CustomTypesConfig });
    await client.connect();
    try {
      const instants = [
        '0001-01-01T00:00:00Z', '0001-06-15T12:00:00.123Z', '0050-06-15T12:00:00Z', '0099-12-31T23:59:59.999Z', '0100-01-01T00:00:00Z',
        '1200-02-29T12:00:00Z', '1582-10-10T00:00:00Z', '1883-11-18T16:59:59.5Z', '1900-01-01T00:00:00Z', '1969-12-31T23:59:59.999Z',
        '1970-01-01T00:00:00Z', '2026-03-29T01:30:00Z', '2026-10-25T00:30:00.007Z', '9999-12-31T23:59:59.999Z',
      ];
      for (const zone of ['UTC', 'Europe/Amsterdam', 'America/St_Johns', 'Asia/Kolkata', 'Pacific/Chatham', 'America/New_York', 'Africa/Monrovia']) {
        await client.query(`SET TIME ZONE '${zone}'`);
        const { rows } = await client.query<{ t: string; ms: string }>(
          `SELECT t::text AS t, (extract(epoch FROM t) * 1000)::bigint::text AS ms FROM unnest($1::timestamptz(3)[]) AS t
           UNION ALL SELECT t::text, (extract(epoch FROM t) * 1000)::bigint::text FROM unnest(ARRAY['0001-12-31 23:00:00+00 BC', '0044-03-15 12:00:00+00 BC', '10000-01-01 00:00:00+00', '200000-12-31 23:59:59+00']::timestamptz[]) AS t`,
          [instants],
        );
        for (const { t, ms } of rows) expect(timestampFromPg(t).getTime(), `${zone}: ${t}`).toBe(Number(ms));
      }
      // a timestamp without time zone is read as UTC, as drizzle reads one
      const { rows } = await client.query<{ t: string }>(`SELECT '0050-06-15 12:00:00.25'::timestamp(3)::text AS t`);
      expect(timestampFromPg(rows[0].t).toISOString()).toBe('0050-06-15T12:00:00.250Z');
    } finally {
      await client.end();
    }
  });
});
