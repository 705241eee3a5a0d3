import type { MigrationInterface, QueryRunner } from 'typeorm';

// The emailed unlock link of a locked account is a one-time token like the confirmation and
// reset links: stored hashed, used once, expiring.
export class UnlockLinks1764300000000 implements MigrationInterface {
  name = 'UnlockLinks1764300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE one_time_tokens DROP CONSTRAINT IF EXISTS one_time_tokens_purpose_check`);
    await q.query(
      `ALTER TABLE one_time_tokens ADD CONSTRAINT one_time_tokens_purpose_check CHECK (purpose IN ('signup', 'recovery', 'unlock'))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM one_time_tokens WHERE purpose = 'unlock'`);
    await q.query(`ALTER TABLE one_time_tokens DROP CONSTRAINT IF EXISTS one_time_tokens_purpose_check`);
    await q.query(
      `ALTER TABLE one_time_tokens ADD CONSTRAINT one_time_tokens_purpose_check CHECK (purpose IN ('signup', 'recovery'))`,
    );
  }
}
