import type { MigrationInterface, QueryRunner } from 'typeorm';

// Case work on the review queue (issue #19): who decided and why, four-eyes proposals, the case
// file kept with each review (what was searched, the list entry as it stood, the explanation),
// the per-client four-eyes setting and the remembered false positives.
export class ReviewCaseWork1764000300000 implements MigrationInterface {
  name = 'ReviewCaseWork1764000300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE pending_reviews DROP CONSTRAINT pending_reviews_status_check');
    await q.query(`
      ALTER TABLE pending_reviews
        ADD CONSTRAINT pending_reviews_status_check CHECK (status IN ('pending', 'proposed', 'approved', 'blocked')),
        ADD COLUMN matched_name      text,
        ADD COLUMN decided_by_id     text,
        ADD COLUMN decided_by_email  text,
        ADD COLUMN reason_code       text,
        ADD COLUMN note              text,
        ADD COLUMN proposed_action   text CHECK (proposed_action IN ('approve', 'block')),
        ADD COLUMN proposed_by_id    text,
        ADD COLUMN proposed_by_email text,
        ADD COLUMN proposed_at       timestamptz,
        ADD COLUMN memory_note       text,
        ADD COLUMN case_file         jsonb`);
    // The case pane's "previous decisions on the same entity".
    await q.query(
      'CREATE INDEX pending_reviews_client_entity ON pending_reviews (client_id, matched_entity_id, created_at DESC)',
    );
    await q.query(`
      CREATE TABLE review_settings (
        client_id        text        PRIMARY KEY,
        four_eyes        boolean     NOT NULL DEFAULT false,
        updated_at       timestamptz NOT NULL DEFAULT now(),
        updated_by_id    text,
        updated_by_email text
      )`);
    // Absent qualifiers are '' rather than NULL so the key compares with plain equality.
    await q.query(`
      CREATE TABLE remembered_decisions (
        id                 uuid        PRIMARY KEY,
        client_id          text        NOT NULL,
        review_id          uuid        NOT NULL UNIQUE REFERENCES pending_reviews (id),
        searched_name      text        NOT NULL,
        name_key           text        NOT NULL,
        date_of_birth      text        NOT NULL DEFAULT '',
        country            text        NOT NULL DEFAULT '',
        entity_type        text        NOT NULL DEFAULT '',
        customer_reference text        NOT NULL DEFAULT '',
        entity_id          text        NOT NULL,
        entity_name        text        NOT NULL,
        fingerprint        text        NOT NULL,
        reason_code        text        NOT NULL,
        note               text,
        created_by_id      text,
        created_by_email   text,
        created_at         timestamptz NOT NULL DEFAULT now(),
        revoked_at         timestamptz,
        revoked_by_id      text,
        revoked_by_email   text
      )`);
    await q.query(
      'CREATE INDEX remembered_decisions_client_active ON remembered_decisions (client_id, created_at DESC) WHERE revoked_at IS NULL',
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE remembered_decisions');
    await q.query('DROP TABLE review_settings');
    await q.query('DROP INDEX pending_reviews_client_entity');
    await q.query("DELETE FROM pending_reviews WHERE status = 'proposed'");
    await q.query(`
      ALTER TABLE pending_reviews
        DROP CONSTRAINT pending_reviews_status_check,
        DROP COLUMN matched_name, DROP COLUMN decided_by_id, DROP COLUMN decided_by_email, DROP COLUMN reason_code,
        DROP COLUMN note, DROP COLUMN proposed_action, DROP COLUMN proposed_by_id, DROP COLUMN proposed_by_email,
        DROP COLUMN proposed_at, DROP COLUMN memory_note, DROP COLUMN case_file`);
    await q.query(
      "ALTER TABLE pending_reviews ADD CONSTRAINT pending_reviews_status_check CHECK (status IN ('pending', 'approved', 'blocked'))",
    );
  }
}
