import { addMonth, calendarMonthAt, periodAt } from './periods.js';

const at = (iso: string) => new Date(iso);

describe('billing periods', () => {
  it('ends a month later on the same day, clamped to the last day of a short month', () => {
    expect(addMonth(at('2026-01-15T10:00:00Z'))).toEqual(at('2026-02-15T10:00:00Z'));
    expect(addMonth(at('2026-01-31T10:00:00Z'))).toEqual(at('2026-02-28T10:00:00Z'));
    expect(addMonth(at('2026-12-20T00:00:00Z'))).toEqual(at('2027-01-20T00:00:00Z'));
  });

  it('is the recorded period while it runs, and its successors once it has ended', () => {
    const recorded = { start: at('2026-10-20T09:30:00Z'), end: at('2026-11-20T09:30:00Z') };
    expect(periodAt(recorded, at('2026-11-20T09:29:59.999Z'))).toEqual(recorded);
    // The boundary belongs to the next period: [start, end).
    expect(periodAt(recorded, at('2026-11-20T09:30:00Z'))).toEqual({
      start: at('2026-11-20T09:30:00Z'),
      end: at('2026-12-20T09:30:00Z'),
    });
    expect(periodAt(recorded, at('2027-01-01T00:00:00Z'))).toEqual({
      start: at('2026-12-20T09:30:00Z'),
      end: at('2027-01-20T09:30:00Z'),
    });
  });

  it('gives clients without a subscription the UTC calendar month', () => {
    expect(calendarMonthAt(at('2026-11-30T23:59:59Z'))).toEqual({
      start: at('2026-11-01T00:00:00Z'),
      end: at('2026-12-01T00:00:00Z'),
    });
    expect(calendarMonthAt(at('2026-12-01T00:00:00Z'))).toEqual({
      start: at('2026-12-01T00:00:00Z'),
      end: at('2027-01-01T00:00:00Z'),
    });
  });
});
