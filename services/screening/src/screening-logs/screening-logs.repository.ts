import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { subjects, type ScreenedEvent } from '@vigil/proto';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { ScreeningLogEntry } from './screening-log.js';

export const SCREENING_LOG_POOL = Symbol('SCREENING_LOG_POOL');

/**
 * A small pool of its own for screening logs: they are written on every screen, before
 * the answer, so they get single-statement writes and (configurably) asynchronous commit.
 */
export function screeningLogPool(databaseUrl: string, schema: string, synchronousCommit: boolean): pg.Pool {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: 4,
    application_name: `vigil-${schema}-logs`,
    options: `-c search_path="${schema}" -c synchronous_commit=${synchronousCommit ? 'on' : 'off'}`,
  });
  // An idle connection dropped by the server (restart, failover, shutdown) is an 'error'
  // event on the pool; unheard, it would crash the service. The pool replaces the client.
  pool.on('error', (error) => process.stderr.write(`[screening] screening-log pool: ${error.message}\n`));
  return pool;
}

/**
 * Writes screening logs with what follows from them in one statement (one transaction, one
 * round trip): a sanction alert for each blocked screen, a pending review for each review
 * screen, and the screening.v1.screened event (outbox) whose id is the log id. Alerts and
 * reviews are unique per log row, so a retried write cannot double them.
 */
@Injectable()
export class ScreeningLogsRepository implements OnModuleDestroy {
  constructor(@Inject(SCREENING_LOG_POOL) private readonly pool: pg.Pool) {}

  async record(entries: readonly ScreeningLogEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const alerts = entries.filter((e) => e.status === 'blocked' && e.topEntityId);
    const reviews = entries.filter((e) => e.status === 'review' && e.topEntityId);
    const events = entries.map((e) => {
      const payload: ScreenedEvent = {
        eventId: e.id,
        screeningId: e.id,
        kind: e.kind,
        clientId: e.clientId,
        tier: e.tier,
        requestId: e.requestId,
        searchedName: e.searchedName,
        searchedEmail: e.searchedEmail,
        matchFound: e.matchFound,
        status: e.status,
        score: e.score,
        topEntityId: e.topEntityId,
        matchedName: e.matchedEntityName,
        sourceList: e.sourceList,
        isAlert: e.status === 'blocked',
        listVersions: e.listVersions,
        createdAt: e.createdAt.toISOString(),
      };
      return JSON.stringify(payload);
    });
    // Named: each connection parses and plans this statement once, not on every screen.
    await this.pool.query({
      name: 'screening-logs-record',
      text: `WITH logs AS (
         INSERT INTO screening_logs (id, kind, client_id, tier, request_id, searched_name, searched_email, match_found, status, score,
                                     confidence, top_entity_id, matched_entity_name, source_list, is_alert, feeds, list_versions, created_at)
         SELECT id, kind, client_id, tier, request_id, searched_name, searched_email, match_found, status, score,
                confidence, top_entity_id, matched_entity_name, source_list, status = 'blocked', string_to_array(feeds, ','), list_versions::jsonb, created_at
           FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::boolean[], $9::text[],
                       $10::numeric[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[], $16::text[], $17::timestamptz[])
             AS l(id, kind, client_id, tier, request_id, searched_name, searched_email, match_found, status, score,
                  confidence, top_entity_id, matched_entity_name, source_list, feeds, list_versions, created_at)
         ON CONFLICT (id) DO NOTHING
         RETURNING id),
       alerts AS (
         INSERT INTO sanction_alerts (id, screening_log_id, client_id, full_name, email, matched_entity_id, matched_name, match_reason, confidence, risk_score, triggered_at)
         SELECT * FROM unnest($18::uuid[], $19::uuid[], $20::text[], $21::text[], $22::text[], $23::text[], $24::text[], $25::text[], $26::text[], $27::numeric[], $28::timestamptz[])
         ON CONFLICT (screening_log_id) DO NOTHING),
       reviews AS (
         INSERT INTO pending_reviews (id, screening_log_id, client_id, searched_input, confidence, screening_score, matched_entity_id, created_at)
         SELECT * FROM unnest($29::uuid[], $30::uuid[], $31::text[], $32::text[], $33::text[], $34::numeric[], $35::text[], $36::timestamptz[])
         ON CONFLICT (screening_log_id) DO NOTHING),
       events AS (
         INSERT INTO outbox (id, subject, payload)
         SELECT id, $37, payload::jsonb FROM unnest($38::uuid[], $39::text[]) AS o(id, payload)
         ON CONFLICT (id) DO NOTHING)
       SELECT count(*)::int AS written FROM logs`,
      values: [
        entries.map((e) => e.id),
        entries.map((e) => e.kind),
        entries.map((e) => e.clientId),
        entries.map((e) => e.tier),
        entries.map((e) => e.requestId),
        entries.map((e) => e.searchedName),
        entries.map((e) => e.searchedEmail),
        entries.map((e) => e.matchFound),
        entries.map((e) => e.status),
        entries.map((e) => e.score),
        entries.map((e) => e.confidence),
        entries.map((e) => e.topEntityId),
        entries.map((e) => e.matchedEntityName),
        entries.map((e) => e.sourceList),
        entries.map((e) => e.feeds.join(',')),
        entries.map((e) => JSON.stringify(e.listVersions)),
        entries.map((e) => e.createdAt),
        alerts.map(() => randomUUID()),
        alerts.map((e) => e.id),
        alerts.map((e) => e.clientId),
        alerts.map((e) => e.searchedName),
        alerts.map((e) => e.searchedEmail),
        alerts.map((e) => e.topEntityId),
        alerts.map((e) => e.matchedEntityName ?? ''),
        alerts.map((e) => e.matchReason ?? ''),
        alerts.map((e) => e.confidence),
        alerts.map((e) => e.score),
        alerts.map((e) => e.createdAt),
        reviews.map(() => randomUUID()),
        reviews.map((e) => e.id),
        reviews.map((e) => e.clientId),
        reviews.map((e) => e.searchedName ?? e.searchedEmail ?? ''),
        reviews.map((e) => e.confidence),
        reviews.map((e) => e.score),
        reviews.map((e) => e.topEntityId),
        reviews.map((e) => e.createdAt),
        subjects.screening.screened,
        entries.map((e) => e.id),
        events,
      ],
    });
  }

  async onModuleDestroy(): Promise<void> {
    await this.pool.end();
  }
}
