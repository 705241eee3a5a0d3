import { Injectable } from '@nestjs/common';
import { Database } from '../infra/database.js';

/** The usage counters: one row per client and usage period (keyed by the period's start). */
@Injectable()
export class QuotasRepository {
  constructor(private readonly db: Database) {}

  /**
   * Adds `amount` only if the total stays within `quota`, in one statement, so
   * concurrent requests on every replica can never overshoot. Null: it would.
   */
  async reserve(clientId: string, period: string, amount: number, quota: number): Promise<number | null> {
    if (amount > quota) return null;
    const { rows } = await this.db.query<{ used: number }>(
      `INSERT INTO quota_usage (client_id, period, used) VALUES ($1, $2, $3)
       ON CONFLICT (client_id, period) DO UPDATE SET used = quota_usage.used + EXCLUDED.used, updated_at = now()
         WHERE quota_usage.used + EXCLUDED.used <= $4
       RETURNING used`,
      [clientId, period, amount, quota],
      'quota-reserve',
    );
    return rows[0]?.used ?? null;
  }

  async release(clientId: string, period: string, amount: number): Promise<void> {
    await this.db.query(
      `UPDATE quota_usage SET used = GREATEST(used - $3, 0), updated_at = now() WHERE client_id = $1 AND period = $2`,
      [clientId, period, amount],
    );
  }

  async used(clientId: string, period: string): Promise<number> {
    const { rows } = await this.db.query<{ used: number }>(
      `SELECT used FROM quota_usage WHERE client_id = $1 AND period = $2`,
      [clientId, period],
    );
    return rows[0]?.used ?? 0;
  }
}
