import { crossings, quotaPeriod, secondsUntilPeriodEnd } from './quotas.service.js';

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

  it('keys the counter by the resolved billing period and says how long until it ends', () => {
    const client = { periodStart: '2026-11-20T09:30:00.000Z', periodEnd: '2026-12-20T09:30:00.000Z' };
    expect(quotaPeriod(client)).toBe('2026-11-20T09:30:00.000Z');
    expect(secondsUntilPeriodEnd(client, new Date('2026-12-20T09:29:00Z'))).toBe(60);
    expect(secondsUntilPeriodEnd(client, new Date('2026-12-20T09:29:59.500Z'))).toBe(1);
    // Past the end (the cached key is about to be refreshed): never 0 or negative.
    expect(secondsUntilPeriodEnd(client, new Date('2026-12-21T00:00:00Z'))).toBe(1);
  });
});
