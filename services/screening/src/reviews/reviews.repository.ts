import { Injectable } from '@nestjs/common';
import { Database } from '@vigil/platform';
import type {
  PreviousDecision,
  RememberedDecision,
  Review,
  ReviewAction,
  ReviewActor,
  ReviewSettings,
} from '@vigil/proto';
import type { Sql } from '../events/outbox.repository.js';
import { REVIEW_COLUMNS, toReview, type ReviewRow } from '../screening-logs/screening-logs.read-repository.js';
import type { MemoryQueryKey, ReviewCaseFile } from './review-memory.key.js';

/** A review as a decision step sees it: the row, locked, with what the events need. */
export type LockedReview = Review & { clientId: string; screening_log_id: string; has_case_file: boolean };

/** A remembered false positive as the screen path needs it. */
export type ActiveMemory = MemoryQueryKey & { id: string; reviewId: string; entityId: string; fingerprint: string };

type RememberedRow = Omit<
  RememberedDecision,
  'created_at' | 'date_of_birth' | 'country' | 'entity_type' | 'customer_reference'
> & {
  created_at: Date;
  date_of_birth: string;
  country: string;
  entity_type: string;
  customer_reference: string;
  revoked_at: Date | null;
  revoked_by_email: string | null;
  total?: string;
};

const orNull = (value: string) => (value === '' ? null : value);

const toRemembered = (r: RememberedRow): RememberedDecision => ({
  id: r.id,
  review_id: r.review_id,
  searched_name: r.searched_name,
  date_of_birth: orNull(r.date_of_birth),
  country: orNull(r.country),
  entity_type: orNull(r.entity_type),
  customer_reference: orNull(r.customer_reference),
  entity_id: r.entity_id,
  entity_name: r.entity_name,
  reason_code: r.reason_code,
  note: r.note,
  created_by_email: r.created_by_email,
  created_at: r.created_at.toISOString(),
});

const REMEMBERED_COLUMNS =
  'id, review_id, searched_name, date_of_birth, country, entity_type, customer_reference, entity_id, entity_name, ' +
  'reason_code, note, created_by_email, created_at, revoked_at, revoked_by_email';

/**
 * Review decisions, the four-eyes setting and remembered false positives. Every statement is
 * bounded by `client_id`: another client's id finds nothing. Decision steps run inside
 * `transaction` with the review row locked, so two members acting at once are serialised.
 */
@Injectable()
export class ReviewsRepository {
  constructor(private readonly db: Database) {}

  transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T> {
    return this.db.transaction((manager) => work(manager));
  }

  async lockReview(tx: Sql, clientId: string, id: string): Promise<LockedReview | null> {
    const rows: Array<ReviewRow & { screening_log_id: string; has_case_file: boolean }> = await tx.query(
      `SELECT ${REVIEW_COLUMNS}, screening_log_id, case_file IS NOT NULL AS has_case_file
         FROM pending_reviews WHERE client_id = $1 AND id = $2 FOR UPDATE`,
      [clientId, id],
    );
    const row = rows[0];
    return row
      ? { ...toReview(row), clientId, screening_log_id: row.screening_log_id, has_case_file: row.has_case_file }
      : null;
  }

  async fourEyes(sql: Sql, clientId: string): Promise<boolean> {
    const rows: Array<{ four_eyes: boolean }> = await sql.query(
      'SELECT four_eyes FROM review_settings WHERE client_id = $1',
      [clientId],
    );
    return rows[0]?.four_eyes ?? false;
  }

  async propose(
    tx: Sql,
    clientId: string,
    id: string,
    step: { action: ReviewAction; reasonCode: string; note: string | null; actor: ReviewActor },
  ): Promise<Review> {
    const rows: ReviewRow[] = await tx.query(
      `WITH changed AS (UPDATE pending_reviews
          SET status = 'proposed', proposed_action = $3, reason_code = $4, note = $5,
              proposed_by_id = $6, proposed_by_email = $7, proposed_at = now()
        WHERE client_id = $1 AND id = $2
        RETURNING ${REVIEW_COLUMNS}) SELECT * FROM changed`,
      [clientId, id, step.action, step.reasonCode, step.note, step.actor.userId, step.actor.email],
    );
    return toReview(rows[0]!);
  }

