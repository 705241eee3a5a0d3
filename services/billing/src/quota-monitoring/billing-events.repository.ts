import { Injectable } from '@nestjs/common';
import type { BillingEventType } from '@vigil/proto';
import { Database, type Queryable } from '@vigil/platform';

export type BillingEventRow = {
  id: string;
  event_type: BillingEventType;
  client_id: string;
  client_name: string;
  usage: number | null;
  quota: number | null;
  percentage: string | null;
  created_at: Date;
};

export type NewBillingEvent = {
  clientId: string;
  period: string;
  kind: BillingEventType;
  clientName: string;
  usage?: number;
  quota?: number;
  percentage?: number;
};

/** What billing noticed about a client, at most once per (client, period, kind). */
@Injectable()
export class BillingEventsRepository {
  constructor(private readonly db: Database) {}

  /** True when this is the first such event of the period (so its e-mail should go out). */
  async record(event: NewBillingEvent, q: Queryable = this.db): Promise<boolean> {
    const rows = await q.query(
      `INSERT INTO billing_events (client_id, period, kind, client_name, usage, quota, percentage)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (client_id, period, kind) DO NOTHING RETURNING id`,
      [event.clientId, event.period, event.kind, event.clientName, event.usage ?? null, event.quota ?? null, event.percentage ?? null],
    );
    return rows.length > 0;
  }

  async markNotified(clientId: string, period: string, kind: BillingEventType): Promise<void> {
    await this.db.query(`UPDATE billing_events SET notified = true WHERE client_id = $1 AND period = $2 AND kind = $3`, [clientId, period, kind]);
  }

  async recent(limit = 50): Promise<BillingEventRow[]> {
    return this.db.query<BillingEventRow>(
      `SELECT id, kind AS event_type, client_id, client_name, usage, quota, percentage, created_at FROM billing_events ORDER BY created_at DESC, id LIMIT $1`,
      [limit],
    );
  }
}
