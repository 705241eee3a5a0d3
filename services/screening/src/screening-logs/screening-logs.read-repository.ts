import { Injectable } from '@nestjs/common';
import { Database } from '@vigil/platform';
import type {
  DailyUsageResponse,
  MatchStatus,
  Review,
  ScreeningActor,
  ScreeningActorKind,
  ReviewStatus,
  ReviewsResponse,
  SanctionAlert,
  ScreeningLog,
  ScreeningLogsResponse,
  Tier,
} from '@vigil/proto';

export type Page = { limit: number; offset: number };
/** The filters the Logs and Alerts share (`screenedBy`: kind, and the id when one is named). */
export type HistoryFilters = {
  searchedName?: string;
  from?: Date;
  toExclusive?: Date;
  screenedBy?: { kind: ScreeningActorKind; id?: string };
};
export type LogFilters = HistoryFilters & { matchFound?: boolean; status?: MatchStatus };
export type AlertFilters = HistoryFilters & { reviewed?: boolean; confidence?: string };
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
  actor_kind: ScreeningActorKind | null;
  actor_id: string | null;
  actor_label: string | null;
  cleared_at: Date | null;
  cleared_by_email: string | null;
  cleared_reason_code: string | null;
  cleared_note: string | null;
  total: string;
};

type AlertRow = Omit<SanctionAlert, 'risk_score' | 'triggered_at' | 'screened_by' | 'review'> & {
  risk_score: string;
  triggered_at: Date;
  actor_kind: ScreeningActorKind | null;
  actor_id: string | null;
  actor_label: string | null;
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

// Accented Latin letters and the plain letter each is searched as, for Postgres' translate(): a
// search for "Muller" finds "Müller" and "Nunez" finds "Núñez" whatever the database's locale
// (unaccent would need an extension per database; this needs nothing). Letters that do not
// decompose in Unicode (Ø, Ł, Đ, ı) are mapped by hand.
const ACCENTED =
  'ÀÁÂÃÄÅĀĂĄàáâãäåāăąÇĆĈĊČçćĉċčĎĐďđÈÉÊËĒĔĖĘĚèéêëēĕėęěĜĞĠĢĝğġģĤĥÌÍÎÏĨĪĬĮİìíîïĩīĭįıĴĵĶķĹĻĽĿŁĺļľŀł' +
  'ÑŃŅŇñńņňÒÓÔÕÖØŌŎŐòóôõöøōŏőŔŖŘŕŗřŚŜŞŠśŝşšșȘŢŤţťțȚÙÚÛÜŨŪŬŮŰŲùúûüũūŭůűųŴŵÝŶŸýÿŷŹŻŽźżž';
const BY_HAND: Record<string, string> = { Ø: 'O', ø: 'o', Ł: 'L', ł: 'l', Đ: 'D', đ: 'd', ı: 'i', Ŀ: 'L', ŀ: 'l' };
const PLAIN = [...ACCENTED].map((c) => BY_HAND[c] ?? c.normalize('NFD').replace(/\p{M}/gu, '')).join('');
if ([...PLAIN].length !== [...ACCENTED].length) throw new Error('every accented letter needs one plain letter');
/** `column`, accents removed, for a case-insensitive LIKE against a pattern folded the same way. */
const folded = (sql: string) => `translate(${sql}, '${ACCENTED}', '${PLAIN}')`;

/** The WHERE clause of the shared history filters, its parameters numbered from `next`. */
function historyWhere(
  filters: HistoryFilters,
  columns: { name: string[]; at: string; actor: string },
  params: unknown[],
): string[] {
  const add = (value: unknown) => `$${params.push(value)}`;
  const where: string[] = [];
  if (filters.searchedName !== undefined) {
    const pattern = add(likeContaining(filters.searchedName));
    where.push(`(${columns.name.map((c) => `${folded(c)} ILIKE ${folded(pattern)}`).join(' OR ')})`);
  }
  if (filters.from) where.push(`${columns.at} >= ${add(filters.from)}`);
  if (filters.toExclusive) where.push(`${columns.at} < ${add(filters.toExclusive)}`);
  if (filters.screenedBy) {
    where.push(`${columns.actor}actor_kind = ${add(filters.screenedBy.kind)}`);
    if (filters.screenedBy.id !== undefined) where.push(`${columns.actor}actor_id = ${add(filters.screenedBy.id)}`);
  }
  return where;
}

const LOG_COLUMNS = { name: ['searched_name', 'searched_email'], at: 'created_at', actor: '' };
const ALERT_COLUMNS = { name: ['a.full_name', 'a.email'], at: 'a.triggered_at', actor: 'l.' };

/** Log filters as SQL over screening_logs, client first; `outcome`: also matchFound and status (not for the tabs' counts). */
function logWhere(clientId: string, filters: LogFilters, outcome: boolean, params: unknown[]): string {
  params.push(clientId);
  const where = ['client_id = $1', ...historyWhere(filters, LOG_COLUMNS, params)];
  if (outcome && filters.matchFound !== undefined) where.push(`match_found = $${params.push(filters.matchFound)}`);
  if (outcome && filters.status !== undefined) where.push(`status = $${params.push(filters.status)}`);
  return where.join(' AND ');
}

/** Alert filters as SQL over sanction_alerts a JOIN screening_logs l; `reviewed`: also the review state. */
function alertWhere(clientId: string, filters: AlertFilters, reviewed: boolean, params: unknown[]): string {
  params.push(clientId);
  const where = ['a.client_id = $1', ...historyWhere(filters, ALERT_COLUMNS, params)];
  if (reviewed && filters.reviewed !== undefined) where.push(`a.reviewed = $${params.push(filters.reviewed)}`);
  if (filters.confidence !== undefined) where.push(`a.confidence = $${params.push(filters.confidence)}`);
  return where.join(' AND ');
}

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
  screened_by: actorOf(r),
  cleared: r.cleared_at
    ? {
        at: r.cleared_at.toISOString(),
        by_email: r.cleared_by_email,
        reason_code: r.cleared_reason_code,
        note: r.cleared_note,
      }
    : null,
});

