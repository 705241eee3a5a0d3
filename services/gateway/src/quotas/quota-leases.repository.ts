import { Injectable } from '@nestjs/common';
import { Database } from '@vigil/platform';

/** What a grant gave: the block's size and the period's total after it; null when even `amount` does not fit. */
export type Grant = { block: number; used: number; granted: number; promised: number } | null;

// One statement: size the block from what remains (`$6`-th of it, at most `$5` beyond the
// request), count it in quota_usage only if the total stays within the quota, and add it to this
// holder's lease with `$8` of it promised. The size is read from the statement's snapshot; the
// upsert's WHERE re-checks the latest row, so a concurrent grant can shrink the block to a refusal
// but never push the total past the quota.
const GRANT = `
WITH want AS (
  SELECT $3::int + GREATEST(0, LEAST($5::int,
    ($4::int - $3::int - COALESCE((SELECT used FROM quota_usage WHERE client_id = $1 AND period = $2), 0)) / $6::int
  )) AS n
), counted AS (
  INSERT INTO quota_usage (client_id, period, used) SELECT $1, $2, n FROM want WHERE n <= $4::int
  ON CONFLICT (client_id, period) DO UPDATE SET used = quota_usage.used + EXCLUDED.used, updated_at = now()
    WHERE quota_usage.used + EXCLUDED.used <= $4::int
  RETURNING used
), leased AS (
  INSERT INTO quota_leases (client_id, period, holder, granted, promised, expires_at)
  SELECT $1, $2, $7, want.n, $8::int, now() + make_interval(secs => $9::int) FROM counted, want
  ON CONFLICT (client_id, period, holder) DO UPDATE SET
    granted = quota_leases.granted + EXCLUDED.granted,
    promised = quota_leases.promised + EXCLUDED.promised,
    expires_at = EXCLUDED.expires_at
  RETURNING granted, promised
)
SELECT want.n AS block, counted.used, leased.granted, leased.promised FROM want, counted, leased`;

// Returns a lease: the part not answered (`granted - $4`) goes back to the period's counter.
const RETURN = `
WITH gone AS (
  DELETE FROM quota_leases WHERE client_id = $1 AND period = $2 AND holder = $3 RETURNING granted
)
UPDATE quota_usage u SET used = GREATEST(u.used - (gone.granted - LEAST($4::int, gone.granted)), 0), updated_at = now()
  FROM gone WHERE u.client_id = $1 AND u.period = $2`;

// Leases whose holder stopped renewing them (a killed replica): only the never-promised part
// comes back, so nothing the holder may have answered is handed out twice. The DELETE takes each
// row once however many replicas sweep at the same time.
const RECLAIM = `
WITH expired AS (
  DELETE FROM quota_leases WHERE expires_at < now() RETURNING client_id, period, granted - promised AS unused
), unused AS (
  SELECT client_id, period, sum(unused)::int AS n FROM expired GROUP BY client_id, period
)
UPDATE quota_usage u SET used = GREATEST(u.used - unused.n, 0), updated_at = now()
  FROM unused WHERE u.client_id = unused.client_id AND u.period = unused.period
  RETURNING u.client_id`;

/**
 * The lease statements. They run rarely (per block, per renewal), so they use the durable pool:
 * a lease the database forgot after a crash could be handed out twice.
 */
@Injectable()
export class QuotaLeasesRepository {
  constructor(private readonly db: Database) {}

  async grant(
    lease: { clientId: string; period: string; holder: string },
    amount: number,
    quota: number,
    options: { maxExtra: number; fraction: number; promise: number; ttlSeconds: number },
  ): Promise<Grant> {
    if (amount > quota) return null;
    const rows = await this.db.query<{ block: number; used: number; granted: number; promised: number }>(
      GRANT,
      [
        lease.clientId,
        lease.period,
        amount,
        quota,
        Math.max(0, Math.floor(options.maxExtra)),
        Math.max(1, Math.floor(options.fraction)),
        lease.holder,
        options.promise,
        options.ttlSeconds,
      ],
      'quota-lease-grant',
    );
    return rows[0] ?? null;
  }

  /** Raises the promise and renews the lease; false: the lease is gone (it expired and was reclaimed). */
  async promise(
    lease: { clientId: string; period: string; holder: string },
    promised: number,
    ttlSeconds: number,
  ): Promise<boolean> {
    const { rowCount } = await this.db.execute(
      `UPDATE quota_leases SET promised = LEAST(granted, GREATEST(promised, $4::int)), expires_at = now() + make_interval(secs => $5::int)
        WHERE client_id = $1 AND period = $2 AND holder = $3`,
      [lease.clientId, lease.period, lease.holder, promised, ttlSeconds],
      'quota-lease-promise',
    );
    return rowCount > 0;
  }

  async giveBack(lease: { clientId: string; period: string; holder: string }, answered: number): Promise<void> {
    await this.db.query(RETURN, [lease.clientId, lease.period, lease.holder, answered]);
  }

  /** Reclaims every expired lease; the clients whose counters changed. */
  async reclaimExpired(): Promise<string[]> {
    const rows = await this.db.query<{ client_id: string }>(RECLAIM);
    return rows.map((r) => r.client_id);
  }

  /**
   * The period's usage as answered so far, seen from `holder`: the counter less what other
   * holders have leased but not promised, and less `ownUnused` (this holder's exact figure).
   */
  async answered(clientId: string, period: string, holder: string, ownUnused: number): Promise<number> {
    const rows = await this.db.query<{ used: number }>(
      `SELECT u.used - COALESCE((SELECT sum(l.granted - l.promised) FROM quota_leases l
          WHERE l.client_id = $1 AND l.period = $2 AND l.holder <> $3), 0)::int AS used
        FROM quota_usage u WHERE u.client_id = $1 AND u.period = $2`,
      [clientId, period, holder],
    );
    return Math.max(0, (rows[0]?.used ?? 0) - ownUnused);
  }
}
