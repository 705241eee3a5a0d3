import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { GATEWAY_CONFIG } from '../config.token.js';
import type { GatewayConfig } from '../env.js';
import { Database } from '@vigil/platform';

export type StoredResponse = { status: number; contentType: string; body: Buffer };
export type IdempotencyRecord = {
  fingerprint: string;
  state: 'pending' | 'done';
  ageMs: number;
  response: StoredResponse | null;
};

/** A pending record older than this is taken to belong to a request whose process died. */
export const PENDING_TAKEOVER_MS = 60_000;

@Injectable()
export class IdempotencyRepository implements OnModuleInit, OnModuleDestroy {
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Database,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  /**
   * Claims (scope, key) for this request: true when this request owns it now (new,
   * expired, or left pending by a dead process). False: read the existing record.
   */
  async claim(scope: string, key: string, fingerprint: string): Promise<boolean> {
    const { rowCount } = await this.db.execute(
      `INSERT INTO idempotency_keys (scope, key, fingerprint, state) VALUES ($1, $2, $3, 'pending')
       ON CONFLICT (scope, key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, state = 'pending', status = NULL,
         content_type = NULL, body = NULL, created_at = now()
         WHERE idempotency_keys.created_at < now() - make_interval(hours => $4)
            OR (idempotency_keys.state = 'pending' AND idempotency_keys.fingerprint = EXCLUDED.fingerprint
                AND idempotency_keys.created_at < now() - make_interval(secs => $5))`,
      [scope, key, fingerprint, this.config.IDEMPOTENCY_TTL_HOURS, PENDING_TAKEOVER_MS / 1000],
    );
    return rowCount === 1;
  }

  async find(scope: string, key: string): Promise<IdempotencyRecord | null> {
    const rows = await this.db.query<{
      fingerprint: string;
      state: 'pending' | 'done';
      age_ms: number;
      status: number | null;
      content_type: string | null;
      body: Buffer | null;
    }>(
      `SELECT fingerprint, state, status, content_type, body, (extract(epoch FROM now() - created_at) * 1000)::float8 AS age_ms
       FROM idempotency_keys WHERE scope = $1 AND key = $2`,
      [scope, key],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      fingerprint: row.fingerprint,
      state: row.state,
      ageMs: row.age_ms,
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

  async complete(scope: string, key: string, response: StoredResponse): Promise<void> {
    await this.db.query(
      `UPDATE idempotency_keys SET state = 'done', status = $3, content_type = $4, body = $5 WHERE scope = $1 AND key = $2`,
      [scope, key, response.status, response.contentType, response.body],
    );
  }

  /** The request failed: let a retry run it again rather than replay a failure we caused. */
  async abandon(scope: string, key: string): Promise<void> {
    await this.db.query(`DELETE FROM idempotency_keys WHERE scope = $1 AND key = $2 AND state = 'pending'`, [
      scope,
      key,
    ]);
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
