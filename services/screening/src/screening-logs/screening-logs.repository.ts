import { Inject, Injectable } from '@nestjs/common';
import { createDatabase, type Database } from '@vigil/platform';
import { subjects, type ScreenedEvent, type ScreeningActor } from '@vigil/proto';
import type { ScreeningConfig } from '../env.js';
import type { ScreeningLogEntry } from './screening-log.js';

export const SCREENING_LOG_DATABASE = Symbol('SCREENING_LOG_DATABASE');

/**
 * A small pool of its own for screening logs: they are written on every screen, before
 * the answer, so they get single-statement writes and (configurably) asynchronous commit.
 */
export function screeningLogDatabase(config: Readonly<ScreeningConfig>): Database {
  return createDatabase({
    databaseUrl: config.DATABASE_URL,
    schema: config.DB_SCHEMA,
    name: '-logs',
    max: 4,
    settings: { synchronous_commit: config.SCREENING_LOG_SYNCHRONOUS_COMMIT ? 'on' : 'off' },
  });
}

// A screen counted under a quota lease is written only while the lease may still be settled later
// (now() before its answerBy): the gateway settles a lease once its answerBy has passed, so a log
// written after that would be an answer nobody is charged for. `input` holds the writable entries.
const INPUT = `given AS (
   SELECT * FROM json_to_recordset($1::json) AS l(
     id uuid, kind text, client_id text, tier text, request_id text, searched_name text, searched_email text,
     match_found boolean, status text, score numeric, confidence text, top_entity_id text, matched_entity_name text,
     source_list text, match_reason text, feeds text[], list_versions jsonb, created_at timestamptz, event json,
     traceparent text, case_file jsonb, memory_note text, quota_lease uuid, answer_by timestamptz, actor_kind text,
     actor_id text, actor_label text)),
 input AS (SELECT * FROM given WHERE answer_by IS NULL OR answer_by > now())`;

const LOGS = `logs AS (
   INSERT INTO screening_logs (id, kind, client_id, tier, request_id, searched_name, searched_email, match_found, status, score,
                               confidence, top_entity_id, matched_entity_name, source_list, is_alert, feeds, list_versions, created_at,
                               quota_lease, actor_kind, actor_id, actor_label)
   SELECT id, kind, client_id, tier, request_id, searched_name, searched_email, match_found, status, score,
          confidence, top_entity_id, matched_entity_name, source_list, status = 'blocked', feeds, list_versions, created_at,
          quota_lease, actor_kind, actor_id, actor_label
     FROM input
   ON CONFLICT (id) DO NOTHING
   RETURNING id)`;

const ALERTS = `alerts AS (
   INSERT INTO sanction_alerts (id, screening_log_id, client_id, full_name, email, matched_entity_id, matched_name, match_reason, confidence, risk_score, triggered_at)
   SELECT gen_random_uuid(), id, client_id, searched_name, searched_email, top_entity_id, coalesce(matched_entity_name, ''),
          coalesce(match_reason, ''), confidence, score, created_at
     FROM input WHERE status = 'blocked' AND top_entity_id IS NOT NULL
   ON CONFLICT (screening_log_id) DO NOTHING)`;

// A blocked screening opens a case too: the block is a decision an analyst confirms or overturns.
const REVIEWS = `reviews AS (
   INSERT INTO pending_reviews (id, screening_log_id, client_id, searched_input, confidence, screening_score, matched_entity_id,
                                matched_name, created_at, case_file, memory_note, raised_as)
   SELECT gen_random_uuid(), id, client_id, coalesce(searched_name, searched_email, ''), confidence, score, top_entity_id,
          matched_entity_name, created_at, case_file, memory_note, status
     FROM input WHERE status IN ('review', 'blocked') AND top_entity_id IS NOT NULL
   ON CONFLICT (screening_log_id) DO NOTHING)`;

/** At most this many events in one outbox_batches row, so that one relay transaction stays small for bulk batches too. */
export const EVENTS_PER_OUTBOX_BATCH = 100;

// Only for logs this statement wrote: a retried bulk chunk (same ids) publishes nothing twice.
// One outbox_batches row for the batch (split per EVENTS_PER_OUTBOX_BATCH events when larger),
// each message the event as this process serialised it (json, kept as text: parsing every event
// into jsonb for an outbox row of its own had cost Postgres more than the rest of the write), with
// the log id as its message id.
const MESSAGE = `json_build_object('id', input.id, 'traceparent', input.traceparent, 'payload', input.event)`;
const EVENTS = `events AS (
   INSERT INTO outbox_batches (subject, messages)
   SELECT $2, json_agg(${MESSAGE}) FROM input JOIN logs USING (id)
   HAVING count(*) > 0)`;
const EVENTS_SPLIT = `events AS (
   INSERT INTO outbox_batches (subject, messages)
   SELECT $2, json_agg(message ORDER BY n)
     FROM (SELECT row_number() OVER () - 1 AS n, ${MESSAGE} AS message FROM input JOIN logs USING (id)) AS written
    GROUP BY n / ${EVENTS_PER_OUTBOX_BATCH})`;

