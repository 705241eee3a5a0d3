import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Queryable } from '../db.js';
import { sql } from '../db.js';

export type OneTimePurpose = 'signup' | 'recovery';

/** Confirmation and password-reset links: stored hashed, used once, expiring. */
@Injectable()
export class OneTimeTokensRepository {
  constructor(private readonly db: DataSource) {}

  async create(userId: string, purpose: OneTimePurpose, tokenHash: string, expiresAt: Date): Promise<void> {
    await this.db.transaction(async (tx) => {
      // A new link replaces any earlier unused one for the same purpose.
      await sql(tx, `UPDATE one_time_tokens SET used_at = now() WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL`, [userId, purpose]);
      await sql(tx, `INSERT INTO one_time_tokens (user_id, purpose, token_hash, expires_at) VALUES ($1, $2, $3, $4)`, [
        userId,
        purpose,
        tokenHash,
        expiresAt,
      ]);
    });
  }

  /** Uses the token atomically; the user id if it was valid, else undefined. */
  async consume(purpose: OneTimePurpose, tokenHash: string, q: Queryable = this.db): Promise<string | undefined> {
    const rows: { user_id: string }[] = await sql(q, 
      `UPDATE one_time_tokens SET used_at = now()
        WHERE token_hash = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > now() RETURNING user_id`,
      [tokenHash, purpose],
    );
    return rows[0]?.user_id;
  }
}
