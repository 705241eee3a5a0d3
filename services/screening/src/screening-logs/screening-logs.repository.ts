import { Injectable } from '@nestjs/common';
import { subjects, type ScreenedEvent } from '@vigil/proto';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { OutboxRepository } from '../events/outbox.repository.js';
import type { ScreeningLogEntry } from './screening-log.js';

/**
 * Writes screening logs with what follows from them in one transaction: a sanction alert
 * for each blocked screen, a pending review for each review screen, and the
 * screening.v1.screened event (outbox) whose id is the log id.
 */
@Injectable()
export class ScreeningLogsRepository {
  constructor(
    private readonly db: DataSource,
    private readonly outbox: OutboxRepository,
  ) {}

  async record(entries: readonly ScreeningLogEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await this.db.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO screening_logs (id, kind, client_id, tier, request_id, searched_name, searched_email, match_found, status, score,
                                     confidence, top_entity_id, matched_entity_name, source_list, is_alert, feeds, list_versions, created_at)
         SELECT id, kind, client_id, tier, request_id, searched_name, searched_email, match_found, status, score,
                confidence, top_entity_id, matched_entity_name, source_list, status = 'blocked', string_to_array(feeds, ','), list_versions::jsonb, created_at
           FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::boolean[], $9::text[],
                       $10::numeric[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[], $16::text[], $17::timestamptz[])
             AS l(id, kind, client_id, tier, request_id, searched_name, searched_email, match_found, status, score,
                  confidence, top_entity_id, matched_entity_name, source_list, feeds, list_versions, created_at)
         ON CONFLICT (id) DO NOTHING`,
        [
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
        ],
      );
      const alerts = entries.filter((e) => e.status === 'blocked' && e.topEntityId);
      if (alerts.length > 0) {
        await tx.query(
          `INSERT INTO sanction_alerts (id, screening_log_id, client_id, full_name, email, matched_entity_id, matched_name, match_reason, confidence, risk_score, triggered_at)
           SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::numeric[], $11::timestamptz[])
           ON CONFLICT (screening_log_id) DO NOTHING`,
          [
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
          ],
        );
      }
      const reviews = entries.filter((e) => e.status === 'review' && e.topEntityId);
      if (reviews.length > 0) {
        await tx.query(
          `INSERT INTO pending_reviews (id, screening_log_id, client_id, searched_input, confidence, screening_score, matched_entity_id, created_at)
           SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::numeric[], $7::text[], $8::timestamptz[])
           ON CONFLICT (screening_log_id) DO NOTHING`,
          [
            reviews.map(() => randomUUID()),
            reviews.map((e) => e.id),
            reviews.map((e) => e.clientId),
            reviews.map((e) => e.searchedName ?? e.searchedEmail ?? ''),
            reviews.map((e) => e.confidence),
            reviews.map((e) => e.score),
            reviews.map((e) => e.topEntityId),
            reviews.map((e) => e.createdAt),
          ],
        );
      }
      await this.outbox.add(
        tx,
        entries.map((e) => {
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
          return { id: e.id, subject: subjects.screening.screened, payload };
        }),
      );
    });
  }
}
