import { Injectable } from '@nestjs/common';
import { Database } from '@vigil/platform';

/** Billing periods whose usage was reset: one row per client and period start, so a reset happens once. */
@Injectable()
export class UsagePeriodsRepository {
  constructor(private readonly db: Database) {}

  async claim(clientId: string, start: Date, end: Date): Promise<boolean> {
    const rows = await this.db.query(
      `INSERT INTO usage_periods (client_id, period_start, period_end) VALUES ($1, $2, $3) ON CONFLICT (client_id, period_start) DO NOTHING RETURNING client_id`,
      [clientId, start, end],
    );
    return rows.length > 0;
  }

  /** Gives a claim back when the reset itself failed, so the next run retries it. */
  async release(clientId: string, start: Date): Promise<void> {
    await this.db.query(`DELETE FROM usage_periods WHERE client_id = $1 AND period_start = $2`, [clientId, start]);
  }
}
