import { Injectable } from '@nestjs/common';
import type { Feed, ListsUpdatedEvent } from '@vigil/proto';
import { Database } from '@vigil/platform';
import type { CheckTarget } from '../checks/checks.repository.js';

/** What list updates read and record: the monitored book per feed, and versions done. */
@Injectable()
export class ListUpdatesRepository {
  constructor(private readonly db: Database) {}

  async processed(source: string, versionId: number): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      'SELECT 1 FROM list_updates_processed WHERE list_source = $1 AND version_id = $2',
      [source, versionId],
    );
    return rows.length === 1;
  }

  async markProcessed(
    event: ListsUpdatedEvent,
    s: {
      deltaNames: number;
      candidates: number;
      alertsRaised: number;
      alertsClosed: number;
      durationMs: number;
      phasesMs?: Record<string, number>;
    },
  ): Promise<void> {
    await this.db.query(
      `INSERT INTO list_updates_processed (list_source, version_id, event_id, delta_names, candidates, alerts_raised,
                                           alerts_closed, duration_ms, phases_ms)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING`,
      [
        event.source,
        event.versionId,
        event.eventId,
        s.deltaNames,
        s.candidates,
        s.alertsRaised,
        s.alertsClosed,
        s.durationMs,
        JSON.stringify(s.phasesMs ?? {}),
      ],
    );
  }

  async last(): Promise<{ source: string; version_id: number; processed_at: string } | null> {
    const [row] = await this.db.query<{ list_source: string; version_id: number; processed_at: Date }>(
      'SELECT list_source, version_id, processed_at FROM list_updates_processed ORDER BY processed_at DESC LIMIT 1',
    );
    return row
      ? { source: row.list_source, version_id: row.version_id, processed_at: new Date(row.processed_at).toISOString() }
      : null;
  }

  /** Active entities of clients that see `feed` and want list updates re-screened. */
  async monitoredForFeed(feed: Feed): Promise<CheckTarget[]> {
    const rows: Array<{ id: string; client_id: string; entity_name: string; entity_aliases: string[] }> =
      await this.db.query(
        `SELECT e.id, e.client_id, e.entity_name, e.entity_aliases
         FROM monitored_entities e JOIN monitoring_clients c ON c.client_id = e.client_id
        WHERE e.monitoring_status = 'active' AND c.rescreen_on_list_update AND $1 = ANY(c.feeds)`,
        [feed],
      );
    return rows.map((r) => ({ id: r.id, clientId: r.client_id, entityName: r.entity_name, aliases: r.entity_aliases }));
  }

  async makeDue(feed: Feed): Promise<number> {
    const { rowCount: n } = await this.db.execute(
      `UPDATE monitored_entities e SET next_check_due = now()
         FROM monitoring_clients c
        WHERE c.client_id = e.client_id AND e.monitoring_status = 'active' AND c.rescreen_on_list_update
          AND $1 = ANY(c.feeds)`,
      [feed],
    );
    return n;
  }
}
