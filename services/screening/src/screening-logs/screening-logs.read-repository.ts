import { Injectable } from '@nestjs/common';
import { Database } from '@vigil/platform';
import type {
  DailyUsageResponse,
  MatchStatus,
  Review,
  ReviewStatus,
  ReviewsResponse,
  SanctionAlert,
  ScreeningLog,
  ScreeningLogsResponse,
  Tier,
} from '@vigil/proto';

export type Page = { limit: number; offset: number };
export type LogFilters = { searchedName?: string; matchFound?: boolean; from?: Date; toExclusive?: Date };
export type Paged<T> = { rows: T[]; total: number };

type LogRow = {
  id: string;
  client_id: string;
  searched_name: string | null;
  searched_email: string | null;
  match_found: boolean;
  status: MatchStatus;
  top_entity_id: string | null;
  matched_entity_name: string | null;
  source_list: string | null;
  score: string;
  confidence: string;
  tier: Tier;
  is_alert: boolean;
  kind: 'single' | 'bulk';
  created_at: Date;
  cleared_at: Date | null;
  cleared_by_email: string | null;
  cleared_reason_code: string | null;
  cleared_note: string | null;
  total: string;
};

type AlertRow = Omit<SanctionAlert, 'risk_score' | 'triggered_at' | 'review'> & {
  risk_score: string;
  triggered_at: Date;
  reviewed_at: Date | null;
  reviewed_by_email: string | null;
  review_reason_code: string | null;
  review_note: string | null;
  total: string;
};
export type ReviewRow = Omit<
  Review,
  'screening_score' | 'created_at' | 'decided_at' | 'proposed_at' | 'party_count'
> & {
  party_count: number | null;
  screening_score: string;
  created_at: Date;
  decided_at: Date | null;
  proposed_at: Date | null;
  total?: string;
};

const likeContaining = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const toLog = (r: LogRow): ScreeningLog => ({
  id: r.id,
  client_id: r.client_id,
  searched_name: r.searched_name,
  searched_email: r.searched_email,
  match_found: r.match_found,
  status: r.status,
  sanctioned_entity_id: r.top_entity_id,
  matched_entity_name: r.matched_entity_name,
  source_list: r.source_list,
  score: Number(r.score),
  confidence: r.confidence,
  tier: r.tier,
  is_alert: r.is_alert,
  kind: r.kind,
  createdAt: r.created_at.toISOString(),
  cleared: r.cleared_at
    ? {
        at: r.cleared_at.toISOString(),
        by_email: r.cleared_by_email,
        reason_code: r.cleared_reason_code,
        note: r.cleared_note,
      }
    : null,
});

const toAlert = (r: AlertRow): SanctionAlert => ({
  id: r.id,
  client_id: r.client_id,
  full_name: r.full_name,
  email: r.email,
  matched_entity_id: r.matched_entity_id,
  matched_name: r.matched_name,
  match_reason: r.match_reason,
  confidence: r.confidence,
  risk_score: Number(r.risk_score),
  triggered_at: r.triggered_at.toISOString(),
  reviewed: r.reviewed,
  review_outcome: r.review_outcome,
  review: r.reviewed_at
    ? {
        at: r.reviewed_at.toISOString(),
        by_email: r.reviewed_by_email,
        reason_code: r.review_reason_code,
        note: r.review_note,
      }
    : null,
});

export const toReview = (r: ReviewRow): Review => ({
  id: r.id,
  searched_input: r.searched_input,
  status: r.status,
  confidence: r.confidence,
  screening_score: Number(r.screening_score),
  created_at: r.created_at.toISOString(),
  matched_entity_id: r.matched_entity_id,
  matched_name: r.matched_name,
  decided_at: r.decided_at ? r.decided_at.toISOString() : null,
  decided_by_id: r.decided_by_id,
  decided_by_email: r.decided_by_email,
  reason_code: r.reason_code,
  note: r.note,
  proposed_action: r.proposed_action,
  proposed_by_id: r.proposed_by_id,
  proposed_by_email: r.proposed_by_email,
  proposed_at: r.proposed_at ? r.proposed_at.toISOString() : null,
  memory_note: r.memory_note,
  raised_as: r.raised_as,
  // Cases raised before parties were kept name the one entry they were raised on.
  party_count: r.party_count ?? 1,
});

