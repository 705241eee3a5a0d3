import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Who ran each screening (issue #33): the member, the API key (its id and display prefix, never
 * the key nor its hash), the bulk job or monitoring, as the gateway verified it. Nullable: rows
 * logged before this say nothing about it, and a new NOT NULL column would have to invent it.
 * Adding nullable columns without a default rewrites nothing, so this is instant on a large table.
 */
export class ScreeningLogsActor1764600000000 implements MigrationInterface {
  name = 'ScreeningLogsActor1764600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE screening_logs
        ADD COLUMN actor_kind text CHECK (actor_kind IN ('user', 'api_key', 'bulk_job', 'monitoring')),
        ADD COLUMN actor_id text,
        ADD COLUMN actor_label text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE screening_logs DROP COLUMN actor_kind, DROP COLUMN actor_id, DROP COLUMN actor_label');
  }
}
