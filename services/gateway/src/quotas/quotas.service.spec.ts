import { crossings, quotaPeriod, secondsUntilNextPeriod } from './quotas.service.js';

describe('quota arithmetic', () => {
  it('reports the 80% and 100% thresholds once, when a change crosses them', () => {
    expect(crossings(0, 1, 1_000)).toEqual([]);
    expect(crossings(799, 800, 1_000)).toEqual(['quota_warning']);
    expect(crossings(800, 801, 1_000)).toEqual([]);
    expect(crossings(999, 1_000, 1_000)).toEqual(['quota_exceeded']);
    // A bulk request can jump over both at once.
    expect(crossings(10, 1_000, 1_000)).toEqual(['quota_warning', 'quota_exceeded']);
    // 80% of 5 is 4 names.
    expect(crossings(0, 4, 5)).toEqual(['quota_warning']);
  });

  it('counts months in UTC and says how long until the next one', () => {
    expect(quotaPeriod(new Date('2026-11-30T23:59:59Z'))).toBe('2026-11');
    expect(quotaPeriod(new Date('2026-12-01T00:00:00Z'))).toBe('2026-12');
    expect(secondsUntilNextPeriod(new Date('2026-11-30T23:59:00Z'))).toBe(60);
    expect(secondsUntilNextPeriod(new Date('2026-12-31T23:59:59.500Z'))).toBe(1);
  });
});
