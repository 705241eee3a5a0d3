import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The outbox of the screening log's group commit: one row per written batch, carrying that batch's
 * screening.v1.screened messages as a JSON array of { id, traceparent, payload }, instead of one
 * outbox row per screen. Each screen had cost the outbox a jsonb parse of its event, a tuple of its
 * own, two index entries (a random uuid key and the unpublished index) and a delete once published.
 * `json`, not `jsonb`: the relay only passes the payloads on, as text.
 *
 * A table of its own rather than a new shape of `outbox` row: a replica still running the previous
 * version during a rollout drains `outbox` only, and would publish an array row as one event.
 * The key is an identity, so inserts land on the index's right edge and the relay drains oldest
 * first by it. Rows live for a relay pass; vacuumed by count rather than by a share of a table that
 * is nearly always empty.
 */
export class OutboxBatches1764500000000 implements MigrationInterface {
  name = 'OutboxBatches1764500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE outbox_batches (
        id         bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        subject    text        NOT NULL,
        messages   json        NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        attempts   integer     NOT NULL DEFAULT 0,
        last_error text
      ) WITH (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 1000)`);
    // A batch over ~2 KB is compressed: lz4 costs a fraction of pglz's CPU. Servers built without
    // lz4 keep their default.
    await q.query(`
      DO $$ BEGIN
        ALTER TABLE outbox_batches ALTER COLUMN messages SET COMPRESSION lz4;
      EXCEPTION WHEN feature_not_supported OR invalid_parameter_value THEN NULL;
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    // Unpublished messages go back to the one-row-per-event outbox the previous version drains.
    await q.query(`
      INSERT INTO outbox (id, subject, payload, traceparent, created_at, attempts, last_error)
      SELECT m.id, b.subject, m.payload::jsonb, m.traceparent, b.created_at, b.attempts, b.last_error
        FROM outbox_batches b CROSS JOIN LATERAL json_to_recordset(b.messages) AS m(id uuid, traceparent text, payload json)
      ON CONFLICT (id) DO NOTHING`);
    await q.query('DROP TABLE outbox_batches');
  }
}
