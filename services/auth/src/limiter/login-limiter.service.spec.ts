import { jest } from '@jest/globals';
import { DomainError } from '@vigil/platform';
import type { AuthConfig } from '../env.js';
import type { Claim, LoginAttemptsRepository } from './login-attempts.repository.js';
import { LoginLimiter } from './login-limiter.service.js';

function setup(claim: Claim) {
  const attempts = {
    claim: jest.fn(async () => claim),
    succeeded: jest.fn(async () => undefined),
    prune: jest.fn(async () => undefined),
  };
  const config = { LOGIN_MAX_FAILURES: 10, LOGIN_MAX_FAILURES_PER_ACCOUNT: 50, LOGIN_MAX_FAILURES_PER_IP: 100, LOGIN_WINDOW_SECONDS: 900 } as AuthConfig;
  return { sut: new LoginLimiter(config, attempts as unknown as LoginAttemptsRepository), attempts };
}

const secondsFromNow = (s: number) => new Date(Date.now() + s * 1000);

describe('LoginLimiter', () => {
  it('answers the claimed attempt, asking the repository with the configured limits', async () => {
    const { sut, attempts } = setup({ attemptId: '42' });
    await expect(sut.claim('a@example.com', '192.0.2.1')).resolves.toBe('42');
    expect(attempts.claim).toHaveBeenCalledWith('password', 'a@example.com', '192.0.2.1', {
      perAddress: 10,
      perAccount: 50,
      perIp: 100,
      windowSeconds: 900,
    });
    await sut.claimPastLock('a@example.com', '192.0.2.1');
    expect(attempts.claim).toHaveBeenLastCalledWith('mfa_bypass', 'a@example.com', '192.0.2.1', {
      perAddress: 10,
      perAccount: 50,
      perIp: 100,
      windowSeconds: 900,
    });
  });

  it('refuses a locked claim with RATE_LIMITED and the seconds until it unlocks', async () => {
    const { sut } = setup({ unlocksAt: secondsFromNow(600), lockedBy: 'account' });
    const error = await sut.claim('a@example.com', undefined).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('RATE_LIMITED');
    expect((error as DomainError).retryAfterSeconds).toBeGreaterThanOrEqual(599);
    expect((error as DomainError).retryAfterSeconds).toBeLessThanOrEqual(600);
  });

  it('never answers a Retry-After below one second', async () => {
    const { sut } = setup({ unlocksAt: secondsFromNow(-5), lockedBy: 'account' });
    const error = (await sut.claim('a@example.com', undefined).catch((e: unknown) => e)) as DomainError;
    expect(error.retryAfterSeconds).toBe(1);
  });

  it('prunes old attempts now and then, not on every claim', async () => {
    const { sut, attempts } = setup({ attemptId: '1' });
    for (let i = 0; i < 999; i++) await sut.claim('a@example.com', undefined);
    expect(attempts.prune).not.toHaveBeenCalled();
    await sut.claim('a@example.com', undefined);
    expect(attempts.prune).toHaveBeenCalledTimes(1);
  });
});
