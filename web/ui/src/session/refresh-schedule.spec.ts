import { nextRefreshDelay, PERIODIC_REFRESH_MS } from './refresh-schedule.js';

describe('nextRefreshDelay', () => {
  const now = Date.UTC(2026, 0, 1);

  it('refreshes a minute before a 15-minute token expires', () => {
    expect(nextRefreshDelay(now / 1000 + 15 * 60, now)).toBe(14 * 60 * 1000);
  });

  it('never waits longer than the 45-minute period', () => {
    expect(nextRefreshDelay(now / 1000 + 3 * 3600, now)).toBe(PERIODIC_REFRESH_MS);
  });

  it('refreshes a short-lived token at three quarters of its life, not every second', () => {
    expect(nextRefreshDelay(now / 1000 + 30, now)).toBe(22_500);
    expect(nextRefreshDelay(now / 1000 + 60, now)).toBe(45_000);
  });

  it('refreshes almost at once when the token is already about to expire', () => {
    expect(nextRefreshDelay(now / 1000 + 1, now)).toBe(1_000);
    expect(nextRefreshDelay(now / 1000 - 5, now)).toBe(1_000);
  });
});
