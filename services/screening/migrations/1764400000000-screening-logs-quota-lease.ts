import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The gateway's quota lease each screen was counted under (null for screens no lease covers:
 * bulk-job chunks, monitoring's re-screens). A lease is settled to the number of logs under it,
 * so the index is partial: most rows it never needs to hold.
 */
export class ScreeningLogsQuotaLease1764400000000 implements MigrationInterface {
  name = 'ScreeningLogsQuotaLease1764400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE screening_logs ADD COLUMN quota_lease uuid');
    await q.query(
      'CREATE INDEX screening_logs_quota_lease ON screening_logs (quota_lease) WHERE quota_lease IS NOT NULL',
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX screening_logs_quota_lease');
    await q.query('ALTER TABLE screening_logs DROP COLUMN quota_lease');
  }
}
