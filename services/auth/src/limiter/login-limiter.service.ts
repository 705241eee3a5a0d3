import { Inject, Injectable } from '@nestjs/common';
import { DomainError, limiterAddress } from '@vigil/platform';
import { AUTH_CONFIG, type AuthConfig } from '../env.js';
import { LoginAttemptsRepository, type AttemptKind, type LockedBy } from './login-attempts.repository.js';

/**
 * The sign-in lock; `lockedBy` says which limit was hit: the account from this address, the
 * account from everywhere, or this address across accounts (only the first two mail an unlock link).
 */
export class SignInLocked extends DomainError {
  constructor(
    readonly lockedBy: LockedBy,
    retryAfterSeconds: number,
  ) {
    super('RATE_LIMITED', 'Too many failed sign-in attempts. Please try again later.', undefined, retryAfterSeconds);
  }
}

/**
 * Brute force: within LOGIN_WINDOW_SECONDS, LOGIN_MAX_FAILURES failed sign-ins for one email
 * from one client address, LOGIN_MAX_FAILURES_PER_ACCOUNT for one email from all addresses, or
 * LOGIN_MAX_FAILURES_PER_IP from one address across emails refuse further attempts (429 +
 * Retry-After) until the oldest leaves the window. An IPv6 client counts by its /64 (limiterAddress). An attempt is counted when it is claimed, before its password is
 * checked, so parallel guesses cannot all be evaluated.
 */
@Injectable()
export class LoginLimiter {
  private claimsSincePrune = 0;

  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    private readonly attempts: LoginAttemptsRepository,
  ) {}

  /** A password attempt's id, to settle with `succeeded`; RATE_LIMITED when locked. */
  claim(email: string, ip: string | undefined): Promise<string> {
    return this.claimOf('password', email, ip);
  }

  /** The same for a locked owner's password + TOTP attempt, with its own allowance per email and IP. */
  claimPastLock(email: string, ip: string | undefined): Promise<string> {
    return this.claimOf('mfa_bypass', email, ip);
  }

  /** The emailed unlock link was used: the email's password failures stop counting. */
  unlock(email: string): Promise<void> {
    return this.attempts.unlock(email);
  }

  succeeded(attemptId: string): Promise<void> {
    return this.attempts.succeeded(attemptId);
  }

  private async claimOf(kind: AttemptKind, email: string, ip: string | undefined): Promise<string> {
    const claim = await this.attempts.claim(kind, email, limiterAddress(ip), {
      perAddress: this.config.LOGIN_MAX_FAILURES,
      perAccount: this.config.LOGIN_MAX_FAILURES_PER_ACCOUNT,
      perIp: this.config.LOGIN_MAX_FAILURES_PER_IP,
      windowSeconds: this.config.LOGIN_WINDOW_SECONDS,
    });
    if ('unlocksAt' in claim) {
      const retryAfterSeconds = Math.max(1, Math.ceil((claim.unlocksAt.getTime() - Date.now()) / 1000));
      throw new SignInLocked(claim.lockedBy, retryAfterSeconds);
    }
    if (++this.claimsSincePrune >= 1000) {
      this.claimsSincePrune = 0;
      await this.attempts.prune();
    }
    return claim.attemptId;
  }
}
