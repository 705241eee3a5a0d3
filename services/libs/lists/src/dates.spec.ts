import { dateRange, parseDate, parseDateOrRange, partialDate, yearRange } from './dates.js';

describe('dates', () => {
  it('normalises the notations the lists use', () => {
    expect(parseDate('12 Jul 1986')).toBe('1986-07-12');
    expect(parseDate('Sep 1960')).toBe('1960-09');
    expect(parseDate('1986')).toBe('1986');
    expect(parseDate('1937-04-28')).toBe('1937-04-28');
    expect(parseDate('28/04/1937')).toBe('1937-04-28');
    expect(parseDate('06/19/2003', 'mdy')).toBe('2003-06-19');
    expect(parseDate('00/00/1980')).toBe('1980');
    expect(parseDate('00/06/1980')).toBe('1980-06');
    expect(parseDate('circa 1951')).toBe('1951');
    expect(parseDate('28.04.1937')).toBe('1937-04-28');
    expect(parseDate('4 September 2001.')).toBe('2001-09-04');
  });

  it('rejects what is not a date, and keeps only the valid part of an impossible one', () => {
    expect(parseDate('unknown')).toBeUndefined();
    expect(parseDate('')).toBeUndefined();
    expect(partialDate(1990, 2, 30)).toBe('1990-02');
    expect(partialDate(1990, 13)).toBe('1990');
  });

  it('expands ranges to what they pin down', () => {
    expect(parseDateOrRange('1960 to 1962')).toEqual(['1960', '1961', '1962']);
    expect(parseDateOrRange('01 Jan 1960 to 31 Dec 1962')).toEqual(['1960', '1961', '1962']);
    expect(parseDateOrRange('01 Feb 1975 to 28 Feb 1975')).toEqual(['1975-02']);
    expect(parseDateOrRange('Mar 1962 to Feb 1963')).toEqual(['1962', '1963']);
    expect(parseDateOrRange('circa 1975-1977')).toEqual(['1975', '1976', '1977']);
    expect(dateRange('1975-03-12', '1975-03-12')).toEqual(['1975-03-12']);
    expect(yearRange(1900, 1990)).toEqual(['1900', '1990']);
  });
});
