import { Injectable } from '@nestjs/common';
import { Database } from '@vigil/platform';

export type FactorRow = { id: string; user_id: string; friendly_name: string | null; secret: string; status: 'unverified' | 'verified' };

@Injectable()
export class MfaRepository {
  constructor(private readonly db: Database) {}

  async createFactor(userId: string, secret: string, friendlyName: string | null): Promise<FactorRow> {
    const rows: FactorRow[] = await this.db.query(
      `INSERT INTO mfa_factors (user_id, secret, friendly_name) VALUES ($1, $2, $3) RETURNING id, user_id, friendly_name, secret, status`,
      [userId, secret, friendlyName],
    );
    return rows[0]!;
  }

  async findFactor(userId: string, factorId: string): Promise<FactorRow | undefined> {
    const rows: FactorRow[] = await this.db.query(
      `SELECT id, user_id, friendly_name, secret, status FROM mfa_factors WHERE id = $1 AND user_id = $2`,
      [factorId, userId],
    );
    return rows[0];
  }

  async verifiedFactors(userId: string): Promise<FactorRow[]> {
    return this.db.query(`SELECT id, user_id, friendly_name, secret, status FROM mfa_factors WHERE user_id = $1 AND status = 'verified' ORDER BY created_at, id`, [userId]);
  }

  async markVerified(factorId: string): Promise<void> {
    await this.db.query(`UPDATE mfa_factors SET status = 'verified', updated_at = now() WHERE id = $1`, [factorId]);
  }

  async deleteFactor(userId: string, factorId: string): Promise<boolean> {
    const rows: unknown[] = await this.db.query(`DELETE FROM mfa_factors WHERE id = $1 AND user_id = $2 RETURNING id`, [factorId, userId]);
    return rows.length > 0;
  }

  async countVerified(userId: string): Promise<number> {
    const rows: { n: number }[] = await this.db.query(`SELECT count(*)::int AS n FROM mfa_factors WHERE user_id = $1 AND status = 'verified'`, [userId]);
    return rows[0]!.n;
  }

  async createChallenge(factorId: string, sessionId: string, expiresAt: Date): Promise<{ id: string; expires_at: Date }> {
    const rows: { id: string; expires_at: Date }[] = await this.db.query(
      `INSERT INTO mfa_challenges (factor_id, session_id, expires_at) VALUES ($1, $2, $3) RETURNING id, expires_at`,
      [factorId, sessionId, expiresAt],
    );
    return rows[0]!;
  }

  /** A challenge still open for this factor in this session. */
  async openChallenge(challengeId: string, factorId: string, sessionId: string, maxFailures: number): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      `SELECT id FROM mfa_challenges
        WHERE id = $1 AND factor_id = $2 AND session_id = $3 AND verified_at IS NULL AND expires_at > now() AND failed_attempts < $4`,
      [challengeId, factorId, sessionId, maxFailures],
    );
    return rows.length > 0;
  }

  async recordChallengeFailure(challengeId: string): Promise<void> {
    await this.db.query(`UPDATE mfa_challenges SET failed_attempts = failed_attempts + 1 WHERE id = $1`, [challengeId]);
  }

  async closeChallenge(challengeId: string): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      `UPDATE mfa_challenges SET verified_at = now() WHERE id = $1 AND verified_at IS NULL RETURNING id`,
      [challengeId],
    );
    return rows.length > 0;
  }

  /** Records that the code of this time step was used; false if it already was. */
  async useTimeStep(factorId: string, timeStep: number): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      `INSERT INTO mfa_used_codes (factor_id, time_step) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING factor_id`,
      [factorId, timeStep],
    );
    return rows.length > 0;
  }

  async replaceRecoveryCodes(userId: string, codeHashes: string[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.query(`DELETE FROM mfa_recovery_codes WHERE user_id = $1`, [userId]);
      for (const hash of codeHashes) await tx.query(`INSERT INTO mfa_recovery_codes (user_id, code_hash) VALUES ($1, $2)`, [userId, hash]);
    });
  }

  async useRecoveryCode(userId: string, codeHash: string): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      `UPDATE mfa_recovery_codes SET used_at = now() WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL RETURNING id`,
      [userId, codeHash],
    );
    return rows.length > 0;
  }

  async deleteRecoveryCodes(userId: string): Promise<void> {
    await this.db.query(`DELETE FROM mfa_recovery_codes WHERE user_id = $1`, [userId]);
  }
}
