import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The gateway's own state: idempotency records, the monthly usage counters and
 * asynchronous bulk jobs with their results. Everything else crosses NATS.
 */
export class Gateway1764100000000 implements MigrationInterface {
  name = 'Gateway1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE idempotency_keys (
        scope text NOT NULL,
        key text NOT NULL,
        fingerprint text NOT NULL,
        state text NOT NULL CHECK (state IN ('pending', 'done')),
        status integer,
        content_type text,
        body bytea,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (scope, key)
      )`);
    await q.query(`CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at)`);
    await q.query(`
      CREATE TABLE quota_usage (
        client_id uuid NOT NULL,
        period text NOT NULL,
        used integer NOT NULL CHECK (used >= 0),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (client_id, period)
      )`);
    await q.query(`
      CREATE TABLE bulk_jobs (
        id uuid PRIMARY KEY,
        client_id uuid NOT NULL,
        total integer NOT NULL CHECK (total > 0),
        processed integer NOT NULL DEFAULT 0 CHECK (processed >= 0 AND processed <= total),
        status text NOT NULL CHECK (status IN ('queued', 'running', 'completed')),
        created_at timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz
      )`);
    await q.query(`CREATE INDEX bulk_jobs_client ON bulk_jobs (client_id, created_at DESC)`);
    // One row per input row: a redelivered chunk cannot add a second result.
    await q.query(`
      CREATE TABLE bulk_job_results (
        job_id uuid NOT NULL REFERENCES bulk_jobs (id) ON DELETE CASCADE,
        row_index integer NOT NULL,
        item jsonb NOT NULL,
        PRIMARY KEY (job_id, row_index)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE bulk_job_results`);
    await q.query(`DROP TABLE bulk_jobs`);
    await q.query(`DROP TABLE quota_usage`);
    await q.query(`DROP TABLE idempotency_keys`);
  }
}
