import type { MigrationInterface, QueryRunner } from 'typeorm';

// An outbox row is published after the request that wrote it has answered; it keeps that
// request's W3C traceparent so the event's consumers (audit, monitoring) join the same trace.
export class OutboxTraceparent1764200000000 implements MigrationInterface {
  name = 'OutboxTraceparent1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE outbox ADD COLUMN traceparent text');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE outbox DROP COLUMN traceparent');
  }
}