  /** The final decision; the reason and note are the proposal's when confirming one. */
  async finalise(
    tx: Sql,
    clientId: string,
    id: string,
    step: { action: ReviewAction; reasonCode: string; note: string | null; actor: ReviewActor },
  ): Promise<Review> {
    const rows: ReviewRow[] = await tx.query(
      `WITH changed AS (UPDATE pending_reviews
          SET status = $3, reason_code = $4, note = $5, decided_by_id = $6, decided_by_email = $7, decided_at = now()
        WHERE client_id = $1 AND id = $2
        RETURNING ${REVIEW_COLUMNS}) SELECT * FROM changed`,
      [
        clientId,
        id,
        step.action === 'approve' ? 'approved' : 'blocked',
        step.reasonCode,
        step.note,
        step.actor.userId,
        step.actor.email,
      ],
    );
    return toReview(rows[0]!);
  }

  /**
   * A decided block: its alert is marked reviewed with the decision's who, when and why, and an
   * overturned one clears its screening (the log keeps who cleared it and why).
   */
  async settleBlock(
    tx: Sql,
    clientId: string,
    screeningLogId: string,
    step: { action: ReviewAction; reasonCode: string; note: string | null; actor: ReviewActor },
  ): Promise<void> {
    const overturned = step.action === 'approve';
    await tx.query(
      `UPDATE sanction_alerts
          SET reviewed = true, reviewed_at = now(), reviewed_by_email = $3, review_outcome = $4,
              review_reason_code = $5, review_note = $6
        WHERE client_id = $1 AND screening_log_id = $2`,
      [clientId, screeningLogId, step.actor.email, overturned ? 'cleared' : 'confirmed', step.reasonCode, step.note],
    );
    if (!overturned) return;
    await tx.query(
      `UPDATE screening_logs
          SET status = 'clear', cleared_at = now(), cleared_by_email = $3, cleared_reason_code = $4, cleared_note = $5
        WHERE client_id = $1 AND id = $2`,
      [clientId, screeningLogId, step.actor.email, step.reasonCode, step.note],
    );
  }

  /** Back to the queue: the proposal's fields are cleared (the audit trail keeps them). */
  async returnToQueue(tx: Sql, clientId: string, id: string): Promise<Review> {
    const rows: ReviewRow[] = await tx.query(
      `WITH changed AS (UPDATE pending_reviews
          SET status = 'pending', proposed_action = NULL, reason_code = NULL, note = NULL,
              proposed_by_id = NULL, proposed_by_email = NULL, proposed_at = NULL
        WHERE client_id = $1 AND id = $2
        RETURNING ${REVIEW_COLUMNS}) SELECT * FROM changed`,
      [clientId, id],
    );
    return toReview(rows[0]!);
  }

  /**
   * Remembers an approved review from its case file (once per review). Null when the review has
   * no case file (raised before reviews kept one) or was already remembered.
   */
  async remember(
    tx: Sql,
    clientId: string,
    reviewId: string,
    memoryId: string,
    made: { reasonCode: string; note: string | null; actor: ReviewActor },
  ): Promise<{ id: string; entityId: string; searchedName: string } | null> {
    const rows: Array<{ id: string; entity_id: string; searched_name: string }> = await tx.query(
      `WITH changed AS (INSERT INTO remembered_decisions (id, client_id, review_id, searched_name, name_key, date_of_birth, country,
                                         entity_type, customer_reference, entity_id, entity_name, fingerprint,
                                         reason_code, note, created_by_id, created_by_email)
       SELECT $3, client_id, id, searched_input, case_file->'memory'->>'nameKey', case_file->'memory'->>'dateOfBirth',
              case_file->'memory'->>'country', case_file->'memory'->>'entityType',
              case_file->'memory'->>'customerReference', matched_entity_id,
              coalesce(matched_name, case_file->'entry'->>'name'), case_file->'memory'->>'fingerprint',
              $4, $5, $6, $7
         FROM pending_reviews
        WHERE client_id = $1 AND id = $2 AND case_file IS NOT NULL
       ON CONFLICT (review_id) DO NOTHING
       RETURNING id, entity_id, searched_name) SELECT * FROM changed`,
      [clientId, reviewId, memoryId, made.reasonCode, made.note, made.actor.userId, made.actor.email],
    );
    const row = rows[0];
    return row ? { id: row.id, entityId: row.entity_id, searchedName: row.searched_name } : null;
  }

