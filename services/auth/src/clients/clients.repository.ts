import { Injectable } from '@nestjs/common';
import type { Client, SubscriptionStatus, ThresholdConfig, Tier } from '@vigil/proto';
import { DataSource } from 'typeorm';
import type { Queryable } from '../db.js';
import { sql } from '../db.js';

type ClientRow = Omit<Client, 'created_at' | 'updated_at'> & { created_at: Date; updated_at: Date };

// Every read joins the current key's prefix; the key itself is never stored.
const SELECT_CLIENT = `
  SELECT c.id, c.client_name, c.contact_email, c.tier, c.subscription_status, c.threshold_config,
         c.quota_month, c.usage_month, c.created_at, c.updated_at, k.prefix AS api_key_prefix
    FROM clients c LEFT JOIN api_keys k ON k.client_id = c.id AND k.revoked_at IS NULL`;

function toClient(row: ClientRow): Client {
  return { ...row, created_at: row.created_at.toISOString(), updated_at: row.updated_at.toISOString() };
}

@Injectable()
export class ClientsRepository {
  constructor(private readonly db: DataSource) {}

  async list(): Promise<Client[]> {
    const rows: ClientRow[] = await sql(this.db, `${SELECT_CLIENT} ORDER BY c.created_at DESC, c.id`);
    return rows.map(toClient);
  }

  async get(id: string, q: Queryable = this.db): Promise<Client | undefined> {
    const rows: ClientRow[] = await sql(q, `${SELECT_CLIENT} WHERE c.id = $1`, [id]);
    return rows[0] && toClient(rows[0]);
  }

  async findByContactEmail(email: string, q: Queryable = this.db): Promise<Client | undefined> {
    const rows: ClientRow[] = await sql(q, `${SELECT_CLIENT} WHERE c.contact_email = $1`, [email]);
    return rows[0] && toClient(rows[0]);
  }

  /** Inserts a client; undefined if its contact email already has one. */
  async create(
    client: { clientName: string; contactEmail: string | null; tier: Tier; subscriptionStatus: SubscriptionStatus; quotaMonth: number },
    q: Queryable = this.db,
  ): Promise<string | undefined> {
    const rows: { id: string }[] = await sql(q, 
      `INSERT INTO clients (client_name, contact_email, tier, subscription_status, quota_month) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (contact_email) WHERE contact_email IS NOT NULL DO NOTHING RETURNING id`,
      [client.clientName, client.contactEmail, client.tier, client.subscriptionStatus, client.quotaMonth],
    );
    return rows[0]?.id;
  }

  async delete(id: string, q: Queryable = this.db): Promise<boolean> {
    const rows: unknown[] = await sql(q, `DELETE FROM clients WHERE id = $1 RETURNING id`, [id]);
    return rows.length > 0;
  }

  async setThresholds(id: string, config: ThresholdConfig | null): Promise<boolean> {
    const rows: unknown[] = await sql(this.db, `UPDATE clients SET threshold_config = $2, updated_at = now() WHERE id = $1 RETURNING id`, [
      id,
      config === null ? null : JSON.stringify(config),
    ]);
    return rows.length > 0;
  }

  async setProfile(id: string, clientName: string, contactEmail: string): Promise<void> {
    await sql(this.db, `UPDATE clients SET client_name = $2, contact_email = $3, updated_at = now() WHERE id = $1`, [id, clientName, contactEmail]);
  }

  async setSubscription(
    id: string,
    changes: { tier?: Tier; subscriptionStatus?: SubscriptionStatus; quotaMonth?: number; usageMonth?: number },
  ): Promise<boolean> {
    const rows: unknown[] = await sql(this.db, 
      `UPDATE clients SET tier = coalesce($2, tier), subscription_status = coalesce($3, subscription_status),
              quota_month = coalesce($4, quota_month), usage_month = coalesce($5, usage_month), updated_at = now()
        WHERE id = $1 RETURNING id`,
      [id, changes.tier ?? null, changes.subscriptionStatus ?? null, changes.quotaMonth ?? null, changes.usageMonth ?? null],
    );
    return rows.length > 0;
  }
}