export const REVIEW_COLUMNS =
  'id, searched_input, status, confidence, screening_score, created_at, matched_entity_id, matched_name, decided_at, ' +
  'decided_by_id, decided_by_email, reason_code, note, proposed_action, proposed_by_id, proposed_by_email, proposed_at, memory_note, ' +
  "raised_as, jsonb_array_length(case_file->'parties') AS party_count";

/**
 * The dashboard's reads of screening logs, alerts and reviews, and the review decision.
 * Every statement is bounded by `client_id = $1`: tenancy lives in the SQL, so a wrong id
 * from another client finds nothing rather than relying on a check after the read.
 */
@Injectable()
export class ScreeningLogsReadRepository {
  constructor(private readonly db: Database) {}

  async logs(clientId: string, filters: LogFilters, page: Page): Promise<Paged<ScreeningLog>> {
    const rows: LogRow[] = await this.db.query(
      `SELECT id, client_id, searched_name, searched_email, match_found, status, top_entity_id, matched_entity_name,
              source_list, score, confidence, tier, is_alert, kind, created_at, cleared_at, cleared_by_email,
              cleared_reason_code, cleared_note, count(*) OVER () AS total
         FROM screening_logs
        WHERE client_id = $1
          AND ($2::text IS NULL OR searched_name ILIKE $2)
          AND ($3::boolean IS NULL OR match_found = $3)
          AND ($4::timestamptz IS NULL OR created_at >= $4)
          AND ($5::timestamptz IS NULL OR created_at < $5)
        ORDER BY created_at DESC, id DESC
        LIMIT $6 OFFSET $7`,
      [
        clientId,
        filters.searchedName === undefined ? null : likeContaining(filters.searchedName),
        filters.matchFound ?? null,
        filters.from ?? null,
        filters.toExclusive ?? null,
        page.limit,
        page.offset,
      ],
    );
    return { rows: rows.map(toLog), total: await this.totalOf(rows, page, () => this.countLogs(clientId, filters)) };
  }

  async alerts(clientId: string, page: Page): Promise<Paged<SanctionAlert>> {
    const rows: AlertRow[] = await this.db.query(
      `SELECT id, client_id, full_name, email, matched_entity_id, matched_name, match_reason, confidence, risk_score,
              triggered_at, reviewed, review_outcome, reviewed_at, reviewed_by_email, review_reason_code, review_note,
              count(*) OVER () AS total
         FROM sanction_alerts
        WHERE client_id = $1
        ORDER BY triggered_at DESC, id DESC
        LIMIT $2 OFFSET $3`,
      [clientId, page.limit, page.offset],
    );
    const total = await this.totalOf(rows, page, async () => {
      const [row] = await this.db.query<{ n: string }>(
        'SELECT count(*) AS n FROM sanction_alerts WHERE client_id = $1',
        [clientId],
      );
      return Number(row!.n);
    });
    return { rows: rows.map(toAlert), total };
  }

  async reviews(clientId: string, status: ReviewStatus | undefined, page: Page): Promise<Paged<Review>> {
    const rows: ReviewRow[] = await this.db.query(
      `SELECT ${REVIEW_COLUMNS}, count(*) OVER () AS total
         FROM pending_reviews
        WHERE client_id = $1 AND ($2::text IS NULL OR status = $2)
        ORDER BY created_at DESC, id DESC
        LIMIT $3 OFFSET $4`,
      [clientId, status ?? null, page.limit, page.offset],
    );
    const total = await this.totalOf(rows, page, async () => {
      const [row] = await this.db.query<{ n: string }>(
        'SELECT count(*) AS n FROM pending_reviews WHERE client_id = $1 AND ($2::text IS NULL OR status = $2)',
        [clientId, status ?? null],
      );
      return Number(row!.n);
    });
    return { rows: rows.map(toReview), total };
  }

