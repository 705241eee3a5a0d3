import { parseConfig } from '@vigil/platform';
import { envSchema } from '../env.js';
import { RateLimits } from './rate-limits.service.js';

describe('RateLimits (in memory, as with REDIS_URL unset)', () => {
  it('counts down per bucket, refuses past the limit with a reset within the minute, and keeps buckets apart', async () => {
    const limits = new RateLimits(parseConfig(envSchema, {}));
    const seen = [];
    for (let i = 0; i < 11; i++) seen.push(await limits.consume('client:a', 10));
    expect(seen.map((d) => d.remaining)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0]);
    expect(seen.map((d) => d.allowed)).toEqual([...Array(10).fill(true), false]);
    expect(seen[10]!.resetSeconds).toBeGreaterThan(0);
    expect(seen[10]!.resetSeconds).toBeLessThanOrEqual(60);
    expect((await limits.consume('client:b', 10)).remaining).toBe(9);
  });

  it('scales every limit by RATE_LIMIT_SCALE for load tests', async () => {
    const limits = new RateLimits(parseConfig(envSchema, { RATE_LIMIT_SCALE: '100' }));
    expect((await limits.consume('client:c', 10)).limit).toBe(1_000);
  });
});
