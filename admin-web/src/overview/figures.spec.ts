import { formatErrorRate, formatFigure, formatP95, formatPercent, formatRate } from './figures.js';

describe('overview figures', () => {
  it('says Unavailable for a count nobody gave, and prints 0 as 0', () => {
    expect(formatFigure(null)).toBe('Unavailable');
    expect(formatFigure(0)).toBe('0');
    expect(formatFigure(12345)).toBe('12,345');
  });

  it('prints rates, latencies and error shares at a readable precision', () => {
    expect([formatRate(0), formatRate(0.004), formatRate(1.234), formatRate(42.6)]).toEqual([
      '0/s',
      '<0.01/s',
      '1.23/s',
      '43/s',
    ]);
    expect([formatP95(null), formatP95(12.4), formatP95(2500)]).toEqual(['—', '12 ms', '2.50 s']);
    expect([formatErrorRate(0), formatErrorRate(0.0004), formatErrorRate(0.125)]).toEqual(['0%', '<0.1%', '12.5%']);
    expect([formatPercent(100), formatPercent(83.3)]).toEqual(['100%', '83.3%']);
  });
});
