import { RequestWindow, quantile } from './metrics.js';

const BOUNDS = [0.01, 0.1, 1];

describe('quantile (as histogram_quantile)', () => {
  test('interpolates within the bucket that holds the rank', () => {
    // 100 observations: 50 under 10 ms, 50 between 10 and 100 ms; p95 is 90% into the second bucket.
    expect(quantile([50, 50, 0, 0], BOUNDS, 0.95)).toBeCloseTo(0.01 + 0.09 * 0.9, 6);
  });

  test('answers the largest finite bound for ranks in +Inf, and 0 without observations', () => {
    expect(quantile([0, 0, 0, 3], BOUNDS, 0.95)).toBe(1);
    expect(quantile([0, 0, 0, 0], BOUNDS, 0.95)).toBe(0);
  });
});

describe('RequestWindow', () => {
  const start = Date.parse('2026-01-01T00:00:00Z');

  test('answers requests, rate, p95 and error rate since the snapshot that opens the window', () => {
    const w = new RequestWindow(BOUNDS, 100, start);
    for (let i = 0; i < 10; i++) w.observe(0.5, false); // before the window
    w.snapshot(start + 60_000);
    for (let i = 0; i < 19; i++) w.observe(0.005, false);
    w.observe(2, true);
    const s = w.summary(60, start + 120_000);
    expect(s).toMatchObject({ windowSeconds: 60, requests: 20, errors: 1, requestsPerSecond: 0.3333, errorRate: 0.05 });
    expect(s.p95LatencyMs).toBeCloseTo(10, 3); // the 19th of 20 is the last of the first bucket
  });

  test('covers less than asked while the process is younger than the window, and nothing when idle', () => {
    const w = new RequestWindow(BOUNDS, 100, start);
    expect(w.summary(3600, start + 30_000)).toMatchObject({ windowSeconds: 30, requests: 0, p95LatencyMs: null, errorRate: 0 });
    w.observe(0.05, false);
    expect(w.summary(3600, start + 30_000)).toMatchObject({ requests: 1, requestsPerSecond: 0.0333 });
  });

  test('keeps a bounded number of snapshots', () => {
    const w = new RequestWindow(BOUNDS, 3, start);
    for (let m = 1; m <= 10; m++) {
      w.observe(0.05, false);
      w.snapshot(start + m * 60_000);
    }
    // Only the last three minutes are kept: a 24 h window covers what is left.
    expect(w.summary(86_400, start + 10 * 60_000)).toMatchObject({ windowSeconds: 120, requests: 2 });
  });
});
