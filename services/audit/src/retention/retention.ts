import { RETENTION_CHAIN } from '../trail/audit-records.js';
import type { Query } from '../trail/chain-verifier.js';

export type RetentionPolicy = { screeningDays: number; securityDays: number };
export type RetentionOutcome = { segments: number; rowsRemoved: number };

const DAY_MS = 86_400_000;
const RETENTION_ROLE = 'vigil_audit_retention';

/**
 * Removes expired rows a whole segment at a time and records a checkpoint for each segment.
 * A segment is a maximal run of consecutive rows of one chain that have all expired (security
 * events after `securityDays`, everything else after `screeningDays`); its checkpoint keeps the
 * hash before it and its last hash, so the chain still verifies across the gap.
 *
 * Must run inside a transaction: it takes the retention role and the session setting that the
 * append-only trigger requires for a DELETE, both for this transaction only.
 */
export async function applyRetention(
  query: Query,
  policy: RetentionPolicy,
  now = new Date(),
): Promise<RetentionOutcome> {
  await query(`SET LOCAL ROLE ${RETENTION_ROLE}`);
  await query(`SELECT set_config('vigil.audit_retention', 'on', true)`);
  const security = new Date(now.getTime() - policy.securityDays * DAY_MS);
  const records = new Date(now.getTime() - policy.screeningDays * DAY_MS);
  const segments = await query(
    `WITH expired AS (
       SELECT 'security_events' AS tbl, chain_id, chain_seq, prev_hash, hash FROM security_events WHERE occurred_at < $1
       UNION ALL SELECT 'screening_events', chain_id, chain_seq, prev_hash, hash FROM screening_events WHERE occurred_at < $2
       UNION ALL SELECT 'review_decisions', chain_id, chain_seq, prev_hash, hash FROM review_decisions WHERE occurred_at < $2
       UNION ALL SELECT 'admin_actions', chain_id, chain_seq, prev_hash, hash FROM admin_actions WHERE occurred_at < $2),
     runs AS (
       SELECT *, chain_seq - row_number() OVER (PARTITION BY chain_id ORDER BY chain_seq) AS run FROM expired)
     SELECT chain_id, min(chain_seq) AS from_seq, max(chain_seq) AS to_seq, count(*)::int AS n,
            (array_agg(prev_hash ORDER BY chain_seq))[1] AS prev_hash,
            (array_agg(hash ORDER BY chain_seq DESC))[1] AS end_hash
       FROM runs
      GROUP BY chain_id, run
      ORDER BY chain_id, from_seq`,
    [security, records],
  );
  let rowsRemoved = 0;
  for (const s of segments) {
    const removed: Record<string, number> = {};
    for (const table of ['security_events', 'screening_events', 'review_decisions', 'admin_actions']) {
      const deleted = await query(
        `WITH gone AS (DELETE FROM ${table} WHERE chain_id = $1 AND chain_seq BETWEEN $2 AND $3 RETURNING 1)
         SELECT count(*)::int AS n FROM gone`,
        [s.chain_id, s.from_seq, s.to_seq],
      );
      const n = Number(deleted[0]!.n);
      if (n > 0) removed[table] = n;
    }
    await query(
      `INSERT INTO retention_checkpoints
         (target_chain, from_seq, to_seq, segment_prev_hash, segment_end_hash, rows_removed, removed, occurred_at, chain_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9)`,
      [s.chain_id, s.from_seq, s.to_seq, s.prev_hash, s.end_hash, s.n, JSON.stringify(removed), now, RETENTION_CHAIN],
    );
    rowsRemoved += Number(s.n);
  }
  return { segments: segments.length, rowsRemoved };
}
