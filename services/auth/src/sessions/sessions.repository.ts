import { Injectable } from '@nestjs/common';
import type { AssuranceLevel, MemberRole, Role } from '@vigil/proto';
import { Database, type Queryable } from '@vigil/platform';

export type SessionRow = {
  id: string;
  user_id: string;
  aal: AssuranceLevel;
  amr: string[];
  remember_me: boolean;
  ip: string | null;
  user_agent: string | null;
  created_at: Date;
  refreshed_at: Date | null;
  expires_at: Date;
  revoked_at: Date | null;
};

export type RevokedSession = { id: string; user_id: string; revoked_at: Date };

export type ActiveSession = SessionRow & {
  email: string;
  role: Role;
  client_id: string | null;
  member_role: MemberRole | null;
  has_verified_factor: boolean;
};

export type ClaimResult =
  | { status: 'claimed'; sessionId: string }
  /** `graceful`: rotated moments ago and no newer token of its session has been used since (a lost response, not a thief). */
  | { status: 'reused'; sessionId: string; graceful: boolean }
  | { status: 'unknown' };

@Injectable()
export class SessionsRepository {
  constructor(private readonly db: Database) {}

  async create(
    session: { userId: string; aal: AssuranceLevel; amr: string[]; rememberMe: boolean; ip?: string; userAgent?: string; expiresAt: Date },
    q: Queryable = this.db,
  ): Promise<SessionRow> {
    const rows: SessionRow[] = await q.query(
      `INSERT INTO sessions (user_id, aal, amr, remember_me, ip, user_agent, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
      [session.userId, session.aal, session.amr, session.rememberMe, session.ip ?? null, session.userAgent ?? null, session.expiresAt],
    );
    return rows[0]!;
  }

  async addRefreshToken(sessionId: string, tokenHash: string, q: Queryable = this.db): Promise<void> {
    await q.query(`INSERT INTO refresh_tokens (session_id, token_hash) VALUES ($1, $2)`, [sessionId, tokenHash]);
  }

  /**
   * Marks a refresh token used, atomically: of two concurrent presentations only
   * one claims it. A token that exists but was already rotated is a reuse.
   */
  async claimRefreshToken(tokenHash: string, reuseIntervalSeconds: number): Promise<ClaimResult> {
    const claimed: { session_id: string }[] = await this.db.query(
      `UPDATE refresh_tokens SET rotated_at = now() WHERE token_hash = $1 AND rotated_at IS NULL RETURNING session_id`,
      [tokenHash],
    );
    if (claimed[0]) return { status: 'claimed', sessionId: claimed[0].session_id };
    const existing: { session_id: string; graceful: boolean }[] = await this.db.query(
      `SELECT t.session_id,
              t.rotated_at > now() - make_interval(secs => $2)
              AND NOT EXISTS (SELECT 1 FROM refresh_tokens o WHERE o.session_id = t.session_id AND o.rotated_at > t.rotated_at) AS graceful
         FROM refresh_tokens t WHERE t.token_hash = $1`,
      [tokenHash, reuseIntervalSeconds],
    );
    return existing[0] ? { status: 'reused', sessionId: existing[0].session_id, graceful: existing[0].graceful } : { status: 'unknown' };
  }

  /** The session with its user, if it is neither revoked nor expired. */
  async findActive(sessionId: string): Promise<ActiveSession | undefined> {
    const rows: ActiveSession[] = await this.db.query(
      `SELECT s.*, u.email, u.role, u.client_id, CASE WHEN u.client_id IS NOT NULL THEN u.member_role END AS member_role,
              EXISTS (SELECT 1 FROM mfa_factors f WHERE f.user_id = u.id AND f.status = 'verified') AS has_verified_factor
         FROM sessions s JOIN users u ON u.id = s.user_id
        WHERE s.id = $1 AND s.revoked_at IS NULL AND s.expires_at > now()`,
      [sessionId],
    );
    return rows[0];
  }

  async markRefreshed(sessionId: string): Promise<void> {
    await this.db.query(`UPDATE sessions SET refreshed_at = now() WHERE id = $1`, [sessionId]);
  }

  async raiseToAal2(sessionId: string, method: string): Promise<void> {
    await this.db.query(`UPDATE sessions SET aal = 'aal2', amr = array_append(amr, $2) WHERE id = $1`, [sessionId, method]);
  }

  async revoke(sessionId: string, reason: string, userId?: string): Promise<RevokedSession[]> {
    return this.db.query(
      `UPDATE sessions SET revoked_at = now(), revoked_reason = $2
        WHERE id = $1 AND revoked_at IS NULL AND ($3::uuid IS NULL OR user_id = $3) RETURNING id, user_id, revoked_at`,
      [sessionId, reason, userId ?? null],
    );
  }

  async revokeAllForUser(userId: string, reason: string, exceptSessionId?: string, q: Queryable = this.db): Promise<RevokedSession[]> {
    return q.query(
      `UPDATE sessions SET revoked_at = now(), revoked_reason = $2
        WHERE user_id = $1 AND revoked_at IS NULL AND ($3::uuid IS NULL OR id <> $3) RETURNING id, user_id, revoked_at`,
      [userId, reason, exceptSessionId ?? null],
    );
  }

  async listActive(userId: string): Promise<SessionRow[]> {
    return this.db.query(
      `SELECT * FROM sessions WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > now() ORDER BY created_at DESC, id`,
      [userId],
    );
  }

  /** Users with at least one session neither revoked nor expired (the admin overview's Active Users). */
  async countActiveUsers(): Promise<number> {
    const rows: Array<{ n: number }> = await this.db.query(
      `SELECT count(DISTINCT user_id)::int AS n FROM sessions WHERE revoked_at IS NULL AND expires_at > now()`,
      [],
    );
    return rows[0]?.n ?? 0;
  }

  async get(sessionId: string): Promise<SessionRow | undefined> {
    const rows: SessionRow[] = await this.db.query(`SELECT * FROM sessions WHERE id = $1`, [sessionId]);
    return rows[0];
  }
}
