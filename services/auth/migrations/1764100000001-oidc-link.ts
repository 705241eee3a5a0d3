import type { MigrationInterface, QueryRunner } from 'typeorm';

// A pending provider sign-in may be a signed-in user linking a new identity.
export class OidcLink1764100000001 implements MigrationInterface {
  name = 'OidcLink1764100000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE oidc_states ADD COLUMN link_user_id uuid REFERENCES users (id) ON DELETE CASCADE`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE oidc_states DROP COLUMN link_user_id`);
  }
}
