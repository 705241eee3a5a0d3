import { Injectable } from '@nestjs/common';
import type { Tier } from '@vigil/proto';
import { Database, type Queryable } from '@vigil/platform';

export type UpgradeRecord = { clientId: string; fromTier: Tier; toTier: Tier; proratedCents: number; daysRemaining: number };

/** Every upgrade and what it charged: the answer to "why was I billed this?". */
@Injectable()
export class UpgradesRepository {
  constructor(private readonly db: Database) {}

  async insert(record: UpgradeRecord, q: Queryable = this.db): Promise<void> {
    await q.query(`INSERT INTO upgrades (client_id, from_tier, to_tier, prorated_cost_cents, days_remaining) VALUES ($1, $2, $3, $4, $5)`, [
      record.clientId,
      record.fromTier,
      record.toTier,
      record.proratedCents,
      record.daysRemaining,
    ]);
  }
}
