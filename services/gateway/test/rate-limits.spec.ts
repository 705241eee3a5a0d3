// Rate limits against the real Redis, two replicas in one process (each its own connection and
// chunks): far from the limit a request is spent from a chunk in memory; however callers race
// across replicas, the window never lets more than the limit through; the headers a caller sees
// from one replica count down exactly as before.
import { parseConfig } from '@vigil/platform';
import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { envSchema } from '../src/env.js';
import { RateLimits } from '../src/rate-limits/rate-limits.service.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const config = parseConfig(envSchema, { DATABASE_URL: 'postgres://unused@127.0.0.1/unused', REDIS_URL });
const replicas: RateLimits[] = [];
const redis = new Redis(REDIS_URL);

/** A replica whose Redis connection is up (without an offline queue, earlier calls fall back to memory). */
async function replica() {
  const limits = new RateLimits(config);
  replicas.push(limits);
  await new Promise((r) => setTimeout(r, 300));
  return limits;
}

afterAll(async () => {
  await Promise.all(replicas.map((r) => r.onApplicationShutdown()));
  redis.disconnect();
});

describe('rate limits shared through Redis, spent from chunks', () => {
  it('lets exactly the limit through in one window when 16 callers race across two replicas', async () => {
    const [a, b] = [await replica(), await replica()];
    const bucket = `client:${randomUUID()}`;
    let allowed = 0;
    let refused = 0;
    await Promise.all(
      Array.from({ length: 16 }, async (_, caller) => {
        for (let i = caller; i < caller + 40; i++) {
          const decision = await (i % 2 === 0 ? a : b).consume(bucket, 300);
          if (decision.allowed) allowed++;
          else {
            refused++;
            expect(decision.remaining).toBe(0);
            expect(decision.resetSeconds).toBeGreaterThan(0);
            expect(decision.resetSeconds).toBeLessThanOrEqual(60);
          }
        }
      }),
    );
    expect(allowed).toBe(300);
    expect(refused).toBe(16 * 40 - 300);
    expect(Number(await redis.get(`vigil:rl300:${bucket}`))).toBe(300);
  });

  it('spends from a chunk in memory far from the limit, with exact headers for the caller', async () => {
    const limits = await replica();
    const bucket = `client:${randomUUID()}`;
    const first = await limits.consume(bucket, 1_000);
    expect(first).toMatchObject({ allowed: true, limit: 1_000, remaining: 999 });
    // One script call took more than the request: the next ones need no Redis.
    const taken = Number(await redis.get(`vigil:rl1000:${bucket}`));
    expect(taken).toBeGreaterThan(1);
    const next = [];
    for (let i = 1; i < taken; i++) next.push((await limits.consume(bucket, 1_000)).remaining);
    expect(next).toEqual(Array.from({ length: taken - 1 }, (_, i) => 998 - i));
    expect(Number(await redis.get(`vigil:rl1000:${bucket}`))).toBe(taken);
  });

  it('counts down one by one near the limit and refuses the next with the window as Retry-After', async () => {
    const limits = await replica();
    const bucket = `client:${randomUUID()}`;
    const seen = [];
    for (let i = 0; i < 11; i++) seen.push(await limits.consume(bucket, 10));
    expect(seen.map((d) => d.remaining)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0]);
    expect(seen.map((d) => d.allowed)).toEqual([...Array(10).fill(true), false]);
    expect(await limits.exhausted(bucket, 10)).toMatchObject({ allowed: false, remaining: 0 });
    expect(await (await replica()).exhausted(`client:${randomUUID()}`, 10)).toBeNull();
  });

  it('gives unspent requests back to the window on shutdown', async () => {
    const limits = new RateLimits(config);
    await new Promise((r) => setTimeout(r, 300));
    const bucket = `client:${randomUUID()}`;
    await limits.consume(bucket, 1_000);
    expect(Number(await redis.get(`vigil:rl1000:${bucket}`))).toBeGreaterThan(1);
    await limits.onApplicationShutdown();
    expect(Number(await redis.get(`vigil:rl1000:${bucket}`))).toBe(1);
  });
});
