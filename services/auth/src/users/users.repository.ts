import { Injectable } from '@nestjs/common';
import type { Factor, Identity, MemberRole, Role, User } from '@vigil/proto';
import { Database, type Queryable } from '@vigil/platform';

export type UserRow = {
  id: string;
  email: string;
  full_name: string | null;
  password_hash: string | null;
  role: Role;
  client_id: string | null;
  /** Stale once the client is deleted (client_id nulled by the foreign key): read it through memberRoleOf. */
  member_role: MemberRole | null;
  email_confirmed_at: Date | null;
  created_at: Date;
  updated_at: Date;
};

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The user's role in their client's team; none without a client. */
export const memberRoleOf = (user: Pick<UserRow, 'client_id' | 'member_role'>): MemberRole | null =>
  user.client_id ? user.member_role : null;

@Injectable()
export class UsersRepository {
  constructor(private readonly db: Database) {}

  async findByEmail(email: string, q: Queryable = this.db): Promise<UserRow | undefined> {
    const rows: UserRow[] = await q.query(`SELECT * FROM users WHERE email = $1`, [email]);
    return rows[0];
  }

  async findById(id: string, q: Queryable = this.db): Promise<UserRow | undefined> {
    const rows: UserRow[] = await q.query(`SELECT * FROM users WHERE id = $1`, [id]);
    return rows[0];
  }

  /** Inserts a user; undefined when the email is taken (the unique index decides, not a prior read). */
  async create(
    user: { email: string; fullName: string | null; passwordHash: string | null; role: Role; confirmed: boolean; clientId?: string | null; memberRole?: MemberRole },
    q: Queryable = this.db,
  ): Promise<UserRow | undefined> {
    const rows: UserRow[] = await q.query(
      `INSERT INTO users (email, full_name, password_hash, role, client_id, member_role, member_since, email_confirmed_at)
       VALUES ($1, $2, $3, $4, $5, CASE WHEN $5::uuid IS NOT NULL THEN coalesce($7, 'owner') END,
               CASE WHEN $5::uuid IS NOT NULL THEN now() END, CASE WHEN $6 THEN now() END)
       ON CONFLICT (email) DO NOTHING RETURNING *`,
      [user.email, user.fullName, user.passwordHash, user.role, user.clientId ?? null, user.confirmed, user.memberRole ?? null],
    );
    return rows[0];
  }

  async confirmEmail(userId: string, q: Queryable = this.db): Promise<void> {
    await q.query(`UPDATE users SET email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now() WHERE id = $1`, [userId]);
  }

  async setPassword(userId: string, passwordHash: string, q: Queryable = this.db): Promise<void> {
    await q.query(`UPDATE users SET password_hash = $2, updated_at = now() WHERE id = $1`, [userId, passwordHash]);
  }

  async setFullName(userId: string, fullName: string): Promise<void> {
    await this.db.query(`UPDATE users SET full_name = $2, updated_at = now() WHERE id = $1`, [userId, fullName]);
  }

  /** The user whose checkout made (or found) the client: they own it. */
  async setClient(userId: string, clientId: string, q: Queryable = this.db): Promise<void> {
    await q.query(`UPDATE users SET client_id = $2, member_role = 'owner',
       member_since = CASE WHEN client_id IS DISTINCT FROM $2 THEN now() ELSE member_since END, updated_at = now() WHERE id = $1`, [userId, clientId]);
  }

  /** A client created for a contact email is owned by the account with that email, if it has no client yet. */
  async attachByEmail(email: string, clientId: string, q: Queryable = this.db): Promise<void> {
    await q.query(`UPDATE users SET client_id = $2, member_role = 'owner', member_since = now(), updated_at = now() WHERE email = $1 AND client_id IS NULL`, [
      email,
      clientId,
    ]);
  }

  async findIdentity(provider: string, subject: string): Promise<{ id: string; user_id: string } | undefined> {
    const rows: { id: string; user_id: string }[] = await this.db.query(`SELECT id, user_id FROM identities WHERE provider = $1 AND subject = $2`, [
      provider,
      subject,
    ]);
    return rows[0];
  }

  async addIdentity(userId: string, provider: string, subject: string, email: string | null, q: Queryable = this.db): Promise<void> {
    await q.query(
      `INSERT INTO identities (user_id, provider, subject, email, last_sign_in_at) VALUES ($1, $2, $3, $4, now())
       ON CONFLICT (provider, subject) DO UPDATE SET last_sign_in_at = now()`,
      [userId, provider, subject, email],
    );
  }

  async touchIdentity(id: string): Promise<void> {
    await this.db.query(`UPDATE identities SET last_sign_in_at = now() WHERE id = $1`, [id]);
  }

  async countIdentities(userId: string): Promise<number> {
    const rows: { n: number }[] = await this.db.query(`SELECT count(*)::int AS n FROM identities WHERE user_id = $1`, [userId]);
    return rows[0]!.n;
  }

  async deleteIdentity(userId: string, identityId: string): Promise<boolean> {
    const rows: unknown[] = await this.db.query(`DELETE FROM identities WHERE id = $1 AND user_id = $2 RETURNING id`, [identityId, userId]);
    return rows.length > 0;
  }

  /** The user as the web app sees it: no hash, with identities and factors. */
  async view(userId: string): Promise<User> {
    const user = await this.findById(userId);
    if (!user) throw new Error(`user ${userId} vanished`);
    const identities: { id: string; provider: Identity['provider']; subject: string; email: string | null; created_at: Date; last_sign_in_at: Date | null }[] =
      await this.db.query(`SELECT id, provider, subject, email, created_at, last_sign_in_at FROM identities WHERE user_id = $1 ORDER BY created_at, id`, [userId]);
    const factors: { id: string; status: Factor['status']; friendly_name: string | null; created_at: Date; updated_at: Date }[] = await this.db.query(
      `SELECT id, status, friendly_name, created_at, updated_at FROM mfa_factors WHERE user_id = $1 ORDER BY created_at, id`,
      [userId],
    );
    return {
      id: user.id,
      email: user.email,
      full_name: user.full_name,
      role: user.role,
      client_id: user.client_id,
      member_role: memberRoleOf(user),
      email_confirmed_at: iso(user.email_confirmed_at),
      created_at: user.created_at.toISOString(),
      updated_at: user.updated_at.toISOString(),
      identities: identities.map((i) => ({
        id: i.id,
        provider: i.provider,
        identity_id: i.subject,
        email: i.email,
        created_at: i.created_at.toISOString(),
        last_sign_in_at: iso(i.last_sign_in_at),
      })),
      factors: factors.map((f) => ({
        id: f.id,
        factor_type: 'totp' as const,
        status: f.status,
        friendly_name: f.friendly_name,
        created_at: f.created_at.toISOString(),
        updated_at: f.updated_at.toISOString(),
      })),
    };
  }
}
