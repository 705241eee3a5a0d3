import { Injectable } from '@nestjs/common';
import type { Tier } from '@vigil/proto';
import { Database, type Queryable } from '@vigil/platform';
import { SecretBox } from '../crypto/secret-box.js';
import type { ProviderKind } from '../payments/payment-provider.js';

export type CheckoutSession = {
  id: string;
  provider: ProviderKind;
  user_id: string;
  email: string;
  /** The organisation name given at onboarding; null when none was. */
  client_name: string | null;
  tier: Tier;
  amount_usd: number;
  status: 'open' | 'complete' | 'expired';
  client_id: string | null;
  created_at: Date;
};

@Injectable()
export class CheckoutSessionsRepository {
  constructor(
    private readonly db: Database,
    private readonly box: SecretBox,
  ) {}

  async insert(
    session: Pick<CheckoutSession, 'id' | 'provider' | 'user_id' | 'email' | 'client_name' | 'tier' | 'amount_usd'>,
  ): Promise<void> {
    await this.db.query(
      `INSERT INTO checkout_sessions (id, provider, user_id, email, client_name, tier, amount_usd) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        session.id,
        session.provider,
        session.user_id,
        session.email,
        session.client_name,
        session.tier,
        session.amount_usd,
      ],
    );
  }

  async get(id: string, q: Queryable = this.db): Promise<CheckoutSession | undefined> {
    return (
      await q.query<CheckoutSession>(
        `SELECT id, provider, user_id, email, client_name, tier, amount_usd, status, client_id, created_at FROM checkout_sessions WHERE id = $1`,
        [id],
      )
    )[0];
  }

  async lock(id: string, q: Queryable): Promise<CheckoutSession | undefined> {
    return (
      await q.query<CheckoutSession>(
        `SELECT id, provider, user_id, email, client_name, tier, amount_usd, status, client_id, created_at FROM checkout_sessions WHERE id = $1 FOR UPDATE`,
        [id],
      )
    )[0];
  }

  /** The new key is kept sealed (bound to this session's id) until the success page takes it. */
  async complete(id: string, clientId: string, apiKey: string | undefined, q: Queryable): Promise<void> {
    await q.query(
      `UPDATE checkout_sessions SET status = 'complete', client_id = $2, pending_api_key = $3, completed_at = now() WHERE id = $1`,
      [id, clientId, apiKey === undefined ? null : this.box.seal(apiKey, sessionContext(id))],
    );
  }

  /** The client's new key, once: the row forgets it in the same statement that reads it. */
  async takePendingKey(clientId: string): Promise<string | undefined> {
    const rows = await this.db.query<{ id: string; sealed: string }>(
      `UPDATE checkout_sessions s SET pending_api_key = NULL
       FROM (SELECT id, pending_api_key FROM checkout_sessions WHERE client_id = $1 AND pending_api_key IS NOT NULL ORDER BY completed_at DESC LIMIT 1 FOR UPDATE) old
       WHERE s.id = old.id RETURNING old.id, old.pending_api_key AS sealed`,
      [clientId],
    );
    const row = rows[0];
    return row && this.box.open(row.sealed, sessionContext(row.id));
  }
}

const sessionContext = (id: string) => `checkout_sessions:${id}`;
