import type { MigrationInterface, QueryRunner } from 'typeorm';

// The organisation name asked at onboarding, kept with the checkout until payment provisions the
// client under it (before, every new client was named after its e-mail address).
export class CheckoutClientName1764400000000 implements MigrationInterface {
  name = 'CheckoutClientName1764400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE checkout_sessions ADD COLUMN IF NOT EXISTS client_name text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE checkout_sessions DROP COLUMN IF EXISTS client_name`);
  }
}
