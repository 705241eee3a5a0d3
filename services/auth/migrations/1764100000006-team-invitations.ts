import type { MigrationInterface, QueryRunner } from 'typeorm';

// An owner's invitation of a colleague into their client, with a role. The link's token is kept
// as SHA-256 only, like every other secret here; accepting, revoking and expiring end it, and
// one address has at most one open invitation per client (a new one replaces it).
// member_since: when the user joined their client's team (the owners: when the client was theirs).
export class TeamInvitations1764100000006 implements MigrationInterface {
  name = 'TeamInvitations1764100000006';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users ADD COLUMN member_since timestamptz`);
    await q.query(`UPDATE users SET member_since = created_at WHERE client_id IS NOT NULL`);
    await q.query(`
      CREATE TABLE team_invitations (
        id          uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
        client_id   uuid        NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
        email       text        NOT NULL CHECK (email = lower(email)),
        member_role text        NOT NULL CHECK (member_role IN ('owner', 'supervisor', 'analyst', 'viewer')),
        token_hash  text        NOT NULL UNIQUE CHECK (token_hash ~ '^[0-9a-f]{64}$'),
        invited_by  uuid        REFERENCES users (id) ON DELETE SET NULL,
        created_at  timestamptz NOT NULL DEFAULT now(),
        expires_at  timestamptz NOT NULL,
        accepted_at timestamptz,
        accepted_by uuid        REFERENCES users (id) ON DELETE SET NULL,
        revoked_at  timestamptz
      )`);
    await q.query(`
      CREATE UNIQUE INDEX team_invitations_one_open ON team_invitations (client_id, email)
        WHERE accepted_at IS NULL AND revoked_at IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE team_invitations`);
    await q.query(`ALTER TABLE users DROP COLUMN member_since`);
  }
}
