import type { MigrationInterface, QueryRunner } from 'typeorm';

// The outbox becomes a queue a worker drains: each row is pending until claimed (sending, with a
// lease so a crashed sender's row is taken again), then sent, or retried with backoff until it is dead.
export class MailOutboxDelivery1764500000000 implements MigrationInterface {
  name = 'MailOutboxDelivery1764500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE mail_outbox
        ADD COLUMN status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sending', 'sent', 'dead')),
        ADD COLUMN attempts integer NOT NULL DEFAULT 0,
        ADD COLUMN next_attempt_at timestamptz NOT NULL DEFAULT now(),
        ADD COLUMN claimed_until timestamptz,
        ADD COLUMN last_error text,
        ADD COLUMN sent_at timestamptz`);
    await q.query(
      `CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at) WHERE status IN ('pending', 'sending')`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX mail_outbox_due`);
    await q.query(`
      ALTER TABLE mail_outbox
        DROP COLUMN status, DROP COLUMN attempts, DROP COLUMN next_attempt_at,
        DROP COLUMN claimed_until, DROP COLUMN last_error, DROP COLUMN sent_at`);
  }
}
