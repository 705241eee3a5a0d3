import { Injectable } from '@nestjs/common';
import { Database } from '@vigil/platform';

export type AttemptKind = 'password' | 'mfa_bypass';
export type AttemptLimits = { perEmail: number; perIp: number; windowSeconds: number };
/** A claimed attempt (its row counts as a failure until settled), or the time until one is allowed. */
export type Claim = { attemptId: string } | { unlocksAt: Date; lockedBy: 'email' | 'ip' };

@Injectable()
export class LoginAttemptsRepository {
  constructor(private readonly db: Database) {}

  /**
   * Counts and records the attempt in one step, before any password is checked: under a lock
   * per email (and then per IP), the recent failures are counted and, below the limits, a
   * failure row is inserted at once. Parallel attempts are therefore counted one by one; a
   * refused attempt records nothing, so it cannot extend the lock.
   *
   * `password` attempts count failures per email since its last password success, and per IP
   * across emails. `mfa_bypass` attempts (a locked owner's password + TOTP) count only their own
   * failures per email and IP, so an attacker elsewhere cannot use them up for the owner.
   */
  async claim(kind: AttemptKind, email: string, ip: string | undefined, limits: AttemptLimits): Promise<Claim> {
    return this.db.transaction(async (tx) => {
      // Always email first, then IP: no two attempts wait for each other's locks in a cycle.
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`vigil.auth.login:${kind}:${email}`]);
      const window = limits.windowSeconds;
      const byEmail: { created_at: Date }[] =
        kind === 'password'
          ? await tx.query(
              `SELECT created_at FROM login_attempts
                WHERE email = $1 AND kind = 'password' AND NOT succeeded
                  AND created_at > now() - make_interval(secs => $2)
                  AND created_at > coalesce((SELECT max(created_at) FROM login_attempts WHERE email = $1 AND kind = 'password' AND succeeded), '-infinity')
                ORDER BY created_at DESC LIMIT $3`,
              [email, window, limits.perEmail],
            )
          : await tx.query(
              `SELECT created_at FROM login_attempts
                WHERE email = $1 AND ip IS NOT DISTINCT FROM $2 AND kind = 'mfa_bypass' AND NOT succeeded
                  AND created_at > now() - make_interval(secs => $3)
                ORDER BY created_at DESC LIMIT $4`,
              [email, ip ?? null, window, limits.perEmail],
            );
      if (byEmail.length >= limits.perEmail) return { unlocksAt: this.unlocksAt(byEmail, window), lockedBy: 'email' };
      if (kind === 'password' && ip) {
        await tx.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`vigil.auth.login-ip:${ip}`]);
        const byIp: { created_at: Date }[] = await tx.query(
          `SELECT created_at FROM login_attempts
            WHERE ip = $1 AND kind = 'password' AND NOT succeeded AND created_at > now() - make_interval(secs => $2)
            ORDER BY created_at DESC LIMIT $3`,
          [ip, window, limits.perIp],
        );
        if (byIp.length >= limits.perIp) return { unlocksAt: this.unlocksAt(byIp, window), lockedBy: 'ip' };
      }
      const rows: { id: string }[] = await tx.query(
        `INSERT INTO login_attempts (email, ip, succeeded, kind) VALUES ($1, $2, false, $3) RETURNING id::text`,
        [email, ip ?? null, kind],
      );
      return { attemptId: rows[0]!.id };
    });
  }

  /** The claimed attempt turned out right: it stops counting, and (for passwords) resets the email's count. */
  async succeeded(attemptId: string): Promise<void> {
    await this.db.query(`UPDATE login_attempts SET succeeded = true WHERE id = $1`, [attemptId]);
  }

  /**
   * The owner used the emailed unlock link: a success row for the email, so its failures before
   * it stop counting (as after a right password). The guessing IP's own count is untouched.
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
