import { Injectable } from '@nestjs/common';
import type { ApiKeyStatus, SubscriptionStatus, ThresholdConfig, Tier } from '@vigil/proto';
import { Database, type Queryable } from '@vigil/platform';
import { CURRENT_USAGE } from './clients.repository.js';

export type RevokedKey = { id: string; key_hash: string; prefix: string; client_id: string; revoked_at: Date };

export type KeyOwner = {
  /** Null only for a client looked up by id (clientOwner) whose keys are all revoked. */
  key_id: string | null;
  prefix: string | null;
  client_id: string;
  client_name: string;
  tier: Tier;
  subscription_status: SubscriptionStatus;
  threshold_config: ThresholdConfig | null;
  quota_month: number;
  usage_month: number;
  period_start: Date | null;
  period_end: Date | null;
};

@Injectable()
export class ApiKeysRepository {
  constructor(private readonly db: Database) {}

  /** Revokes the client's working key, if any; returns what was revoked so caches can be told. */
  async revokeActive(clientId: string, reason: string, q: Queryable = this.db): Promise<RevokedKey[]> {
    return q.query(
      `UPDATE api_keys SET revoked_at = now(), revoked_reason = $2 WHERE client_id = $1 AND revoked_at IS NULL
       RETURNING id, key_hash, prefix, client_id, revoked_at`,
      [clientId, reason],
    );
  }

  async insert(clientId: string, keyHash: string, prefix: string, q: Queryable = this.db): Promise<void> {
    await q.query(`INSERT INTO api_keys (client_id, key_hash, prefix) VALUES ($1, $2, $3)`, [clientId, keyHash, prefix]);
  }

  async ownerOf(keyHash: string): Promise<KeyOwner | undefined> {
    const rows: KeyOwner[] = await this.db.query(
      `SELECT k.id AS key_id, k.prefix, c.id AS client_id, c.client_name, c.tier, c.subscription_status, c.threshold_config,
              c.quota_month, ${CURRENT_USAGE} AS usage_month, c.period_start, c.period_end
         FROM api_keys k JOIN clients c ON c.id = k.client_id
        WHERE k.key_hash = $1 AND k.revoked_at IS NULL`,
      [keyHash],
    );
    return rows[0];
  }

  /** The client with its active key if it has one: the dashboard's session is enough without a key. */
  async clientOwner(clientId: string): Promise<KeyOwner | undefined> {
    const rows: KeyOwner[] = await this.db.query(
      `SELECT k.id AS key_id, k.prefix, c.id AS client_id, c.client_name, c.tier, c.subscription_status, c.threshold_config,
              c.quota_month, ${CURRENT_USAGE} AS usage_month, c.period_start, c.period_end
         FROM clients c LEFT JOIN api_keys k ON k.client_id = c.id AND k.revoked_at IS NULL
        WHERE c.id = $1
        ORDER BY k.created_at DESC NULLS LAST
        LIMIT 1`,
      [clientId],
    );
    return rows[0];
  }

  async status(clientId: string): Promise<ApiKeyStatus> {
    const rows: { prefix: string; created_at: Date; revoked_at: Date | null }[] = await this.db.query(
      `SELECT prefix, created_at, revoked_at FROM api_keys WHERE client_id = $1 ORDER BY (revoked_at IS NULL) DESC, created_at DESC LIMIT 1`,
      [clientId],
    );
    const key = rows[0];
    if (!key) return { client_id: clientId, status: 'none', prefix: null, created_at: null, revoked_at: null };
    return {
      client_id: clientId,
      status: key.revoked_at ? 'revoked' : 'active',
      prefix: key.revoked_at ? null : key.prefix,
      created_at: key.created_at.toISOString(),
      revoked_at: key.revoked_at ? key.revoked_at.toISOString() : null,
    };
  }
}