  async activeMemories(clientId: string): Promise<ActiveMemory[]> {
    const rows: Array<{
      id: string;
      review_id: string;
      name_key: string;
      date_of_birth: string;
      country: string;
      entity_type: string;
      customer_reference: string;
      entity_id: string;
      fingerprint: string;
    }> = await this.db.query(
      `SELECT id, review_id, name_key, date_of_birth, country, entity_type, customer_reference, entity_id, fingerprint
         FROM remembered_decisions WHERE client_id = $1 AND revoked_at IS NULL`,
      [clientId],
    );
    return rows.map((r) => ({
      id: r.id,
      reviewId: r.review_id,
      nameKey: r.name_key,
      dateOfBirth: r.date_of_birth,
      country: r.country,
      entityType: r.entity_type,
      customerReference: r.customer_reference,
      entityId: r.entity_id,
      fingerprint: r.fingerprint,
    }));
  }

  async remembered(
    clientId: string,
    page: { limit: number; offset: number },
  ): Promise<{ rows: RememberedDecision[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.db.query<RememberedRow>(
        `SELECT ${REMEMBERED_COLUMNS} FROM remembered_decisions
          WHERE client_id = $1 AND revoked_at IS NULL
          ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
        [clientId, page.limit, page.offset],
      ),
      this.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM remembered_decisions WHERE client_id = $1 AND revoked_at IS NULL',
        [clientId],
      ),
    ]);
    return { rows: rows.map(toRemembered), total: count[0]?.n ?? 0 };
  }

  async rememberedOfReview(clientId: string, reviewId: string): Promise<RememberedDecision | null> {
    const rows: RememberedRow[] = await this.db.query(
      `SELECT ${REMEMBERED_COLUMNS} FROM remembered_decisions
        WHERE client_id = $1 AND review_id = $2 AND revoked_at IS NULL`,
      [clientId, reviewId],
    );
    return rows[0] ? toRemembered(rows[0]) : null;
  }

  /** `revoked` when this call revoked it; `already` when it was revoked before; null when there is none. */
  async revoke(
    tx: Sql,
    clientId: string,
    id: string,
    actor: ReviewActor,
  ): Promise<
    | {
        outcome: 'revoked';
        memory: RememberedDecision & { revoked_at: string; revoked_by_email: string | null; screening_log_id: string };
      }
    | { outcome: 'already' }
    | null
  > {
    const changed: Array<RememberedRow & { screening_log_id: string }> = await tx.query(
      `WITH changed AS (UPDATE remembered_decisions SET revoked_at = now(), revoked_by_id = $3, revoked_by_email = $4
        WHERE client_id = $1 AND id = $2 AND revoked_at IS NULL
        RETURNING ${REMEMBERED_COLUMNS})
       SELECT changed.*, p.screening_log_id FROM changed JOIN pending_reviews p ON p.id = changed.review_id`,
      [clientId, id, actor.userId, actor.email],
    );
    const row = changed[0];
    if (row) {
      return {
        outcome: 'revoked',
        memory: {
          ...toRemembered(row),
          revoked_at: row.revoked_at!.toISOString(),
          revoked_by_email: row.revoked_by_email,
          screening_log_id: row.screening_log_id,
        },
      };
    }
    const existing: unknown[] = await tx.query('SELECT 1 FROM remembered_decisions WHERE client_id = $1 AND id = $2', [
      clientId,
      id,
    ]);
    return existing.length > 0 ? { outcome: 'already' } : null;
  }

  async caseOf(
    clientId: string,
    id: string,
  ): Promise<{ review: Review; caseFile: ReviewCaseFile | null; searchedInput: string } | null> {
    const rows: Array<ReviewRow & { case_file: ReviewCaseFile | null }> = await this.db.query(
      `SELECT ${REVIEW_COLUMNS}, case_file FROM pending_reviews WHERE client_id = $1 AND id = $2`,
      [clientId, id],
    );
    const row = rows[0];
    return row ? { review: toReview(row), caseFile: row.case_file, searchedInput: row.searched_input } : null;
  }

  /** This client's other decided or proposed reviews of the same list entity, newest first. */
  async previousDecisions(clientId: string, entityId: string, exceptId: string): Promise<PreviousDecision[]> {
    const rows: Array<{
      id: string;
      searched_input: string;
      status: PreviousDecision['status'];
      reason_code: string | null;
      note: string | null;
      decided_by_email: string | null;
      proposed_by_email: string | null;
      decided_at: Date | null;
      created_at: Date;
    }> = await this.db.query(
      `SELECT id, searched_input, status, reason_code, note, decided_by_email, proposed_by_email, decided_at, created_at
         FROM pending_reviews
        WHERE client_id = $1 AND matched_entity_id = $2 AND id <> $3 AND status <> 'pending'
        ORDER BY coalesce(decided_at, proposed_at, created_at) DESC, id DESC
        LIMIT 50`,
      [clientId, entityId, exceptId],
    );
    return rows.map((r) => ({
      review_id: r.id,
      searched_input: r.searched_input,
      status: r.status,
      reason_code: r.reason_code,
      note: r.note,
      decided_by_email: r.decided_by_email,
      proposed_by_email: r.proposed_by_email,
      decided_at: r.decided_at ? r.decided_at.toISOString() : null,
      created_at: r.created_at.toISOString(),
    }));
  }

  async settings(clientId: string): Promise<ReviewSettings> {
    const rows: Array<{ four_eyes: boolean; updated_at: Date; updated_by_email: string | null }> = await this.db.query(
      'SELECT four_eyes, updated_at, updated_by_email FROM review_settings WHERE client_id = $1',
      [clientId],
    );
    const row = rows[0];
    return row
      ? { fourEyes: row.four_eyes, updated_at: row.updated_at.toISOString(), updated_by_email: row.updated_by_email }
      : { fourEyes: false, updated_at: null, updated_by_email: null };
  }

  /**
   * Sets the client's four-eyes setting in `tx`; answers the setting before (false when never set).
   * The row is locked first, so two switches at once each see the other's result as their "before".
   */
  async updateSettings(
    tx: Sql,
    clientId: string,
    fourEyes: boolean,
    actor: ReviewActor,
  ): Promise<{ previous: boolean }> {
    const before: Array<{ four_eyes: boolean }> = await tx.query(
      'SELECT four_eyes FROM review_settings WHERE client_id = $1 FOR UPDATE',
      [clientId],
    );
    await tx.query(
      `INSERT INTO review_settings (client_id, four_eyes, updated_at, updated_by_id, updated_by_email)
       VALUES ($1, $2, now(), $3, $4)
       ON CONFLICT (client_id) DO UPDATE
         SET four_eyes = EXCLUDED.four_eyes, updated_at = EXCLUDED.updated_at,
             updated_by_id = EXCLUDED.updated_by_id, updated_by_email = EXCLUDED.updated_by_email`,
      [clientId, fourEyes, actor.userId, actor.email],
    );
    return { previous: before[0]?.four_eyes ?? false };
  }
}
