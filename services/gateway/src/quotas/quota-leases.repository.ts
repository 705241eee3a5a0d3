import { Injectable } from '@nestjs/common';
import { Database } from '@vigil/platform';

/** The lease row a holder serves under; `expiresAt` and `dbNow` are the database's clock. */
export type LeaseRow = { leaseId: string; granted: number; expiresAt: Date; dbNow: Date };

/** What a grant gave: the block's size, the period's total after it, and the row it went to; null when even `amount` does not fit. */
export type Grant = (LeaseRow & { block: number; used: number }) | null;

/** A lease ready to settle and the screens logged under it. */
export type Settlement = { leaseId: string; answered: number };

/**
 * How long after a lease's last answer-by time it is settled. Screening checks answer-by when its
 * log statement starts (the database's clock) and the row is visible once that statement commits:
 * the grace must outlast one log statement, or a screen logged just in time could be missed.
 */
export const SETTLE_GRACE_SECONDS = 5;

// One statement: size the block from what remains (`$6`-th of it, at most `$5` beyond the
// request), count it in quota_usage only if the total stays within the quota, and add it to the
// holder's live lease row `$8` (or a new row when it has none, or that one expired). The size is
// read from the statement's snapshot; the upsert's WHERE re-checks the latest row, so a concurrent
// grant can shrink the block to a refusal but never push the total past the quota. An expired row
// is never extended: screens under it may already have been refused, and it may be settling.
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
), extended AS (
  UPDATE quota_leases l SET granted = l.granted + want.n, expires_at = now() + make_interval(secs => $9::int)
    FROM want, counted
   WHERE l.lease_id = $8::uuid AND l.expires_at > now()
  RETURNING l.lease_id, l.granted, l.expires_at
), created AS (
  INSERT INTO quota_leases (lease_id, client_id, period, holder, granted, served, fixed, expires_at)
  SELECT gen_random_uuid(), $1, $2, $7, want.n, 0, 0, now() + make_interval(secs => $9::int)
    FROM want, counted WHERE NOT EXISTS (SELECT 1 FROM extended)
  RETURNING lease_id, granted, expires_at
), leased AS (SELECT * FROM extended UNION ALL SELECT * FROM created)
SELECT want.n AS block, counted.used, leased.lease_id AS "leaseId", leased.granted, leased.expires_at AS "expiresAt", now() AS "dbNow"
  FROM want, counted, leased`;

// Settles leases: each row goes, and the period's counter keeps only what was answered under it
// (`fixed` + the screens screening logged), giving back the rest. `$2` is false for a holder
// settling its own drained lease, true for a sweep that must only take rows past their grace. The
// DELETE takes each row once however many replicas settle at the same time; a row renewed since
// its answers were counted is left for a later sweep. The charge never exceeds the block (the
// quota is never overshot); `overcharge` reports an answer count above it, which would be a bug.
const SETTLE = `
WITH input AS (
  SELECT * FROM json_to_recordset($1::json) AS i("leaseId" uuid, answered int)
), gone AS (
  DELETE FROM quota_leases l USING input
   WHERE l.lease_id = input."leaseId"
     AND (NOT $2::boolean OR l.expires_at < now() - make_interval(secs => ${SETTLE_GRACE_SECONDS}))
  RETURNING l.client_id, l.period, l.granted, l.fixed + input.answered AS answered
), back AS (
  SELECT client_id, period, sum(granted - LEAST(granted, answered))::int AS n,
         sum(GREATEST(0, answered - granted))::int AS overcharge
    FROM gone GROUP BY client_id, period
), updated AS (
  UPDATE quota_usage u SET used = GREATEST(u.used - back.n, 0), updated_at = now()
    FROM back WHERE u.client_id = back.client_id AND u.period = back.period
  RETURNING u.client_id, u.period
)
SELECT back.client_id AS "clientId", back.period, back.overcharge FROM back`;

/**
 * The lease statements. They run rarely (per block, per renewal, per settlement), so they use the
 * durable pool: a lease the database forgot after a crash could be handed out twice.
 */
@Injectable()
export class QuotaLeasesRepository {
  constructor(private readonly db: Database) {}

  async grant(
    lease: { clientId: string; period: string; holder: string; leaseId: string | undefined },
    amount: number,
    quota: number,
    options: { maxExtra: number; fraction: number; ttlSeconds: number },
  ): Promise<Grant> {
    if (amount > quota) return null;
    const rows = await this.db.query<NonNullable<Grant>>(
      GRANT,
      [
        lease.clientId,
        lease.period,
        amount,
        quota,
        Math.max(0, Math.floor(options.maxExtra)),
        Math.max(1, Math.floor(options.fraction)),
        lease.holder,
        lease.leaseId ?? null,
        options.ttlSeconds,
      ],
      'quota-lease-grant-v2',
    );
    return rows[0] ?? null;
  }

  /**
   * Renews a live lease and records what its holder has counted (for live usage figures); null:
   * the lease had expired (it is settling or settled), and nothing more may be served under it.
   */
  async renew(leaseId: string, served: number, ttlSeconds: number): Promise<{ expiresAt: Date; dbNow: Date } | null> {
    const rows = await this.db.query<{ expiresAt: Date; dbNow: Date }>(
      `UPDATE quota_leases SET served = LEAST(granted, $2::int), expires_at = now() + make_interval(secs => $3::int)
        WHERE lease_id = $1 AND expires_at > now()
        RETURNING expires_at AS "expiresAt", now() AS "dbNow"`,
      [leaseId, served, ttlSeconds],
      'quota-lease-renew',
    );
    return rows[0] ?? null;
  }

  /** Leases no holder renews any more, past their grace: the ones a sweep may settle. */
  async settleable(limit: number): Promise<string[]> {
    const rows = await this.db.query<{ leaseId: string }>(
      `SELECT lease_id AS "leaseId" FROM quota_leases
        WHERE expires_at < now() - make_interval(secs => ${SETTLE_GRACE_SECONDS})
        ORDER BY expires_at LIMIT $1`,
      [limit],
    );
    return rows.map((r) => r.leaseId);
  }

  /** Settles leases to their answers; the clients and periods whose counters changed. */
  async settle(
    settlements: readonly Settlement[],
    sweep: boolean,
  ): Promise<Array<{ clientId: string; period: string; overcharge: number }>> {
    if (settlements.length === 0) return [];
    const rows = await this.db.query<{ clientId: string; period: string; overcharge: number }>(SETTLE, [
      JSON.stringify(settlements),
      sweep,
    ]);
    return rows;
  }

  /**
   * The period's usage as answered so far, seen from the holder of lease `own`: the counter less
   * what the other leases have not served (as of their holders' last renewal), and less
   * `ownUnused` (the exact figure for `own`). Exact once every lease is settled.
   */
  async answered(clientId: string, period: string, own: string | undefined, ownUnused: number): Promise<number> {
    const rows = await this.db.query<{ used: number }>(
      `SELECT u.used - COALESCE((SELECT sum(l.granted - GREATEST(l.served, l.fixed)) FROM quota_leases l
          WHERE l.client_id = $1 AND l.period = $2 AND l.lease_id IS DISTINCT FROM $3::uuid), 0)::int AS used
        FROM quota_usage u WHERE u.client_id = $1 AND u.period = $2`,
      [clientId, period, own ?? null],
    );
    return Math.max(0, (rows[0]?.used ?? 0) - ownUnused);
  }
}
