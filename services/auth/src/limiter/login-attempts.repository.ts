import { Injectable } from '@nestjs/common';
import { Database } from '@vigil/platform';

export type AttemptKind = 'password' | 'mfa_bypass';
/**
 * `perAddress`: failures for one account from one client address; `perAccount`: for one account
 * from all addresses together; `perIp`: from one address across accounts.
 */
export type AttemptLimits = { perAddress: number; perAccount: number; perIp: number; windowSeconds: number };
/** Which limit refused an attempt: only `account` shuts the owner out everywhere. */
export type LockedBy = 'address' | 'account' | 'ip';
/** A claimed attempt (its row counts as a failure until settled), or the time until one is allowed. */
export type Claim = { attemptId: string } | { unlocksAt: Date; lockedBy: LockedBy };

type Failure = { created_at: Date };

@Injectable()
export class LoginAttemptsRepository {
  constructor(private readonly db: Database) {}

  /**
   * Counts and records the attempt in one step, before any password is checked: under a lock
   * per email (and then per IP), the recent failures are counted and, below the limits, a
   * failure row is inserted at once. Parallel attempts are therefore counted one by one; a
   * refused attempt records nothing, so it cannot extend the lock.
   *
   * `password` attempts count failures three ways (issue #33: behind one ingress a lock per
   * email alone let anyone lock every owner out):
   * - per email and address, since that address's last success or the last unlock link (a
   *   success row without an address): guesses from one place lock that place out, and the owner
   *   signing in elsewhere does not hand the guesser a fresh allowance;
   * - per email across addresses, since the email's last success: guesses from many places
   *   lock the account (the owner then has TOTP and the unlock link);
   * - per IP across emails (password spraying).
   * `mfa_bypass` attempts (a locked owner's password + TOTP) count only their own failures per
   * email and IP, so an attacker elsewhere cannot use them up for the owner.
   */
  async claim(kind: AttemptKind, email: string, ip: string | undefined, limits: AttemptLimits): Promise<Claim> {
    return this.db.transaction(async (tx) => {
      // Always email first, then IP: no two attempts wait for each other's locks in a cycle.
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`vigil.auth.login:${kind}:${email}`]);
      const window = limits.windowSeconds;
      const address = ip ?? null;
      if (kind === 'password') {
        const byAccount: Failure[] = await tx.query(
          `SELECT created_at FROM login_attempts
            WHERE email = $1 AND kind = 'password' AND NOT succeeded
              AND created_at > now() - make_interval(secs => $2)
              AND created_at > coalesce((SELECT max(created_at) FROM login_attempts WHERE email = $1 AND kind = 'password' AND succeeded), '-infinity')
            ORDER BY created_at DESC LIMIT $3`,
          [email, window, limits.perAccount],
        );
        if (byAccount.length >= limits.perAccount) return { unlocksAt: this.unlocksAt(byAccount, window), lockedBy: 'account' };
        const byAddress: Failure[] = await tx.query(
          `SELECT created_at FROM login_attempts
            WHERE email = $1 AND ip IS NOT DISTINCT FROM $2 AND kind = 'password' AND NOT succeeded
              AND created_at > now() - make_interval(secs => $3)
              AND created_at > coalesce((SELECT max(created_at) FROM login_attempts
                                          WHERE email = $1 AND kind = 'password' AND succeeded AND (ip IS NOT DISTINCT FROM $2 OR ip IS NULL)), '-infinity')
            ORDER BY created_at DESC LIMIT $4`,
          [email, address, window, limits.perAddress],
        );
        if (byAddress.length >= limits.perAddress) return { unlocksAt: this.unlocksAt(byAddress, window), lockedBy: 'address' };
      } else {
        const byAddress: Failure[] = await tx.query(
          `SELECT created_at FROM login_attempts
            WHERE email = $1 AND ip IS NOT DISTINCT FROM $2 AND kind = 'mfa_bypass' AND NOT succeeded
              AND created_at > now() - make_interval(secs => $3)
            ORDER BY created_at DESC LIMIT $4`,
          [email, address, window, limits.perAddress],
        );
        if (byAddress.length >= limits.perAddress) return { unlocksAt: this.unlocksAt(byAddress, window), lockedBy: 'address' };
      }
      if (kind === 'password' && ip) {
        await tx.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`vigil.auth.login-ip:${ip}`]);
        const byIp: Failure[] = await tx.query(
          `SELECT created_at FROM login_attempts
            WHERE ip = $1 AND kind = 'password' AND NOT succeeded AND created_at > now() - make_interval(secs => $2)
            ORDER BY created_at DESC LIMIT $3`,
          [ip, window, limits.perIp],
        );
        if (byIp.length >= limits.perIp) return { unlocksAt: this.unlocksAt(byIp, window), lockedBy: 'ip' };
      }
      const rows: { id: string }[] = await tx.query(
        `INSERT INTO login_attempts (email, ip, succeeded, kind) VALUES ($1, $2, false, $3) RETURNING id::text`,
        [email, address, kind],
      );
      return { attemptId: rows[0]!.id };
    });
  }

  /**
   * The claimed attempt turned out right: it stops counting, and (for passwords) resets the
   * email's count across addresses and its count from this address.
   */
  async succeeded(attemptId: string): Promise<void> {
    await this.db.query(`UPDATE login_attempts SET succeeded = true WHERE id = $1`, [attemptId]);
  }

  /**
   * The owner used the emailed unlock link: a success row for the email without an address, so
   * its failures before it stop counting from every address (as after a right password). The
   * guessing IP's own count across emails is untouched.
   */
  async unlock(email: string): Promise<void> {
    await this.db.query(`INSERT INTO login_attempts (email, ip, succeeded, kind) VALUES ($1, NULL, true, 'password')`, [email]);
  }

  /** Keeps the table small; attempts older than a day decide nothing. */
  async prune(): Promise<void> {
    await this.db.query(`DELETE FROM login_attempts WHERE created_at < now() - interval '1 day'`);
  }

  /** Newest first and at the limit: the lock lifts when the oldest of them leaves the window. */
  private unlocksAt(failures: { created_at: Date }[], windowSeconds: number): Date {
    return new Date(failures[failures.length - 1]!.created_at.getTime() + windowSeconds * 1000);
  }
}