/** The log's actor columns back as the actor (see actorColumns in the log writer). */
export function actorOf(r: Pick<LogRow, 'actor_kind' | 'actor_id' | 'actor_label'>): ScreeningActor | null {
  switch (r.actor_kind) {
    case null:
      return null;
    case 'user':
      return { kind: 'user', userId: r.actor_id ?? '', email: r.actor_label ?? '' };
    case 'api_key':
      return { kind: 'api_key', keyId: r.actor_id ?? '', keyPrefix: r.actor_label ?? '' };
    case 'bulk_job':
      return {
        kind: 'bulk_job',
        jobId: r.actor_id ?? '',
        ...(r.actor_label ? { submittedBy: r.actor_label } : {}),
      };
    case 'monitoring':
      return { kind: 'monitoring' };
  }
}

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
  screened_by: actorOf(r),
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
    const params: unknown[] = [];
    const where = logWhere(clientId, filters, true, params);
    const rows: LogRow[] = await this.db.query(
      `SELECT id, client_id, searched_name, searched_email, match_found, status, top_entity_id, matched_entity_name,
              source_list, score, confidence, tier, is_alert, kind, created_at, actor_kind, actor_id, actor_label,
              cleared_at, cleared_by_email, cleared_reason_code, cleared_note, count(*) OVER () AS total
         FROM screening_logs
        WHERE ${where}
        ORDER BY created_at DESC, id DESC
        LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, page.limit, page.offset],
    );
    return { rows: rows.map(toLog), total: await this.totalOf(rows, page, () => this.countLogs(clientId, filters)) };
  }

  async alerts(clientId: string, filters: AlertFilters, page: Page): Promise<Paged<SanctionAlert>> {
    const params: unknown[] = [];
    const where = alertWhere(clientId, filters, true, params);
    const rows: AlertRow[] = await this.db.query(
      `SELECT a.id, a.client_id, a.full_name, a.email, a.matched_entity_id, a.matched_name, a.match_reason, a.confidence,
              a.risk_score, a.triggered_at, a.reviewed, a.review_outcome, a.reviewed_at, a.reviewed_by_email,
              a.review_reason_code, a.review_note, l.actor_kind, l.actor_id, l.actor_label, count(*) OVER () AS total
         FROM sanction_alerts a JOIN screening_logs l ON l.id = a.screening_log_id
        WHERE ${where}
        ORDER BY a.triggered_at DESC, a.id DESC
        LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, page.limit, page.offset],
    );
    const total = await this.totalOf(rows, page, async () => (await this.alertCounts(clientId, filters)).total);
    return { rows: rows.map(toAlert), total };
  }

  /** Alerts under the filters (`total`, and `unreviewed` of them whatever `reviewed` says) and the client's all. */
  async alertCounts(
    clientId: string,
    filters: AlertFilters,
  ): Promise<{ total: number; unreviewed: number; all: number }> {
    const params: unknown[] = [];
    const where = alertWhere(clientId, filters, false, params);
    const reviewed = filters.reviewed === undefined ? 'true' : `a.reviewed = $${params.push(filters.reviewed)}`;
    const [row] = await this.db.query<{ total: number; unreviewed: number; all: number }>(
      `SELECT count(*) FILTER (WHERE ${reviewed})::int AS total,
              count(*) FILTER (WHERE NOT a.reviewed)::int AS unreviewed,
              (SELECT count(*)::int FROM sanction_alerts WHERE client_id = $1) AS all
         FROM sanction_alerts a JOIN screening_logs l ON l.id = a.screening_log_id
        WHERE ${where}`,
      params,
    );
    return row!;
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

  /** The Screening Logs tabs' counts under the name, date and screened-by filters (not matchFound nor status). */
  async logCounts(clientId: string, filters: LogFilters): Promise<ScreeningLogsResponse['counts']> {
    const params: unknown[] = [];
    const [row] = await this.db.query<ScreeningLogsResponse['counts']>(
      `SELECT count(*)::int AS all, count(*) FILTER (WHERE match_found)::int AS matches,
              count(*) FILTER (WHERE is_alert)::int AS alerts, count(*) FILTER (WHERE status = 'clear')::int AS clear
         FROM screening_logs
        WHERE ${logWhere(clientId, filters, false, params)}`,
      params,
    );
    return { all: row!.all, matches: row!.matches, alerts: row!.alerts, clear: row!.clear };
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
    const params: unknown[] = [];
    const where = logWhere(clientId, filters, true, params);
    const [row] = await this.db.query<{ n: string }>(`SELECT count(*) AS n FROM screening_logs WHERE ${where}`, params);
    return Number(row!.n);
  }
}
