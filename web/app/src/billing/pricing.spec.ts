import { formatUsd } from './pricing.js';

describe('formatUsd', () => {
  it('writes dollars with thousands separators', () => {
    expect(formatUsd(2499)).toBe('$2,499');
    expect(formatUsd(12.5, 2)).toBe('$12.50');
  });
});
