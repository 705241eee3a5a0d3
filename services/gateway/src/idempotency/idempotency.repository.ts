import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { GATEWAY_CONFIG } from '../config.token.js';
import type { GatewayConfig } from '../env.js';
import { Database } from '@vigil/platform';

export type StoredResponse = { status: number; contentType: string; body: Buffer };
export type IdempotencyRecord = {
  fingerprint: string;
  state: 'pending' | 'done';
  /** Since the pending claim's last renewal (database clock). */
  sinceRenewalMs: number;
  response: StoredResponse | null;
};

/** One attempt's hold on a pending record: only this attempt renews, completes or abandons it. */
export type Claim = { readonly scope: string; readonly key: string; readonly id: string };

@Injectable()
export class IdempotencyRepository implements OnModuleInit, OnModuleDestroy {
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Database,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  /**
   * Claims (scope, key) for this request: the claim when this request owns it now (new, expired,
   * or pending but unrenewed for the takeover time: its replica died). Null: read the existing
   * record. One statement, so of two retries racing for a lapsed claim exactly one gets it (the
   * second re-checks the row the first renewed).
   */
  async claim(scope: string, key: string, fingerprint: string): Promise<Claim | null> {
    const id = randomUUID();
    const { rowCount } = await this.db.execute(
      `INSERT INTO idempotency_keys (scope, key, fingerprint, state, claim) VALUES ($1, $2, $3, 'pending', $6)
       ON CONFLICT (scope, key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, state = 'pending', status = NULL,
         content_type = NULL, body = NULL, created_at = now(), renewed_at = now(), claim = EXCLUDED.claim
         WHERE idempotency_keys.created_at < now() - make_interval(hours => $4)
            OR (idempotency_keys.state = 'pending' AND idempotency_keys.fingerprint = EXCLUDED.fingerprint
                AND idempotency_keys.renewed_at < now() - make_interval(secs => $5))`,
      [
        scope,
        key,
        fingerprint,
        this.config.IDEMPOTENCY_TTL_HOURS,
        this.config.IDEMPOTENCY_CLAIM_TAKEOVER_MS / 1000,
        id,
      ],
    );
    return rowCount === 1 ? { scope, key, id } : null;
  }

  /** The heartbeat of claims still being worked on; a claim taken over meanwhile is left alone. */
  async renew(claims: readonly Claim[]): Promise<void> {
    await this.db.query(
      `UPDATE idempotency_keys k SET renewed_at = now()
       FROM unnest($1::text[], $2::text[], $3::uuid[]) AS c(scope, key, claim)
       WHERE k.scope = c.scope AND k.key = c.key AND k.claim = c.claim AND k.state = 'pending'`,
      [claims.map((c) => c.scope), claims.map((c) => c.key), claims.map((c) => c.id)],
    );
  }

  async find(scope: string, key: string): Promise<IdempotencyRecord | null> {
    const rows = await this.db.query<{
      fingerprint: string;
      state: 'pending' | 'done';
      since_renewal_ms: number;
      status: number | null;
      content_type: string | null;
      body: Buffer | null;
    }>(
      `SELECT fingerprint, state, status, content_type, body,
         (extract(epoch FROM now() - renewed_at) * 1000)::float8 AS since_renewal_ms
       FROM idempotency_keys WHERE scope = $1 AND key = $2`,
      [scope, key],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      fingerprint: row.fingerprint,
      state: row.state,
      sinceRenewalMs: row.since_renewal_ms,
      response:
        row.state === 'done' && row.status !== null
          ? {
              status: row.status,
              contentType: row.content_type ?? 'application/json',
              body: row.body ?? Buffer.alloc(0),
            }
          : null,
    };
  }

  async complete(claim: Claim, response: StoredResponse): Promise<void> {
    await this.db.query(
      `UPDATE idempotency_keys SET state = 'done', status = $4, content_type = $5, body = $6
       WHERE scope = $1 AND key = $2 AND claim = $3 AND state = 'pending'`,
      [claim.scope, claim.key, claim.id, response.status, response.contentType, response.body],
    );
  }

  /** The request failed: let a retry run it again rather than replay a failure we caused. */
  async abandon(claim: Claim): Promise<void> {
    await this.db.query(
      `DELETE FROM idempotency_keys WHERE scope = $1 AND key = $2 AND claim = $3 AND state = 'pending'`,
      [claim.scope, claim.key, claim.id],
    );
  }

  onModuleInit() {
    const sweep = () =>
      void this.db
        .query(`DELETE FROM idempotency_keys WHERE created_at < now() - make_interval(hours => $1)`, [
          this.config.IDEMPOTENCY_TTL_HOURS,
        ])
        .catch(() => undefined);
    this.sweeper = setInterval(sweep, 60 * 60_000);
    this.sweeper.unref();
  }

  onModuleDestroy() {
    clearInterval(this.sweeper);
  }
}
