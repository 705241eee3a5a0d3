import type { MigrationInterface, QueryRunner } from 'typeorm';

// Every hit reviewable (issue #36): a blocked screening opens a case as a review-band one does,
// and a block is a decision to confirm or overturn. `raised_as` says which band raised the case;
// an overturned block clears its screening (who, when, why on the log) and every decided block
// marks its alert reviewed with the same who, when and why.
export class BlockedCases1764600000001 implements MigrationInterface {
  name = 'BlockedCases1764600000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE pending_reviews
        ADD COLUMN raised_as text NOT NULL DEFAULT 'review' CHECK (raised_as IN ('review', 'blocked'))`);
    await q.query(`
      ALTER TABLE sanction_alerts
        ADD COLUMN reviewed_at        timestamptz,
        ADD COLUMN reviewed_by_email  text,
        ADD COLUMN review_outcome     text CHECK (review_outcome IN ('confirmed', 'cleared')),
        ADD COLUMN review_reason_code text,
        ADD COLUMN review_note        text`);
    await q.query(`
      ALTER TABLE screening_logs
        ADD COLUMN cleared_at          timestamptz,
        ADD COLUMN cleared_by_email    text,
        ADD COLUMN cleared_reason_code text,
        ADD COLUMN cleared_note        text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      'ALTER TABLE screening_logs DROP COLUMN cleared_at, DROP COLUMN cleared_by_email, ' +
        'DROP COLUMN cleared_reason_code, DROP COLUMN cleared_note',
    );
    await q.query(
      'ALTER TABLE sanction_alerts DROP COLUMN reviewed_at, DROP COLUMN reviewed_by_email, ' +
        'DROP COLUMN review_outcome, DROP COLUMN review_reason_code, DROP COLUMN review_note',
    );
    await q.query(
      `DELETE FROM remembered_decisions WHERE review_id IN (SELECT id FROM pending_reviews WHERE raised_as = 'blocked')`,
    );
    await q.query(`DELETE FROM pending_reviews WHERE raised_as = 'blocked'`);
    await q.query('ALTER TABLE pending_reviews DROP COLUMN raised_as');
  }
}
