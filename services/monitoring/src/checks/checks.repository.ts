import { Injectable } from '@nestjs/common';
import type { EntryScreeningStatus } from '@vigil/proto';
import { Database, type Transaction } from '@vigil/platform';

/** What a check screens: the entity's name and aliases, for its client. */
/** `due`: the next_check_due a scheduled check was claimed for (absent for a manual check). */
export type CheckTarget = { id: string; clientId: string; entityName: string; aliases: string[]; due?: string };

export type CheckOutcome = {
  status: EntryScreeningStatus;
  score: number | null;
  source: string | null;
  details: string;
};

const targetOf = (r: {
  id: string;
  client_id: string;
  entity_name: string;
  entity_aliases: string[];
  next_check_due?: Date | string;
}): CheckTarget => ({
  id: r.id,
  clientId: r.client_id,
  entityName: r.entity_name,
  aliases: r.entity_aliases,
  ...(r.next_check_due ? { due: new Date(r.next_check_due).toISOString() } : {}),
});

/** Due checks (claimed with row locks and a lease) and the recording of any check's outcome. */
@Injectable()
export class ChecksRepository {
  constructor(private readonly db: Database) {}

  /** Active entities whose check is due now (the re-screening queue's depth). */
  async dueCount(): Promise<number> {
    const rows: Array<{ n: number }> = await this.db.query(
      `SELECT count(*)::int AS n FROM monitored_entities WHERE monitoring_status = 'active' AND next_check_due <= now()`,
    );
    return rows[0]?.n ?? 0;
  }

  /**
   * Claims up to `limit` active entities whose check is due and not claimed by a live replica.
   * SKIP LOCKED keeps replicas off each other's rows; the lease makes a crashed replica's claim
   * expire, so the check is due again after a restart.
   */
  async claimDue(limit: number, leaseMs: number): Promise<CheckTarget[]> {
    const rows = await this.db.query<{ id: string; client_id: string; entity_name: string; entity_aliases: string[]; next_check_due: Date }>(
      `WITH due AS (
         SELECT id FROM monitored_entities
          WHERE monitoring_status = 'active' AND next_check_due <= now()
            AND (claimed_until IS NULL OR claimed_until < now())
          ORDER BY next_check_due LIMIT $1 FOR UPDATE SKIP LOCKED)
       UPDATE monitored_entities e SET claimed_until = now() + ($2::int * interval '1 millisecond')
         FROM due WHERE e.id = due.id
       RETURNING e.id, e.client_id, e.entity_name, e.entity_aliases, e.next_check_due`,
      [limit, leaseMs],
    );
    return rows.map(targetOf);
  }

  async targets(clientId: string, ids: readonly string[]): Promise<CheckTarget[]> {
    const rows: Array<{ id: string; client_id: string; entity_name: string; entity_aliases: string[] }> =
      await this.db.query(
        `SELECT id, client_id, entity_name, entity_aliases FROM monitored_entities WHERE client_id = $1 AND id = ANY($2::uuid[])`,
        [clientId, [...ids]],
      );
    return rows.map(targetOf);
  }

  /** Writes each entity's outcome and schedules its next check by its frequency. */
  async recordOutcomes(
    tx: Transaction,
    outcomes: ReadonlyArray<{ id: string; outcome: CheckOutcome }>,
  ): Promise<void> {
    if (outcomes.length === 0) return;
    await tx.query(
      `UPDATE monitored_entities e SET
          last_checked = now(), claimed_until = NULL,
          next_check_due = now() + CASE e.check_frequency WHEN 'daily' THEN interval '1 day'
                                   WHEN 'weekly' THEN interval '7 days' ELSE interval '1 month' END,
          screening_status = r.status, screening_score = r.score, screening_source = r.source,
          screening_details = r.details
         FROM unnest($1::uuid[], $2::text[], $3::float8[], $4::text[], $5::text[]) AS r(id, status, score, source, details)
        WHERE e.id = r.id`,
      [
        outcomes.map((o) => o.id),
        outcomes.map((o) => o.outcome.status),
        outcomes.map((o) => o.outcome.score),
        outcomes.map((o) => o.outcome.source),
        outcomes.map((o) => o.outcome.details),
      ],
    );
  }

  /** A check that could not be screened: status unknown (§4), retried after `retryMs`. */
  async recordFailure(ids: readonly string[], retryMs: number, detail: string): Promise<void> {
    if (ids.length === 0) return;
    await this.db.query(
      `UPDATE monitored_entities SET screening_status = 'unknown', screening_details = $3,
              claimed_until = now() + ($2::int * interval '1 millisecond')
        WHERE id = ANY($1::uuid[])`,
      [[...ids], retryMs, detail],
    );
  }

  /**
   * Marks the entities as re-screened for a list version; returns those not marked before, in the
   * same transaction as their alerts: a redelivered event finds them all marked and raises nothing.
   */
  async markRescreened(
    tx: Transaction,
    source: string,
    versionId: number,
    ids: readonly string[],
  ): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows: Array<{ monitored_entity_id: string }> = await tx.query(
      `INSERT INTO rescreen_checks (list_source, version_id, monitored_entity_id)
       SELECT $1, $2, r.id FROM unnest($3::uuid[]) AS r(id)
        WHERE EXISTS (SELECT 1 FROM monitored_entities m WHERE m.id = r.id)
       ON CONFLICT DO NOTHING RETURNING monitored_entity_id`,
      [source, versionId, [...ids]],
    );
    return new Set(rows.map((r) => r.monitored_entity_id));
  }

  async alreadyRescreened(source: string, versionId: number, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows: Array<{ monitored_entity_id: string }> = await this.db.query(
      `SELECT monitored_entity_id FROM rescreen_checks
        WHERE list_source = $1 AND version_id = $2 AND monitored_entity_id = ANY($3::uuid[])`,
      [source, versionId, [...ids]],
    );
    return new Set(rows.map((r) => r.monitored_entity_id));
  }

  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }
}
