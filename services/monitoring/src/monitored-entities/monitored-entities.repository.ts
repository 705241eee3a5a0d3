import { Injectable } from '@nestjs/common';
import type {
  CheckFrequency,
  EntryScreeningStatus,
  MonitoredEntity,
  MonitoringStats,
  MonitoringStatus,
  ParsedNewMonitoredEntity,
} from '@vigil/proto';
import { randomUUID } from 'node:crypto';
import { Database } from '@vigil/platform';

export type EntityRow = {
  id: string;
  client_id: string;
  entity_name: string;
  entity_email: string | null;
  entity_aliases: string[];
  check_frequency: CheckFrequency;
  notes: string | null;
  monitoring_status: MonitoringStatus;
  origin: 'manual' | 'client_list';
  client_list_id: string | null;
  last_checked: Date | null;
  next_check_due: Date | null;
  screening_status: EntryScreeningStatus;
  screening_score: number | null;
  screening_source: string | null;
  screening_details: string | null;
  created_at: Date;
  alert_count: number;
};

export const ENTITY_COLUMNS = `e.id, e.client_id, e.entity_name, e.entity_email, e.entity_aliases, e.check_frequency, e.notes,
  e.monitoring_status, e.origin, e.client_list_id, e.last_checked, e.next_check_due, e.screening_status,
  e.screening_score, e.screening_source, e.screening_details, e.created_at,
  (SELECT count(*)::int FROM monitoring_alerts a WHERE a.monitored_entity_id = e.id) AS alert_count`;

export const toMonitoredEntity = (r: EntityRow): MonitoredEntity => ({
  id: r.id,
  entity_name: r.entity_name,
  entity_email: r.entity_email,
  entity_aliases: r.entity_aliases,
  check_frequency: r.check_frequency,
  notes: r.notes,
  monitoring_status: r.monitoring_status,
  last_checked: r.last_checked?.toISOString() ?? null,
  next_check_due: r.next_check_due?.toISOString() ?? null,
  alert_count: Number(r.alert_count),
  origin: r.origin,
  client_list_id: r.client_list_id,
  screening_status: r.screening_status,
  screening_score: r.screening_score,
  screening_source: r.screening_source,
  screening_details: r.screening_details,
  created_at: r.created_at.toISOString(),
});

/** SQL interval of a check frequency. */
export const FREQUENCY_INTERVAL: Readonly<Record<CheckFrequency, string>> = {
  daily: '1 day',
  weekly: '7 days',
  monthly: '1 month',
};

/**
 * Monitored entities. Every statement is bounded by `client_id`: another client's id finds
 * nothing, whoever asks.
 */
@Injectable()
export class MonitoredEntitiesRepository {
  constructor(private readonly db: Database) {}

  /** New entities are due at once: their first check runs at the scheduler's next pass. */
  async create(
    clientId: string,
    entities: readonly ParsedNewMonitoredEntity[],
    defaultFrequency: CheckFrequency,
  ): Promise<MonitoredEntity[]> {
    const ids: string[] = entities.map(() => randomUUID());
    await this.db.query(
      `INSERT INTO monitored_entities (id, client_id, entity_name, entity_email, entity_aliases, check_frequency, notes, next_check_due)
       SELECT r.id, $1, r.name, r.email, ARRAY(SELECT jsonb_array_elements_text(r.aliases::jsonb)), r.frequency, r.notes, now()
         FROM unnest($2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
              AS r(id, name, email, aliases, frequency, notes)`,
      [
        clientId,
        ids,
        entities.map((e) => e.entity_name),
        entities.map((e) => e.entity_email),
        entities.map((e) => JSON.stringify(e.entity_aliases)),
        entities.map((e) => e.check_frequency ?? defaultFrequency),
        entities.map((e) => e.notes),
      ],
    );
    const created = await this.byIds(clientId, ids);
    const order = new Map(ids.map((id, i) => [id, i]));
    return created.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  }

  async byIds(clientId: string, ids: readonly string[]): Promise<MonitoredEntity[]> {
    const rows: EntityRow[] = await this.db.query(
      `SELECT ${ENTITY_COLUMNS} FROM monitored_entities e WHERE e.client_id = $1 AND e.id = ANY($2::uuid[])`,
      [clientId, [...ids]],
    );
    return rows.map(toMonitoredEntity);
  }

  async get(clientId: string, id: string): Promise<MonitoredEntity | null> {
    return (await this.byIds(clientId, [id]))[0] ?? null;
  }

