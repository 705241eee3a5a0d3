import { Injectable } from '@nestjs/common';
import { Database } from '@vigil/platform';

export type PendingSignIn = { provider: string; code_verifier: string; nonce: string; remember_me: boolean; link_user_id: string | null };

/** Browser sign-ins between the redirect to the provider and its callback. */
@Injectable()
export class OidcRepository {
  constructor(private readonly db: Database) {}

  async save(state: string, pending: PendingSignIn, expiresAt: Date): Promise<void> {
    await this.db.query(
      `INSERT INTO oidc_states (state, provider, code_verifier, nonce, remember_me, link_user_id, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [state, pending.provider, pending.code_verifier, pending.nonce, pending.remember_me, pending.link_user_id, expiresAt],
    );
  }

  /** Takes the pending sign-in for this state, once: a replayed callback finds nothing. */
  async take(state: string): Promise<PendingSignIn | undefined> {
    const rows: PendingSignIn[] = await this.db.query(
      `DELETE FROM oidc_states WHERE state = $1 AND expires_at > now() RETURNING provider, code_verifier, nonce, remember_me, link_user_id`,
      [state],
    );
    await this.db.query(`DELETE FROM oidc_states WHERE expires_at < now() - interval '1 day'`);
    return rows[0];
  }

  /** A provider proved this email; a password nobody confirmed may belong to a squatter, so it goes. Answers whether it did. */
  async dropUnconfirmedPassword(userId: string): Promise<boolean> {
    const rows = await this.db.query(`UPDATE users SET password_hash = NULL, updated_at = now() WHERE id = $1 AND email_confirmed_at IS NULL RETURNING id`, [userId]);
    return rows.length > 0;
  }
}
