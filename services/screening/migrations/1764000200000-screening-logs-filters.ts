import type { MigrationInterface, QueryRunner } from 'typeorm';

// Indexes for the dashboard's reads: the logs' "Matches" filter (match_found) and the
// review queue's "All" tab, both newest first within one client. The date filters ride
// on the existing (client_id, created_at DESC) index; the name search is a substring
// match within one client's rows, bounded by that index too.
export class ScreeningLogsFilters1764000200000 implements MigrationInterface {
  name = 'ScreeningLogsFilters1764000200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      'CREATE INDEX screening_logs_client_match ON screening_logs (client_id, match_found, created_at DESC)',
    );
    await q.query('CREATE INDEX pending_reviews_client_created ON pending_reviews (client_id, created_at DESC)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX pending_reviews_client_created');
    await q.query('DROP INDEX screening_logs_client_match');
  }
}
