import type { MigrationInterface, QueryRunner } from 'typeorm';

// A client has many users: `users.client_id` already says which client a user belongs to (one
// each, as the access token names one client), so the membership is that link plus the user's
// role in the team. Every user who has a client today created it, so each becomes its owner.
// The role is only meaningful while client_id is set: deleting a client nulls client_id (the
// foreign key's ON DELETE SET NULL) and leaves a stale role behind, which every read ignores.
export class TeamMembers1764100000005 implements MigrationInterface {
  name = 'TeamMembers1764100000005';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE users
        ADD COLUMN member_role text CHECK (member_role IN ('owner', 'supervisor', 'analyst', 'viewer'))`);
    await q.query(`UPDATE users SET member_role = 'owner' WHERE client_id IS NOT NULL`);
    await q.query(`
      ALTER TABLE users
        ADD CONSTRAINT users_member_role_with_client CHECK (client_id IS NULL OR member_role IS NOT NULL)`);
    await q.query(`CREATE INDEX users_client ON users (client_id) WHERE client_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX users_client`);
    await q.query(`ALTER TABLE users DROP CONSTRAINT users_member_role_with_client`);
    await q.query(`ALTER TABLE users DROP COLUMN member_role`);
  }
}
