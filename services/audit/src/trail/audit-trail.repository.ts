import { Injectable } from '@nestjs/common';
import { Database } from '@vigil/platform';
import type { AuditRow, AuditTable } from './audit-records.js';

const COLUMNS: Readonly<Record<AuditTable, readonly string[]>> = {
  security_events: [
    'event_id',
    'event_type',
    'occurred_at',
    'ip',
    'endpoint',
    'method',
    'admin_email',
    'client_name',
    'client_id',
    'actor_id',
    'request_id',
    'reason',
  ],
  screening_events: [
    'event_id',
    'screening_id',
    'kind',
    'client_id',
    'tier',
    'actor_id',
    'request_id',
    'searched_name',
    'searched_email',
    'match_found',
    'status',
    'score',
    'top_entity_id',
    'matched_name',
    'source_list',
    'is_alert',
    'list_versions',
    'occurred_at',
  ],
  review_decisions: ['event_id', 'review_id', 'screening_log_id', 'client_id', 'decision', 'actor_id', 'occurred_at'],
  admin_actions: [
    'event_id',
    'action',
    'actor_id',
    'actor_email',
    'client_id',
    'client_name',
    'ip',
    'endpoint',
    'request_id',
    'details',
    'occurred_at',
  ],
};
const TABLES = Object.keys(COLUMNS) as AuditTable[];
/** The event id's column type, so the look-up uses the unique index. */
const ID_TYPE: Readonly<Record<AuditTable, 'uuid' | 'text'>> = {
  security_events: 'uuid',
  screening_events: 'text',
  review_decisions: 'text',
  admin_actions: 'uuid',
};

/** Postgres reports these when two transactions collide; the batch is simply retried. */
const RETRYABLE = new Set(['40P01', '40001', '23505']);

/**
 * Appends audit rows. One transaction per batch: the chains' heads are locked in one order
 * (so concurrent batches cannot deadlock), events already stored are dropped (a redelivery),
 * and the rest are inserted; the database's trigger chains each row onto its head.
 */
@Injectable()
export class AuditTrailRepository {
  constructor(private readonly db: Database) {}

  /** Stores what is new in `rows`; answers how many rows were inserted. */
  async append(rows: readonly AuditRow[]): Promise<number> {
    const unique = new Map<string, AuditRow>();
    for (const row of rows) unique.set(`${row.table}:${row.eventId}`, row);
    if (unique.size === 0) return 0;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.appendOnce([...unique.values()]);
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (attempt >= 5 || !code || !RETRYABLE.has(code)) throw error;
      }
    }
  }

  private appendOnce(rows: readonly AuditRow[]): Promise<number> {
    return this.db.transaction(async (tx) => {
      const chains = [...new Set(rows.map((r) => r.chainId))];
      await tx.query('SELECT audit_lock_chains($1::text[])', [chains]);
      let inserted = 0;
      for (const table of TABLES) {
        const mine = rows.filter((r) => r.table === table);
        if (mine.length === 0) continue;
        // Under the chains' locks: a concurrent copy of one of these events is in the same chain,
        // so it has either committed (and is seen here) or waits for this transaction.
        const existing: Array<{ event_id: string }> = await tx.query(
          `SELECT event_id::text FROM ${table} WHERE event_id = ANY($1::${ID_TYPE[table]}[])`,
          [mine.map((r) => r.eventId)],
        );
        const seen = new Set(existing.map((e) => e.event_id));
        const fresh = mine.filter((r) => !seen.has(r.eventId));
        if (fresh.length === 0) continue;
        const columns = COLUMNS[table];
        const list = columns.join(', ');
        await tx.query(
          `INSERT INTO ${table} (${list}, chain_id)
           SELECT ${list}, chain_id FROM json_populate_recordset(NULL::${table}, $1::json) WITH ORDINALITY AS r
            ORDER BY r.ordinality`,
          [JSON.stringify(fresh.map((r) => ({ ...r.columns, chain_id: r.chainId })))],
        );
        inserted += fresh.length;
      }
      return inserted;
    });
  }
}
