import { Injectable } from '@nestjs/common';
import { Database, type Queryable } from '@vigil/platform';

export type OneTimePurpose = 'signup' | 'recovery' | 'unlock';
/** At most one link per interval; with `onlyWhileUnused`, a link already used (or expired) does not hold back the next. */
export type Throttle = { minIntervalSeconds?: number; onlyWhileUnused?: boolean };

/** Confirmation, password-reset and unlock links: stored hashed, used once, expiring. */
@Injectable()
export class OneTimeTokensRepository {
  constructor(private readonly db: Database) {}

  /**
   * Issues a link, replacing any earlier unused one for the same purpose. With
   * `minIntervalSeconds`, does nothing (answers false) if one was issued that recently, or with
   * `onlyWhileUnused` if one was issued that recently and is still unused and unexpired; the
   * per-user lock makes that check hold under concurrent requests.
   */
  async create(userId: string, purpose: OneTimePurpose, tokenHash: string, expiresAt: Date, throttle: Throttle = {}): Promise<boolean> {
    const { minIntervalSeconds = 0, onlyWhileUnused = false } = throttle;
    return this.db.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`vigil.auth.one_time_tokens:${userId}:${purpose}`]);
      if (minIntervalSeconds > 0) {
        const recent = await tx.query(
          `SELECT 1 FROM one_time_tokens WHERE user_id = $1 AND purpose = $2 AND created_at > now() - make_interval(secs => $3)
              AND (NOT $4 OR (used_at IS NULL AND expires_at > now()))`,
          [userId, purpose, minIntervalSeconds, onlyWhileUnused],
        );
        if (recent.length > 0) return false;
      }
      await tx.query(`UPDATE one_time_tokens SET used_at = now() WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL`, [userId, purpose]);
      await tx.query(`INSERT INTO one_time_tokens (user_id, purpose, token_hash, expires_at) VALUES ($1, $2, $3, $4)`, [
        userId,
        purpose,
        tokenHash,
        expiresAt,
      ]);
      return true;
    });
  }

  /** Uses the token atomically; the user id if it was valid, else undefined. */
  async consume(purpose: OneTimePurpose, tokenHash: string, q: Queryable = this.db): Promise<string | undefined> {
    const rows: { user_id: string }[] = await q.query(
      `UPDATE one_time_tokens SET used_at = now()
        WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > now() RETURNING user_id`,
      [tokenHash, purpose],
    );
    return rows[0]?.user_id;
  }
}
