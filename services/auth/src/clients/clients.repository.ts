import { Injectable } from '@nestjs/common';
import type { Client, SubscriptionStatus, ThresholdConfig, Tier } from '@vigil/proto';
import { Database, type Queryable } from '@vigil/platform';

type ClientRow = Omit<Client, 'created_at' | 'updated_at'> & { created_at: Date; updated_at: Date };

/**
 * usage_month as of now: 0 once the billing period it counted has ended (the period rolls over
 * at its end, before billing or the gateway have said anything about the next one).
 */
export const CURRENT_USAGE = `CASE WHEN c.period_end <= now() AND coalesce(c.usage_period_start < c.period_end, true) THEN 0 ELSE c.usage_month END`;

// Every read joins the current key's prefix; the key itself is never stored.
const SELECT_CLIENT = `
  SELECT c.id, c.client_name, c.contact_email, c.tier, c.subscription_status, c.threshold_config,
         c.quota_month, ${CURRENT_USAGE} AS usage_month, c.created_at, c.updated_at, k.prefix AS api_key_prefix
    FROM clients c LEFT JOIN api_keys k ON k.client_id = c.id AND k.revoked_at IS NULL`;

function toClient(row: ClientRow): Client {
  return { ...row, created_at: row.created_at.toISOString(), updated_at: row.updated_at.toISOString() };
}

@Injectable()
export class ClientsRepository {
  constructor(private readonly db: Database) {}

  async list(): Promise<Client[]> {
    const rows: ClientRow[] = await this.db.query(`${SELECT_CLIENT} ORDER BY c.created_at DESC, c.id`);
    return rows.map(toClient);
  }

  async get(id: string, q: Queryable = this.db): Promise<Client | undefined> {
    const rows: ClientRow[] = await q.query(`${SELECT_CLIENT} WHERE c.id = $1`, [id]);
    return rows[0] && toClient(rows[0]);
  }

  async findByContactEmail(email: string, q: Queryable = this.db): Promise<Client | undefined> {
    const rows: ClientRow[] = await q.query(`${SELECT_CLIENT} WHERE c.contact_email = $1`, [email]);
    return rows[0] && toClient(rows[0]);
  }

  /** Inserts a client; undefined if its contact email already has one. */
  async create(
    client: {
      clientName: string;
      contactEmail: string | null;
      tier: Tier;
      subscriptionStatus: SubscriptionStatus;
      quotaMonth: number;
    },
    q: Queryable = this.db,
  ): Promise<string | undefined> {
    const rows: { id: string }[] = await q.query(
      `INSERT INTO clients (client_name, contact_email, tier, subscription_status, quota_month) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (contact_email) WHERE contact_email IS NOT NULL DO NOTHING RETURNING id`,
      [client.clientName, client.contactEmail, client.tier, client.subscriptionStatus, client.quotaMonth],
    );
    return rows[0]?.id;
  }

  async delete(id: string, q: Queryable = this.db): Promise<boolean> {
    const rows: unknown[] = await q.query(`DELETE FROM clients WHERE id = $1 RETURNING id`, [id]);
    return rows.length > 0;
  }

  async setThresholds(id: string, config: ThresholdConfig | null): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      `UPDATE clients SET threshold_config = $2, updated_at = now() WHERE id = $1 RETURNING id`,
      [id, config === null ? null : JSON.stringify(config)],
    );
    return rows.length > 0;
  }

  async setProfile(id: string, clientName: string, contactEmail: string): Promise<void> {
    await this.db.query(`UPDATE clients SET client_name = $2, contact_email = $3, updated_at = now() WHERE id = $1`, [
      id,
      clientName,
      contactEmail,
    ]);
  }

  /**
   * One statement, so concurrent renewals and usage copies cannot interleave:
   * - a `period` later than the one held replaces it and resets usage to 0, unless usage already
   *   counts that period (a copy of the gateway's counter got there first); the same or an older
   *   period changes nothing, so a redelivered renewal resets nothing twice;
   * - `usageMonth` with `usagePeriodStart` is a copy of the gateway's counter for that period,
   *   kept unless it counts a period older than the client's or than the usage held (it raced a
   *   renewal); without `usagePeriodStart` it is set as given.
   */
  async setSubscription(
    id: string,
    changes: {
      tier?: Tier;
      subscriptionStatus?: SubscriptionStatus;
      quotaMonth?: number;
      usageMonth?: number;
      usagePeriodStart?: string;
      period?: { start: string; end: string };
    },
  ): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      `WITH old AS (SELECT id, period_start, usage_period_start FROM clients WHERE id = $1 FOR UPDATE),
            decided AS (
              SELECT old.id, old.usage_period_start,
                     $7::timestamptz IS NOT NULL AND (old.period_start IS NULL OR $7::timestamptz > old.period_start) AS renews,
                     $5::int IS NOT NULL AND ($6::timestamptz IS NULL OR (
                       $6::timestamptz >= coalesce(greatest($7::timestamptz, old.period_start), '-infinity')
                       AND $6::timestamptz >= coalesce(old.usage_period_start, '-infinity'))) AS takes_usage
                FROM old)
       UPDATE clients c SET tier = coalesce($2, c.tier), subscription_status = coalesce($3, c.subscription_status),
              quota_month = coalesce($4, c.quota_month),
              period_start = CASE WHEN d.renews THEN $7::timestamptz ELSE c.period_start END,
              period_end = CASE WHEN d.renews THEN $8::timestamptz ELSE c.period_end END,
              usage_month = CASE
                WHEN d.takes_usage THEN $5::int
                WHEN d.renews AND coalesce(d.usage_period_start < $7::timestamptz, true) THEN 0
                ELSE c.usage_month END,
              usage_period_start = CASE
                WHEN d.takes_usage AND $6::timestamptz IS NOT NULL THEN $6::timestamptz
                WHEN d.renews THEN greatest(d.usage_period_start, $7::timestamptz)
                ELSE c.usage_period_start END,
              updated_at = now()
         FROM decided d WHERE c.id = d.id RETURNING c.id`,
      [
        id,
        changes.tier ?? null,
        changes.subscriptionStatus ?? null,
        changes.quotaMonth ?? null,
        changes.usageMonth ?? null,
        changes.usagePeriodStart ?? null,
        changes.period?.start ?? null,
        changes.period?.end ?? null,
      ],
    );
    return rows.length > 0;
  }
}
