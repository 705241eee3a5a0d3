import type { MigrationInterface, QueryRunner } from 'typeorm';

// The client's billing period, kept by billing, so the gateway counts usage per billing period
// (not per calendar month) and usage_month resets exactly once when billing rolls the period.
// usage_period_start says which period usage_month counts, so a late usage copy of the previous
// period is recognised and ignored. NULL period: a client without a subscription (calendar month).
export class UsagePeriod1764100000002 implements MigrationInterface {
  name = 'UsagePeriod1764100000002';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE clients
        ADD COLUMN period_start timestamptz,
        ADD COLUMN period_end timestamptz,
        ADD COLUMN usage_period_start timestamptz,
        ADD CONSTRAINT clients_period_order CHECK (period_start < period_end),
        ADD CONSTRAINT clients_period_both CHECK ((period_start IS NULL) = (period_end IS NULL))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE clients DROP CONSTRAINT clients_period_both, DROP CONSTRAINT clients_period_order,
         DROP COLUMN usage_period_start, DROP COLUMN period_end, DROP COLUMN period_start`,
    );
  }
}
