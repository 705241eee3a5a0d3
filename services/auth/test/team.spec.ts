import { jest } from '@jest/globals';
import { runMigrations } from '@vigil/platform';
import {
  clientChangedEventSchema,
  subjects,
  type InvitationPreview,
  type ProvisionClientReply,
  type Session,
  type TeamInvitation,
  type TeamMember,
} from '@vigil/proto';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrations } from '../migrations/index.js';
import {
  claimsOf,
  DATABASE_URL,
  eventually,
  startAuthStack,
  TEST_PASSWORD,
  userSession,
  type AuthStack,
} from './harness.js';

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

  it("puts every team, key and notification change on the client's audit trail, naming who made it", async () => {
    // Issue #33: these changes were outside the trail. Each is published to AUTH_EVENTS for audit.
    const changes = stack.events(subjects.auth.clientChanged);
    const owner = await userSession(stack, 'trail-owner@example.com');
    const { client } = await stack.call<ProvisionClientReply>(subjects.clients.provision, {
      clientName: 'Trail Co',
      contactEmail: 'trail-owner@example.com',
      tier: 'large',
      userId: owner.user.id,
    });
    const actor = { clientId: client.id, actorId: owner.user.id };
    await stack.call(subjects.clients.team.invite, {
      ...actor,
      email: 'trail-analyst@example.com',
      member_role: 'analyst',
    });
    const [mail] = await stack.waitForMail('trail-analyst@example.com', 1);
    const token = /invitation\?token=([A-Za-z0-9_-]+)/.exec(mail!.text)![1]!;
    const analyst = await stack.call<Session>(subjects.clients.team.acceptInvitationSignup, {
      token,
      full_name: 'Trail Analyst',
      password: TEST_PASSWORD,
      confirm_password: TEST_PASSWORD,
      accepted_terms: true,
    });
    await stack.call(subjects.clients.team.changeRole, {
      ...actor,
      userId: analyst.user.id,
      member_role: 'supervisor',
    });
    await stack.call(subjects.clients.team.removeMember, { ...actor, userId: analyst.user.id });
    const rotated = await stack.call<{ api_key: string }>(subjects.clients.settings.regenerateKey, {
      accessToken: owner.access_token,
    });
    await stack.call(subjects.clients.settings.updateNotifications, {
      accessToken: owner.access_token,
      weekly_reports: true,
    });
    await eventually(
      () => changes.received.length,
      (n) => n >= 5,
    );
    changes.stop();
    const parsed = changes.received.map((e) => clientChangedEventSchema.parse(e));
    expect(parsed.map((e) => [e.change, e.clientId, e.actorId])).toEqual([
      ['member.added', client.id, analyst.user.id],
      ['member.role_changed', client.id, owner.user.id],
      ['member.removed', client.id, owner.user.id],
      ['key.rotated', client.id, owner.user.id],
      ['notifications.changed', client.id, owner.user.id],
    ]);
    expect(parsed[1]!.details).toMatchObject({ member_id: analyst.user.id, from: 'analyst', to: 'supervisor' });
    // The new key's prefix only, never the key.
    expect(rotated.api_key).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(parsed)).not.toContain(rotated.api_key);
    const prefix = String(parsed[3]!.details.key_prefix);
    expect(prefix.length).toBeLessThan(16);
    expect(rotated.api_key.startsWith(prefix)).toBe(true);
  });

  it('checks the live role, not the one a token was issued with, and tells the gateway of every change', async () => {
    const first = await userSession(stack, 'first-owner@example.com');
    const { client } = await stack.call<ProvisionClientReply>(subjects.clients.provision, {
      clientName: 'Live Roles Co',
      contactEmail: 'first-owner@example.com',
      tier: 'large',
      userId: first.user.id,
    });
    const actor = { clientId: client.id, actorId: first.user.id };
    const invitation = await stack.call<TeamInvitation>(subjects.clients.team.invite, {
      ...actor,
      email: 'second-owner@example.com',
      member_role: 'owner',
    });
    expect(invitation).toMatchObject({
      email: 'second-owner@example.com',
      invited_by_email: 'first-owner@example.com',
    });
    const [mail] = await stack.waitForMail('second-owner@example.com', 1);
    expect(mail!.subject).toBe('You are invited to join Live Roles Co on Vigil');
    const token = /invitation\?token=([A-Za-z0-9_-]+)/.exec(mail!.text)![1]!;
    // Only the hash of the link's token is stored.
    const stored = await stack.db.query(`SELECT token_hash FROM team_invitations WHERE id = $1`, [invitation.id]);
    expect(stored.rows[0].token_hash).not.toContain(token);
    await expect(
      stack.call<InvitationPreview>(subjects.clients.team.lookUpInvitation, { token }),
    ).resolves.toMatchObject({
      client_name: 'Live Roles Co',
      member_role: 'owner',
      has_account: false,
    });
    const second = await stack.call<Session>(subjects.clients.team.acceptInvitationSignup, {
      token,
      full_name: 'Second Owner',
      password: TEST_PASSWORD,
      confirm_password: TEST_PASSWORD,
      accepted_terms: true,
    });
    expect(claimsOf(second.access_token)).toMatchObject({ client_id: client.id, member_role: 'owner' });

    // The second owner demotes the first, whose token still says owner: auth refuses them anyway.
    const changes = stack.events(subjects.auth.memberChanged);
    const demoted = await stack.call<TeamMember>(subjects.clients.team.changeRole, {
      clientId: client.id,
      actorId: second.user.id,
      userId: first.user.id,
      member_role: 'viewer',
    });
    expect(demoted.member_role).toBe('viewer');
    // What the gateway asks on every dashboard request (cached ≤ 5 s): the live role.
    await expect(
      stack.call(subjects.clients.team.resolveMember, { clientId: client.id, userId: first.user.id }),
    ).resolves.toMatchObject({ clientId: client.id, clientName: 'Live Roles Co', memberRole: 'viewer' });
    const refused = await stack.fail(subjects.clients.team.invite, {
      ...actor,
      email: 'x@example.com',
      member_role: 'viewer',
    });
    expect([refused.code, refused.message]).toEqual([
      'ROLE_FORBIDDEN',
      'This action needs the owner role or higher; your role is viewer.',
    ]);
    const settings = await stack.fail(subjects.clients.settings.updateNotifications, {
      accessToken: first.access_token,
      weekly_reports: true,
    });
    expect(settings.code).toBe('ROLE_FORBIDDEN');
    await eventually(
      () => changes.received.length,
      (n) => n === 1,
    );
    changes.stop();
    expect(changes.received[0]).toMatchObject({ user_id: first.user.id, client_id: client.id, member_role: 'viewer' });

    // The second owner is now the last one: they can neither leave nor step down.
    const leave = await stack.fail(subjects.clients.team.removeMember, {
      clientId: client.id,
      actorId: second.user.id,
      userId: second.user.id,
    });
    expect(leave.code).toBe('LAST_OWNER');
    // Removing the first signs them out everywhere.
    const revoked = stack.events(subjects.auth.sessionRevoked);
    await stack.call(subjects.clients.team.removeMember, {
      clientId: client.id,
      actorId: second.user.id,
      userId: first.user.id,
    });
    await eventually(
      () => revoked.received.length,
      (n) => n >= 1,
    );
    revoked.stop();
    expect(revoked.received[0]).toMatchObject({ user_id: first.user.id, reason: 'removed_from_team' });
    expect(
      (await stack.fail(subjects.clients.team.resolveMember, { clientId: client.id, userId: first.user.id })).code,
    ).toBe('UNAUTHENTICATED');
    expect(
      (await stack.fail(subjects.auth.token, { grant_type: 'refresh_token', refresh_token: first.refresh_token })).code,
    ).toBe('UNAUTHENTICATED');
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
      await db.query(
        `INSERT INTO users (email, client_id) VALUES ('had-a-client@example.com', $1), ('no-client@example.com', NULL)`,
        [rows[0]!.id],
      );
      await runMigrations({ databaseUrl: DATABASE_URL, schema, migrations, role: null });
      const users = await db.query(`SELECT email, member_role FROM users ORDER BY email`);
      expect(users.rows).toEqual([
        { email: 'had-a-client@example.com', member_role: 'owner' },
        { email: 'no-client@example.com', member_role: null },
      ]);
      // A user with a client always has a role in it.
      await expect(
        db.query(`UPDATE users SET member_role = NULL WHERE email = 'had-a-client@example.com'`),
      ).rejects.toThrow(/users_member_role_with_client/);
    } finally {
      await db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await db.end();
    }
  });
});