function statementFor(withAlerts: boolean, withReviews: boolean, split: boolean): { name: string; text: string } {
  const parts = [
    INPUT,
    LOGS,
    ...(withAlerts ? [ALERTS] : []),
    ...(withReviews ? [REVIEWS] : []),
    split ? EVENTS_SPLIT : EVENTS,
  ];
  return {
    name: `screening-logs-record${withAlerts ? '-alerts' : ''}${withReviews ? '-reviews' : ''}${split ? '-split' : ''}`,
    text: `WITH ${parts.join(',\n')}
SELECT (SELECT count(*)::int FROM logs) AS written, (SELECT array_agg(id::text) FROM given WHERE answer_by <= now()) AS late`,
  };
}

const STATEMENTS = [false, true].flatMap((split) => [
  statementFor(false, false, split),
  statementFor(true, false, split),
  statementFor(false, true, split),
  statementFor(true, true, split),
]);

/**
 * The write for a batch, with the alert and review inserts only when the batch has a blocked or a
 * review screen: every insert a statement names opens its table and indexes and runs its
 * triggers even for no row, and most batches of a bank's traffic are clear screens. A batch of
 * more events than one outbox_batches row holds (bulk) splits them. Named: each connection parses
 * and plans each variant once, not on every screen.
 */
export function recordStatement(
  withAlerts: boolean,
  withReviews: boolean,
  entries = 1,
): { name: string; text: string } {
  return STATEMENTS[(withAlerts ? 1 : 0) + (withReviews ? 2 : 0) + (entries > EVENTS_PER_OUTBOX_BATCH ? 4 : 0)]!;
}

/** The actor as the log's three columns: kind, the id it is filtered on, and what the dashboard shows. */
export function actorColumns(actor: ScreeningActor | null): {
  actor_kind: ScreeningActor['kind'] | null;
  actor_id: string | null;
  actor_label: string | null;
} {
  switch (actor?.kind) {
    case undefined:
      return { actor_kind: null, actor_id: null, actor_label: null };
    case 'user':
      return { actor_kind: 'user', actor_id: actor.userId, actor_label: actor.email };
    case 'api_key':
      return { actor_kind: 'api_key', actor_id: actor.keyId, actor_label: actor.keyPrefix };
    case 'bulk_job':
      return { actor_kind: 'bulk_job', actor_id: actor.jobId, actor_label: actor.submittedBy ?? null };
    case 'monitoring':
      return { actor_kind: 'monitoring', actor_id: null, actor_label: null };
  }
}

/**
 * Writes screening logs with what follows from them in one statement (one transaction, one
 * round trip): a sanction alert for each blocked screen, a pending review (with its case file)
 * for each review or blocked screen, and the screening.v1.screened event (outbox_batches) whose id is the log id. Alerts and
 * reviews are unique per log row, so a retried write cannot double them.
 */
@Injectable()
export class ScreeningLogsRepository {
  constructor(@Inject(SCREENING_LOG_DATABASE) private readonly db: Database) {}

  /**
   * Writes the entries; answers the ids of those refused because their quota lease's `answerBy`
   * had passed by the database's clock (nothing is written for them: they must not be answered).
   */
  async record(entries: readonly ScreeningLogEntry[]): Promise<Set<string>> {
    if (entries.length === 0) return new Set();
    // One JSON document for the whole batch: pg would otherwise serialise and escape some forty
    // array parameters element by element, which cost each screen more CPU and memory than the
    // rest of the write.
    const rows = entries.map((e) => {
      const event: ScreenedEvent = {
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
        actor: e.actor,
      };
      return {
        id: e.id,
        kind: e.kind,
        client_id: e.clientId,
        tier: e.tier,
        request_id: e.requestId,
        searched_name: e.searchedName,
        searched_email: e.searchedEmail,
        match_found: e.matchFound,
        status: e.status,
        score: e.score,
        confidence: e.confidence,
        top_entity_id: e.topEntityId,
        matched_entity_name: e.matchedEntityName,
        source_list: e.sourceList,
        match_reason: e.matchReason,
        feeds: e.feeds,
        list_versions: e.listVersions,
        created_at: event.createdAt,
        event,
        traceparent: e.traceparent,
        case_file: e.review,
        memory_note: e.review?.memoryNote ?? null,
        quota_lease: e.quotaLease?.id ?? null,
        answer_by: e.quotaLease?.answerBy ?? null,
        ...actorColumns(e.actor),
      };
    });
    const statement = recordStatement(
      entries.some((e) => e.status === 'blocked'),
      entries.some((e) => e.status !== 'clear'),
      entries.length,
    );
    const written = await this.db.query<{ late: string[] | null }>(
      statement.text,
      [JSON.stringify(rows), subjects.screening.screened],
      statement.name,
    );
    return new Set(written[0]?.late ?? []);
  }
}
