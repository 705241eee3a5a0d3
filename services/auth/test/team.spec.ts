import { jest } from '@jest/globals';
import { runMigrations } from '@vigil/platform';
import { subjects, type ProvisionClientReply, type Session } from '@vigil/proto';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrations } from '../migrations/index.js';
import { claimsOf, DATABASE_URL, startAuthStack, TEST_PASSWORD, userSession, type AuthStack } from './harness.js';

jest.setTimeout(60_000);

describe('teams: the membership of a client', () => {
  let stack: AuthStack;
  beforeAll(async () => {
    stack = await startAuthStack();
  });
  afterAll(() => stack?.stop());

  it('makes the user whose checkout created the client its owner, in the session and in the access token', async () => {
    const user = await userSession(stack, 'founder@example.com');
    expect(user.user.member_role).toBeNull();
    expect(claimsOf(user.access_token).member_role).toBeNull();
    await stack.call<ProvisionClientReply>(subjects.clients.provision, {
      clientName: 'Founder Co',
      contactEmail: 'founder@example.com',
      tier: 'large',
      userId: user.user.id,
    });
    const signedIn = await stack.call<Session>(subjects.auth.token, {
      grant_type: 'password',
      email: 'founder@example.com',
      password: TEST_PASSWORD,
    });
    expect(signedIn.user).toMatchObject({ member_role: 'owner' });
    expect(claimsOf(signedIn.access_token)).toMatchObject({ client_id: signedIn.user.client_id, member_role: 'owner' });
  });
});

describe('teams migration', () => {
  it('makes every user who already had a client the owner of it, and leaves the others without a role', async () => {
    const schema = `t${randomBytes(4).toString('hex')}_auth`;
    const before = migrations.filter((m) => m.name !== 'TeamMembers1764100000005');
    expect(before).toHaveLength(migrations.length - 1);
    const db = new pg.Client({ connectionString: DATABASE_URL, options: `-c search_path="${schema}"` });
    await runMigrations({ databaseUrl: DATABASE_URL, schema, migrations: before, role: null });
    await db.connect();
    try {
      const { rows } = await db.query<{ id: string }>(
        `INSERT INTO clients (client_name, tier, quota_month) VALUES ('Old Co', 'large', 100) RETURNING id`,
      );
      await db.query(`INSERT INTO users (email, client_id) VALUES ('had-a-client@example.com', $1), ('no-client@example.com', NULL)`, [
        rows[0]!.id,
      ]);
      await runMigrations({ databaseUrl: DATABASE_URL, schema, migrations, role: null });
      const users = await db.query(`SELECT email, member_role FROM users ORDER BY email`);
      expect(users.rows).toEqual([
        { email: 'had-a-client@example.com', member_role: 'owner' },
        { email: 'no-client@example.com', member_role: null },
      ]);
      // A user with a client always has a role in it.
      await expect(db.query(`UPDATE users SET member_role = NULL WHERE email = 'had-a-client@example.com'`)).rejects.toThrow(
        /users_member_role_with_client/,
      );
    } finally {
      await db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await db.end();
    }
  });
});
