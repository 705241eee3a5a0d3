import type { PartialDate } from './entity.js';

// Dates as the lists write them, normalised to YYYY, YYYY-MM or YYYY-MM-DD. A range that
// covers whole years ("DOB 1960 to 1962", UN "BETWEEN 1960 1962", "01 Jan 1960 to 31 Dec
// 1962") becomes every year in it, so a query's year can be tested by plain membership.

const MONTHS: Readonly<Record<string, number>> = {
  jan: 1,
  january: 1,
  feb: 2,
  february: 2,
  mar: 3,
  march: 3,
  apr: 4,
  april: 4,
  may: 5,
  jun: 6,
  june: 6,
  jul: 7,
  july: 7,
  aug: 8,
  august: 8,
  sep: 9,
  sept: 9,
  september: 9,
  oct: 10,
  october: 10,
  nov: 11,
  november: 11,
  dec: 12,
  december: 12,
};

/** Longest year range that is expanded year by year; wider ones keep only their ends. */
const MAX_EXPANDED_YEARS = 25;

const pad = (n: number): string => String(n).padStart(2, '0');

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysInMonth(year: number, month: number): number {
  if (month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)) return 29;
  return DAYS_IN_MONTH[month - 1] ?? 31;
}

/** Build a partial date from numbers, or undefined when they do not form a real date. */
export function partialDate(year: number | undefined, month?: number, day?: number): PartialDate | undefined {
  if (year === undefined || !Number.isInteger(year) || year < 1000 || year > 2999) return undefined;
  if (!month) return String(year);
  if (!Number.isInteger(month) || month < 1 || month > 12) return String(year);
  if (!day) return `${year}-${pad(month)}`;
  if (!Number.isInteger(day) || day < 1 || day > daysInMonth(year, month)) return `${year}-${pad(month)}`;
  return `${year}-${pad(month)}-${pad(day)}`;
}

/** Every year from `from` to `to`, or just the two ends when the span is implausibly wide. */
export function yearRange(from: number, to: number): PartialDate[] {
  if (to < from) [from, to] = [to, from];
  if (to - from > MAX_EXPANDED_YEARS) return [String(from), String(to)];
  const years: PartialDate[] = [];
  for (let y = from; y <= to; y++) years.push(String(y));
  return years;
}

type Parts = { year: number; month?: number; day?: number };

function toParts(date: PartialDate): Parts {
  const [y, m, d] = date.split('-').map(Number);
  return { year: y ?? 0, month: m, day: d };
}

/** A range between two partial dates, reduced to what it actually pins down. */
export function dateRange(from: PartialDate, to: PartialDate): PartialDate[] {
  if (from === to) return [from];
  const a = toParts(from);
  const b = toParts(to);
  // One whole month: "01 Feb 1975 to 28 Feb 1975".
  if (
    a.year === b.year &&
    a.month &&
    a.month === b.month &&
    (a.day ?? 1) === 1 &&
    (b.day === undefined || b.day === daysInMonth(b.year, b.month ?? 1))
  ) {
    return [partialDate(a.year, a.month) ?? String(a.year)];
  }
  return yearRange(a.year, b.year);
}

/** "YYYY-MM-DD", "YYYY-MM", "YYYY" (possibly with a time part) → partial date. */
export function parseIsoDate(text: string | undefined | null): PartialDate | undefined {
  if (!text) return undefined;
  const m = /^\s*(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?(?:[T ]\d{1,2}:\d{2}\S*)?\s*$/.exec(text);
  if (!m) return undefined;
  return partialDate(Number(m[1]), m[2] ? Number(m[2]) : undefined, m[3] ? Number(m[3]) : undefined);
}

export type DayOrder = 'dmy' | 'mdy';

/**
 * One date in any of the lists' notations: "12 Jul 1986", "Jul 1986", "1986", "1986-07-12",
 * "12/07/1986" (day first unless `order` is 'mdy'), "00/00/1980" (unknown parts as zeros),
 * "12.07.1986", "circa 1951" (kept as the year).
 */
export function parseDate(text: string | undefined | null, order: DayOrder = 'dmy'): PartialDate | undefined {
  if (!text) return undefined;
  const t = text
    .trim()
    .replace(/^(?:circa|ca\.?|c\.|approx(?:imately)?\.?|about|around|before|after)\s+/i, '')
    .replace(/[.,;]+$/, '')
    .trim();
  if (!t) return undefined;
  const iso = parseIsoDate(t);
  if (iso) return iso;

  let m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(t);
  if (m) {
    const first = Number(m[1]);
    const second = Number(m[2]);
    const [day, month] = order === 'dmy' ? [first, second] : [second, first];
    return partialDate(Number(m[3]), month || undefined, day || undefined);
  }
  m = /^(\d{1,2})[/.-](\d{4})$/.exec(t);
  if (m) return partialDate(Number(m[2]), Number(m[1]) || undefined);
  m = /^(\d{1,2})(?:st|nd|rd|th)?[\s-]+([A-Za-z]+)\.?[\s-]+(\d{4})$/.exec(t);
  if (m) {
    const month = MONTHS[(m[2] ?? '').toLowerCase()];
    if (month) return partialDate(Number(m[3]), month, Number(m[1]));
  }
  m = /^([A-Za-z]+)\.?\s+(\d{1,2}),?\s+(\d{4})$/.exec(t);
  if (m) {
    const month = MONTHS[(m[1] ?? '').toLowerCase()];
    if (month) return partialDate(Number(m[3]), month, Number(m[2]));
  }
  m = /^([A-Za-z]+)\.?[\s-]+(\d{4})$/.exec(t);
  if (m) {
    const month = MONTHS[(m[1] ?? '').toLowerCase()];
    if (month) return partialDate(Number(m[2]), month);
  }
  return undefined;
}

/**
 * A date field that may hold a range ("1960 to 1962", "01 Jan 1960 to 31 Dec 1962",
 * "circa 1975-1977", "Mar 1962 - Feb 1963") or a single date. Returns [] when nothing parses.
 */
export function parseDateOrRange(text: string | undefined | null, order: DayOrder = 'dmy'): PartialDate[] {
  if (!text) return [];
  const t = text.trim().replace(/[.;]+$/, '');
  const single = parseDate(t, order);
  if (single) return [single];
  const parts = t
    .replace(/^(?:circa|ca\.?|approx(?:imately)?\.?|between)\s+/i, '')
    .split(/\s+(?:to|and|-|–)\s+|(?<=\d{4})\s*[-–]\s*(?=\d{4}\b)/i);
  if (parts.length === 2) {
    const from = parseDate(parts[0], order);
    const to = parseDate(parts[1], order);
    if (from && to) return dateRange(from, to);
  }
  return [];
}
