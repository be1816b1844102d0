/** the last millisecond of 9999-12-31: past it (and before 1970) `isoDate` leaves the text to Date itself */
const LAST_FOUR_DIGIT_MS = 253402300799999;

/** '00' … '99' and '000' … '999', made once: no small string per date part */
const TWO = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));
const THREE = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));

/**
 * The text JSON gives a Date (`toISOString`: `2026-11-24T01:02:03.004Z`), or null for an invalid date, as
 * `JSON.stringify` would write it. Written out from the time value for dates from 1970 to 9999 (the civil date from
 * a day count, H. Hinnant's algorithm): V8's toISOString formats through a C printf, about 2.5 times as long, and a
 * list of 20 rows has 40 dates. Any other date goes to toISOString.
 */
export function isoDate(date: Date): string | null {
  return isoDateOfTime(date.getTime());
}

/** `isoDate` of a time value (milliseconds since 1970, as SQLite keeps a date-time), without a Date in between */
export function isoDateOfTime(ms: number): string | null {
  if (!(ms >= 0 && ms <= LAST_FOUR_DIGIT_MS)) return Number.isNaN(ms) ? null : new Date(ms).toISOString();
  const days = Math.floor(ms / 86400000);
  let rest = ms - days * 86400000;
  // days since 0000-03-01, in 400-year eras (each 146,097 days)
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const dayOfEra = z - era * 146097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1;
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const hours = Math.floor(rest / 3600000);
  rest -= hours * 3600000;
  const minutes = Math.floor(rest / 60000);
  rest -= minutes * 60000;
  const seconds = Math.floor(rest / 1000);
  const millis = rest - seconds * 1000;
  return `${year}-${TWO[month]}-${TWO[day]}T${TWO[hours]}:${TWO[minutes]}:${TWO[seconds]}.${THREE[millis]}Z`;
}