  async list(
    clientId: string,
    filter: { status?: MonitoringStatus | undefined; origin?: 'manual' | 'client_list' | undefined },
    page: { limit: number; offset: number },
  ): Promise<{ entities: MonitoredEntity[]; total: number }> {
    const where = `e.client_id = $1 AND ($2::text IS NULL OR e.monitoring_status = $2) AND ($3::text IS NULL OR e.origin = $3)`;
    const params = [clientId, filter.status ?? null, filter.origin ?? null];
    const rows: EntityRow[] = await this.db.query(
      `SELECT ${ENTITY_COLUMNS} FROM monitored_entities e WHERE ${where}
        ORDER BY e.created_at DESC, e.id LIMIT $4 OFFSET $5`,
      [...params, page.limit, page.offset],
    );
    const [count] = await this.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM monitored_entities e WHERE ${where}`, params);
    return { entities: rows.map(toMonitoredEntity), total: count?.n ?? 0 };
  }

  /**
   * §4: an active entity can be paused, a non-active one set active, any set stopped. Null when the
   * client has no such entity or the transition is not allowed (the caller tells them apart).
   * Setting an entity active makes it due at once.
   */
  async transition(clientId: string, id: string, to: MonitoringStatus): Promise<MonitoredEntity | null> {
    const rows = await this.db.query<{ id: string }>(
      `UPDATE monitored_entities SET monitoring_status = $3,
            next_check_due = CASE WHEN $3 = 'active' THEN now() ELSE next_check_due END
      WHERE client_id = $1 AND id = $2
        AND (($3 = 'paused' AND monitoring_status = 'active')
          OR ($3 = 'active' AND monitoring_status <> 'active')
          OR $3 = 'stopped')
      RETURNING id`,
      [clientId, id, to],
    );
    return rows.length === 1 ? this.get(clientId, id) : null;
  }

  async delete(clientId: string, id: string): Promise<boolean> {
    const { rowCount: deleted } = await this.db.execute('DELETE FROM monitored_entities WHERE client_id = $1 AND id = $2', [
      clientId,
      id,
    ]);
    return deleted === 1;
  }

  /** All or nothing: null (and nothing removed) when any id is not the client's. */
  async deleteMany(clientId: string, ids: readonly string[]): Promise<string[] | null> {
    const unique = [...new Set(ids)];
    return this.db
      .transaction(async (tx) => {
        const rows = await tx.query<{ id: string }>('DELETE FROM monitored_entities WHERE client_id = $1 AND id = ANY($2::uuid[]) RETURNING id', [
          clientId,
          unique,
        ]);
        // Throwing rolls the transaction back: nothing of another client's request is removed.
        if (rows.length !== unique.length) throw new NotAllOwned();
        return rows.map((r) => r.id);
      })
      .catch((error: unknown) => {
        if (error instanceof NotAllOwned) return null;
        throw error;
      });
  }

  async stats(clientId: string): Promise<MonitoringStats> {
    // Scalar subqueries only: always exactly one row.
    const [row] = await this.db.query<Omit<MonitoringStats, 'last_check_time'> & { last_check_time: Date | null }>(
      `SELECT
         (SELECT count(*)::int FROM monitored_entities WHERE client_id = $1) AS total_monitored,
         (SELECT count(*)::int FROM monitored_entities WHERE client_id = $1 AND monitoring_status = 'active') AS active_monitored,
         (SELECT count(*)::int FROM monitored_entities
           WHERE client_id = $1 AND monitoring_status = 'active' AND next_check_due < now()) AS overdue_checks,
         (SELECT count(*)::int FROM monitoring_alerts
           WHERE client_id = $1 AND NOT is_acknowledged AND closed_at IS NULL) AS unacknowledged_alerts,
         (SELECT count(*)::int FROM monitoring_alerts
           WHERE client_id = $1 AND severity = 'critical' AND NOT is_acknowledged AND closed_at IS NULL) AS critical_alerts,
         (SELECT max(last_checked) FROM monitored_entities WHERE client_id = $1) AS last_check_time`,
      [clientId],
    );
    return {
      total_monitored: row!.total_monitored,
      active_monitored: row!.active_monitored,
      overdue_checks: row!.overdue_checks,
      unacknowledged_alerts: row!.unacknowledged_alerts,
      critical_alerts: row!.critical_alerts,
      last_check_time: row!.last_check_time ? new Date(row!.last_check_time).toISOString() : null,
    };
  }

  /** The client's active entities past due. */
  async overdueCount(clientId: string): Promise<number> {
    const [row] = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM monitored_entities
        WHERE client_id = $1 AND monitoring_status = 'active' AND next_check_due < now()`,
      [clientId],
    );
    return row!.n;
  }
}

class NotAllOwned extends Error {}
