import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Blocks of a client's quota leased by one gateway replica (`holder`), so requests are counted in
 * the replica's memory instead of by a statement each. `quota_usage.used` already includes every
 * granted block; a lease row says how much of it the holder may still give back:
 * - `granted`: names this holder took from `quota_usage` for the period;
 * - `promised`: the most it may have answered, written ahead of use in small steps. When a holder
 *   dies without returning its lease, the expired row gives back `granted - promised` only, so an
 *   answered screen is never handed out twice.
 */
export class QuotaLeases1764300000000 implements MigrationInterface {
  name = 'QuotaLeases1764300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE quota_leases (
        client_id uuid NOT NULL,
        period text NOT NULL,
        holder text NOT NULL,
        granted integer NOT NULL CHECK (granted >= 0),
        promised integer NOT NULL CHECK (promised >= 0 AND promised <= granted),
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (client_id, period, holder)
      )`);
    await q.query(`CREATE INDEX quota_leases_expires_at ON quota_leases (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE quota_leases`);
  }
}
