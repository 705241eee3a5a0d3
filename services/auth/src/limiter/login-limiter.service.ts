import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '@vigil/platform';
import { AUTH_CONFIG, type AuthConfig } from '../env.js';
import { LoginAttemptsRepository } from './login-attempts.repository.js';

/**
 * Per-account brute-force limit: after LOGIN_MAX_FAILURES failures within
 * LOGIN_WINDOW_SECONDS, sign-in for that email answers 429 until the oldest of
 * those failures leaves the window. It keys on the email whether or not an
 * account exists, so the answer tells an attacker nothing; refused attempts are
 * not counted, so an attacker cannot extend the lock forever.
 */
@Injectable()
export class LoginLimiter {
  private attemptsSincePrune = 0;

  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    private readonly attempts: LoginAttemptsRepository,
  ) {}

  async assertAllowed(email: string): Promise<void> {
    const failures = await this.attempts.recentFailures(email, this.config.LOGIN_WINDOW_SECONDS, this.config.LOGIN_MAX_FAILURES);
    if (failures.length < this.config.LOGIN_MAX_FAILURES) return;
    const unlocksAt = failures[failures.length - 1]!.getTime() + this.config.LOGIN_WINDOW_SECONDS * 1000;
    const retryAfterSeconds = Math.max(1, Math.ceil((unlocksAt - Date.now()) / 1000));
    throw new DomainError('RATE_LIMITED', 'Too many failed sign-in attempts. Please try again later.', undefined, retryAfterSeconds);
  }

  async recordFailure(email: string, ip: string | undefined): Promise<void> {
    await this.attempts.record(email, ip, false);
    if (++this.attemptsSincePrune >= 1000) {
      this.attemptsSincePrune = 0;
      await this.attempts.prune();
    }
  }

  async recordSuccess(email: string, ip: string | undefined): Promise<void> {
    await this.attempts.record(email, ip, true);
  }
}
