import { addMonth } from '@vigil/proto';
import { prorate } from './proration.js';

const start = new Date('2026-03-01T00:00:00Z');
const end = new Date('2026-03-31T00:00:00Z'); // 30 days

describe('prorate', () => {
  it('charges the whole difference on the first moment of the period', () => {
    expect(prorate(99, 299, start, end, start)).toEqual({
      proratedCost: 200,
      proratedCents: 20_000,
      daysRemaining: 30,
      daysInPeriod: 30,
    });
  });

  it('counts a started day as remaining', () => {
    expect(prorate(99, 299, start, end, new Date('2026-03-01T00:00:01Z')).daysRemaining).toBe(30);
    expect(prorate(99, 299, start, end, new Date('2026-03-02T00:00:00Z')).daysRemaining).toBe(29);
  });

  it('charges one day in the last day and nothing at or after the end', () => {
    expect(prorate(99, 299, start, end, new Date('2026-03-30T23:59:59Z'))).toMatchObject({
      daysRemaining: 1,
      proratedCost: 6.67,
    });
    expect(prorate(99, 299, start, end, end)).toMatchObject({ daysRemaining: 0, proratedCost: 0 });
    expect(prorate(99, 299, start, end, new Date('2026-04-05T00:00:00Z'))).toMatchObject({
      daysRemaining: 0,
      proratedCost: 0,
    });
  });

  it('rounds to cents mid-period: (999 − 299) × 17 / 30 = 396.666… → 396.67', () => {
    expect(prorate(299, 999, start, end, new Date('2026-03-14T12:00:00Z'))).toMatchObject({
      daysRemaining: 17,
      proratedCost: 396.67,
      proratedCents: 39_667,
    });
  });

  it('treats a time before the period start as the start', () => {
    expect(prorate(999, 2_499, start, end, new Date('2026-02-20T00:00:00Z'))).toMatchObject({
      daysRemaining: 30,
      proratedCost: 1_500,
    });
  });

  it('uses the real length of February', () => {
    const feb = new Date('2026-02-01T00:00:00Z');
    expect(prorate(99, 2_499, feb, addMonth(feb), new Date('2026-02-15T00:00:00Z'))).toMatchObject({
      daysInPeriod: 28,
      daysRemaining: 14,
      proratedCost: 1_200,
    });
  });
});

describe('addMonth', () => {
  it('keeps the day of month and clamps to the end of shorter months', () => {
    expect(addMonth(new Date('2026-01-15T10:00:00Z')).toISOString()).toBe('2026-02-15T10:00:00.000Z');
    expect(addMonth(new Date('2026-01-31T00:00:00Z')).toISOString()).toBe('2026-02-28T00:00:00.000Z');
    expect(addMonth(new Date('2026-12-31T00:00:00Z')).toISOString()).toBe('2027-01-31T00:00:00.000Z');
  });
});
