import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The logs' "Matches" filter reads only a client's matched screens, newest first; the index for it
 * held every screen (client_id, match_found, created_at), so each clear screen, most of a bank's
 * traffic, paid an index entry no read needed. Partial, it holds the matches only. The "Clear" tab
 * (match_found = false) and every other read of a client's logs ride on (client_id, created_at).
 */
export class ScreeningLogsMatchesIndex1764500100000 implements MigrationInterface {
  name = 'ScreeningLogsMatchesIndex1764500100000';
  // screening_logs is the largest table a bank has: a plain CREATE INDEX would block every screen's
  // log write for the length of the build. CONCURRENTLY does not, and cannot run in a transaction
  // (TypeORM honours this flag when applying; a revert must be run with transaction mode "none").
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    // An interrupted concurrent build leaves an invalid index of this name behind: start over.
    await q.query('DROP INDEX CONCURRENTLY IF EXISTS screening_logs_client_matches');
    await q.query('CREATE INDEX CONCURRENTLY screening_logs_client_matches ON screening_logs (client_id, created_at DESC) WHERE match_found');
    await q.query('DROP INDEX CONCURRENTLY IF EXISTS screening_logs_client_match');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX CONCURRENTLY IF EXISTS screening_logs_client_match');
    await q.query('CREATE INDEX CONCURRENTLY screening_logs_client_match ON screening_logs (client_id, match_found, created_at DESC)');
    await q.query('DROP INDEX CONCURRENTLY IF EXISTS screening_logs_client_matches');
  }
}
