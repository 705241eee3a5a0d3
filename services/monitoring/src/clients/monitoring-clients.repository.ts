import { Injectable } from '@nestjs/common';
import { Database } from '@vigil/platform';
import {
  DEFAULT_MONITORING_SETTINGS,
  type Feed,
  type MonitoringCaller,
  type MonitoringSettings,
  type ThresholdConfig,
  type Tier,
} from '@vigil/proto';

/** What a background check needs to screen on a client's behalf. */
export type ClientSnapshot = {
  clientId: string;
  tier: Tier;
  feeds: Feed[];
  thresholds: ThresholdConfig;
  settings: MonitoringSettings;
};

type Row = {
  client_id: string;
  tier: Tier;
  feeds: Feed[];
  thresholds: ThresholdConfig;
  default_check_frequency: MonitoringSettings['default_check_frequency'];
  rescreen_on_list_update: boolean;
  alert_on_review: boolean;
};

const toSnapshot = (r: Row): ClientSnapshot => ({
  clientId: r.client_id,
  tier: r.tier,
  feeds: r.feeds,
  thresholds: r.thresholds,
  settings: {
    default_check_frequency: r.default_check_frequency,
    rescreen_on_list_update: r.rescreen_on_list_update,
    alert_on_review: r.alert_on_review,
  },
});

/**
 * The client as the gateway last resolved it (tier, feeds, thresholds) and its monitoring settings.
 * Every request refreshes the snapshot, so a tier or threshold change reaches background
 * re-screens at the client's next call at the latest.
 */
@Injectable()
export class MonitoringClientsRepository {
  constructor(private readonly db: Database) {}

  async remember(caller: MonitoringCaller): Promise<ClientSnapshot> {
    const [row]: Row[] = await this.db.query(
      `INSERT INTO monitoring_clients (client_id, tier, feeds, thresholds)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (client_id) DO UPDATE SET tier = excluded.tier, feeds = excluded.feeds,
              thresholds = excluded.thresholds, updated_at = now()
       RETURNING *`,
      [caller.clientId, caller.tier, caller.feeds, JSON.stringify(caller.thresholds)],
    );
    return toSnapshot(row!);
  }

  async many(clientIds: readonly string[]): Promise<Map<string, ClientSnapshot>> {
    if (clientIds.length === 0) return new Map();
    const rows: Row[] = await this.db.query('SELECT * FROM monitoring_clients WHERE client_id = ANY($1)', [
      [...clientIds],
    ]);
    return new Map(rows.map((r) => [r.client_id, toSnapshot(r)]));
  }

  async updateSettings(clientId: string, change: Partial<MonitoringSettings>): Promise<MonitoringSettings> {
    const [row] = await this.db.query<Row>(
      `UPDATE monitoring_clients SET
        default_check_frequency = COALESCE($2, default_check_frequency),
        rescreen_on_list_update = COALESCE($3, rescreen_on_list_update),
        alert_on_review = COALESCE($4, alert_on_review)
      WHERE client_id = $1 RETURNING *`,
      [
        clientId,
        change.default_check_frequency ?? null,
        change.rescreen_on_list_update ?? null,
        change.alert_on_review ?? null,
      ],
    );
    return row ? toSnapshot(row).settings : { ...DEFAULT_MONITORING_SETTINGS };
  }
}
