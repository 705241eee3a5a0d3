import type { MigrationInterface, QueryRunner } from 'typeorm';

// Every service that consumes events starts its schema with this table.
// Events on NATS are delivered at least once; consumers record what they have
// handled here so a redelivery is recognised by the primary key, not by hope.
export class ProcessedMessages1763800000000 implements MigrationInterface {
  name = 'ProcessedMessages1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE processed_messages (
        consumer     text        NOT NULL,
        message_id   text        NOT NULL,
        processed_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (consumer, message_id)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE processed_messages');
  }
}