  /** Screenings per UTC day for the last `days` days up to today, every day present (zeros included). */
  /** Screens logged under each quota lease; a lease with none is answered with 0. */
  async quotaLeaseAnswers(leaseIds: readonly string[]): Promise<Array<{ leaseId: string; answered: number }>> {
    return this.db.query(
      `SELECT ids.id::text AS "leaseId", (SELECT count(*)::int FROM screening_logs l WHERE l.quota_lease = ids.id) AS answered
         FROM unnest($1::uuid[]) AS ids(id)`,
      [leaseIds],
    );
  }

  async daily(clientId: string, days: number): Promise<DailyUsageResponse['days']> {
    return this.db.query(
      `SELECT to_char(d.day, 'YYYY-MM-DD') AS date,
              count(l.id)::int AS screenings,
              count(l.id) FILTER (WHERE l.match_found)::int AS matches,
              count(l.id) FILTER (WHERE l.is_alert)::int AS blocked
         FROM generate_series((now() AT TIME ZONE 'UTC')::date - ($2::int - 1), (now() AT TIME ZONE 'UTC')::date, interval '1 day') AS d(day)
         LEFT JOIN screening_logs l
           ON l.client_id = $1 AND l.created_at >= d.day AT TIME ZONE 'UTC' AND l.created_at < (d.day + interval '1 day') AT TIME ZONE 'UTC'
        GROUP BY d.day
        ORDER BY d.day`,
      [clientId, days],
    );
  }

  /** The Screening Logs tabs' counts under the name and date filters (not matchFound). */
  async logCounts(clientId: string, filters: LogFilters): Promise<ScreeningLogsResponse['counts']> {
    const [row] = await this.db.query<ScreeningLogsResponse['counts']>(
      `SELECT count(*)::int AS all, count(*) FILTER (WHERE match_found)::int AS matches,
              count(*) FILTER (WHERE is_alert)::int AS alerts, count(*) FILTER (WHERE status = 'clear')::int AS clear
         FROM screening_logs
        WHERE client_id = $1
          AND ($2::text IS NULL OR searched_name ILIKE $2)
          AND ($3::timestamptz IS NULL OR created_at >= $3)
          AND ($4::timestamptz IS NULL OR created_at < $4)`,
      [
        clientId,
        filters.searchedName === undefined ? null : likeContaining(filters.searchedName),
        filters.from ?? null,
        filters.toExclusive ?? null,
      ],
    );
    return { all: row!.all, matches: row!.matches, alerts: row!.alerts, clear: row!.clear };
  }

  async unreviewedAlerts(clientId: string): Promise<number> {
    const [row] = await this.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM sanction_alerts WHERE client_id = $1 AND NOT reviewed',
      [clientId],
    );
    return row!.n;
  }

  async reviewCounts(clientId: string): Promise<ReviewsResponse['counts']> {
    const rows: Array<{ status: ReviewStatus; n: number }> = await this.db.query(
      'SELECT status, count(*)::int AS n FROM pending_reviews WHERE client_id = $1 GROUP BY status',
      [clientId],
    );
    const counts = { pending: 0, proposed: 0, approved: 0, blocked: 0, all: 0 };
    for (const r of rows) {
      counts[r.status] = r.n;
      counts.all += r.n;
    }
    return counts;
  }

  /** A page past the end has no row to carry the window count; count separately then. */
  private async totalOf(rows: Array<{ total?: string }>, page: Page, count: () => Promise<number>): Promise<number> {
    if (rows[0]?.total !== undefined) return Number(rows[0].total);
    return page.offset === 0 ? 0 : count();
  }

  private async countLogs(clientId: string, filters: LogFilters): Promise<number> {
    const [row] = await this.db.query<{ n: string }>(
      `SELECT count(*) AS n FROM screening_logs
        WHERE client_id = $1
          AND ($2::text IS NULL OR searched_name ILIKE $2)
          AND ($3::boolean IS NULL OR match_found = $3)
          AND ($4::timestamptz IS NULL OR created_at >= $4)
          AND ($5::timestamptz IS NULL OR created_at < $5)`,
      [
        clientId,
        filters.searchedName === undefined ? null : likeContaining(filters.searchedName),
        filters.matchFound ?? null,
        filters.from ?? null,
        filters.toExclusive ?? null,
      ],
    );
    return Number(row!.n);
  }
}
