import { Injectable } from '@nestjs/common';
import type { AlertSeverity, AlertType, MonitoringAlert } from '@vigil/proto';
import { randomUUID } from 'node:crypto';
import { Database, type Transaction } from '@vigil/platform';

type AlertRow = {
  id: string;
  monitored_entity_id: string | null;
  entity_name: string;
  matched_sanctioned_name: string;
  matched_entity_id: string;
  match_score: number;
  match_source: string;
  alert_type: AlertType;
  severity: AlertSeverity;
  alert_message: string;
  triggered_at: Date;
  is_acknowledged: boolean;
  acknowledged_at: Date | null;
  closed_at: Date | null;
  closed_note: string | null;
};

export const toAlert = (r: AlertRow): MonitoringAlert => ({
  id: r.id,
  entity_id: r.monitored_entity_id,
  entity_name: r.entity_name,
  matched_sanctioned_name: r.matched_sanctioned_name,
  matched_entity_id: r.matched_entity_id,
  match_score: r.match_score,
  match_source: r.match_source,
  alert_type: r.alert_type,
  severity: r.severity,
  alert_message: r.alert_message,
  triggered_at: r.triggered_at.toISOString(),
  is_acknowledged: r.is_acknowledged,
  acknowledged_at: r.acknowledged_at?.toISOString() ?? null,
  closed_at: r.closed_at?.toISOString() ?? null,
  closed_note: r.closed_note,
});

/** A match found by a check or a re-screen, to be raised as an alert unless it is already open unchanged. */
export type MatchToRaise = {
  clientId: string;
  monitoredEntityId: string;
  entityName: string;
  matchedEntityId: string;
  matchedName: string;
  score: number;
  status: 'blocked' | 'review';
  source: string;
  type: AlertType;
  listSource: string | null;
  versionId: number | null;
};

/** The product does not say how severities follow from a match; this is ours (README). */
export function severityOf(status: 'blocked' | 'review', score: number): AlertSeverity {
  if (status === 'blocked') return score >= 0.95 ? 'critical' : 'high';
  return score >= 0.75 ? 'medium' : 'low';
}

/** What makes a match "the same" for an open alert: its band, the list name it hit, its score to 2 places. */
export const fingerprintOf = (m: Pick<MatchToRaise, 'status' | 'matchedName' | 'score'>) =>
  `${m.status}|${m.matchedName}|${m.score.toFixed(2)}`;

function messageOf(m: MatchToRaise): string {
  const pct = `${Math.round(m.score * 1000) / 10}%`;
  const band = m.status === 'blocked' ? 'blocked' : 'needs review';
  const why =
    m.type === 'new_match'
      ? `newly listed on ${m.source}`
      : m.type === 'changed_match'
        ? `changed on ${m.source}`
        : `on ${m.source}`;
  return `${m.entityName} matches ${m.matchedName} (${why}) at ${pct}: ${band}.`;
}

/** Monitoring alerts; reads and changes are bounded by `client_id`. */
@Injectable()
export class AlertsRepository {
  constructor(private readonly db: Database) {}

  /**
   * Raises `match` inside `tx` unless an open alert for the same monitored entity and list entity
   * has the same fingerprint (acknowledged or not). A changed match closes the old alert with a
   * note and raises a new one. The partial unique index settles races between replicas.
   */
  async raise(tx: Transaction, match: MatchToRaise): Promise<MonitoringAlert | null> {
    const fingerprint = fingerprintOf(match);
    const open: Array<{ id: string; match_fingerprint: string }> = await tx.query(
      `SELECT id, match_fingerprint FROM monitoring_alerts
        WHERE monitored_entity_id = $1 AND matched_entity_id = $2 AND closed_at IS NULL FOR UPDATE`,
      [match.monitoredEntityId, match.matchedEntityId],
    );
    let type = match.type;
    if (open[0]) {
      if (open[0].match_fingerprint === fingerprint) return null;
      await tx.query(`UPDATE monitoring_alerts SET closed_at = now(), closed_note = $2 WHERE id = $1`, [
        open[0].id,
        `Superseded: the match changed (${open[0].match_fingerprint} → ${fingerprint}).`,
      ]);
      if (type === 'check_match') type = 'changed_match';
    }
    const rows: AlertRow[] = await tx.query(
      `INSERT INTO monitoring_alerts (id, client_id, monitored_entity_id, entity_name, matched_entity_id,
          matched_sanctioned_name, match_score, match_status, match_source, match_fingerprint, alert_type,
          severity, alert_message, list_source, list_version_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
       ON CONFLICT (monitored_entity_id, matched_entity_id) WHERE closed_at IS NULL DO NOTHING
       RETURNING *`,
      [
        randomUUID(),
        match.clientId,
        match.monitoredEntityId,
        match.entityName,
        match.matchedEntityId,
        match.matchedName,
        match.score,
        match.status,
        match.source,
        fingerprint,
        type,
        severityOf(match.status, match.score),
        messageOf({ ...match, type }),
        match.listSource,
        match.versionId,
      ],
    );
    return rows[0] ? toAlert(rows[0]) : null;
  }

  /** Closes the open alerts on list entities that a list version removed. Idempotent. */
  async closeRemoved(matchedEntityIds: readonly string[], note: string): Promise<number> {
    if (matchedEntityIds.length === 0) return 0;
    const { rowCount: closed } = await this.db.execute(
      `UPDATE monitoring_alerts SET closed_at = now(), closed_note = $2
        WHERE matched_entity_id = ANY($1) AND closed_at IS NULL`,
      [[...matchedEntityIds], note],
    );
    return closed;
  }

  async list(
    clientId: string,
    filter: { acknowledged?: boolean | undefined; severity?: AlertSeverity | undefined },
    page: { limit: number; offset: number },
  ): Promise<{ alerts: MonitoringAlert[]; total: number }> {
    const where = `client_id = $1 AND ($2::boolean IS NULL OR is_acknowledged = $2) AND ($3::text IS NULL OR severity = $3)`;
    const params = [clientId, filter.acknowledged ?? null, filter.severity ?? null];
    const rows: AlertRow[] = await this.db.query(
      `SELECT * FROM monitoring_alerts WHERE ${where} ORDER BY triggered_at DESC, id LIMIT $4 OFFSET $5`,
      [...params, page.limit, page.offset],
    );
    const [count] = await this.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM monitoring_alerts WHERE ${where}`, params);
    return { alerts: rows.map(toAlert), total: count?.n ?? 0 };
  }

  async get(clientId: string, id: string): Promise<MonitoringAlert | null> {
    const rows: AlertRow[] = await this.db.query('SELECT * FROM monitoring_alerts WHERE client_id = $1 AND id = $2', [
      clientId,
      id,
    ]);
    return rows[0] ? toAlert(rows[0]) : null;
  }

  /** Null when the client has no such unacknowledged alert. */
  async acknowledge(clientId: string, id: string): Promise<MonitoringAlert | null> {
    const rows = await this.db.query<AlertRow>(
      `UPDATE monitoring_alerts SET is_acknowledged = true, acknowledged_at = now()
        WHERE client_id = $1 AND id = $2 AND NOT is_acknowledged RETURNING *`,
      [clientId, id],
    );
    return rows[0] ? toAlert(rows[0]) : null;
  }
}
