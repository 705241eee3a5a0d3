import { formatUsd, yearlyPrice } from './pricing.js';

describe('yearlyPrice', () => {
  it('is twelve months at 20% off, rounded to whole dollars', () => {
    expect(yearlyPrice(99)).toBe(950); // 950.4
    expect(yearlyPrice(299)).toBe(2870); // 2870.4
    expect(yearlyPrice(999)).toBe(9590); // 9590.4
    expect(yearlyPrice(2499)).toBe(23990); // 23990.4
    expect(yearlyPrice(10.1)).toBe(97); // 96.96
  });
});

describe('formatUsd', () => {
  it('writes dollars with thousands separators', () => {
    expect(formatUsd(2499)).toBe('$2,499');
    expect(formatUsd(12.5, 2)).toBe('$12.50');
  });
});
