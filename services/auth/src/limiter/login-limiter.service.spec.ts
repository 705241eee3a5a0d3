import { jest } from '@jest/globals';
import { DomainError } from '@vigil/platform';
import type { AuthConfig } from '../env.js';
import type { LoginAttemptsRepository } from './login-attempts.repository.js';
import { LoginLimiter } from './login-limiter.service.js';

function setup(failures: Date[]) {
  const attempts = {
    recentFailures: jest.fn(async (_email: string, _window: number, limit: number) => failures.slice(0, limit)),
    record: jest.fn(async () => undefined),
    prune: jest.fn(async () => undefined),
  };
  const config = { LOGIN_MAX_FAILURES: 10, LOGIN_WINDOW_SECONDS: 900 } as AuthConfig;
  return { sut: new LoginLimiter(config, attempts as unknown as LoginAttemptsRepository), attempts };
}

const secondsAgo = (s: number) => new Date(Date.now() - s * 1000);

describe('LoginLimiter', () => {
  it('lets nine recent failures through', async () => {
    const { sut } = setup(Array.from({ length: 9 }, (_, i) => secondsAgo(i)));
    await expect(sut.assertAllowed('a@example.com')).resolves.toBeUndefined();
  });

  it('locks at ten and says when the oldest of them leaves the window', async () => {
    // Newest first, as the repository answers: the tenth is 300 s old, so 600 s remain.
    const { sut } = setup(Array.from({ length: 10 }, (_, i) => secondsAgo(i === 9 ? 300 : i)));
    const error = await sut.assertAllowed('a@example.com').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('RATE_LIMITED');
    expect((error as DomainError).retryAfterSeconds).toBeGreaterThanOrEqual(599);
    expect((error as DomainError).retryAfterSeconds).toBeLessThanOrEqual(600);
  });

  it('never answers a Retry-After below one second', async () => {
    const { sut } = setup(Array.from({ length: 10 }, () => secondsAgo(900)));
    const error = (await sut.assertAllowed('a@example.com').catch((e: unknown) => e)) as DomainError;
    expect(error.retryAfterSeconds).toBe(1);
  });

  it('prunes old attempts now and then, not on every failure', async () => {
    const { sut, attempts } = setup([]);
    for (let i = 0; i < 999; i++) await sut.recordFailure('a@example.com', undefined);
    expect(attempts.prune).not.toHaveBeenCalled();
    await sut.recordFailure('a@example.com', undefined);
    expect(attempts.prune).toHaveBeenCalledTimes(1);
  });
});
