import { Injectable } from '@nestjs/common';
import type { MemberRole, TeamInvitation, TeamMember } from '@vigil/proto';
import { Database, type Queryable } from '@vigil/platform';

export type InvitationRow = {
  id: string;
  client_id: string;
  client_name: string;
  email: string;
  member_role: MemberRole;
  invited_by_email: string | null;
  created_at: Date;
  expires_at: Date;
};

type MemberRow = {
  id: string;
  email: string;
  full_name: string | null;
  member_role: MemberRole;
  member_since: Date | null;
  created_at: Date;
};

const member = (row: MemberRow): TeamMember => ({
  user_id: row.id,
  email: row.email,
  full_name: row.full_name,
  member_role: row.member_role,
  member_since: (row.member_since ?? row.created_at).toISOString(),
});

const invitation = (row: InvitationRow): TeamInvitation => ({
  id: row.id,
  email: row.email,
  member_role: row.member_role,
  invited_by_email: row.invited_by_email,
  created_at: row.created_at.toISOString(),
  expires_at: row.expires_at.toISOString(),
});

/** An invitation that is neither accepted, revoked nor expired. */
const OPEN = `i.accepted_at IS NULL AND i.revoked_at IS NULL AND i.expires_at > now()`;

const INVITATION_COLUMNS = `i.id, i.client_id, c.client_name, i.email, i.member_role, inviter.email AS invited_by_email, i.created_at, i.expires_at`;

@Injectable()
export class TeamRepository {
  constructor(private readonly db: Database) {}

  async members(clientId: string): Promise<TeamMember[]> {
    const rows: MemberRow[] = await this.db.query(
      `SELECT id, email, full_name, member_role, member_since, created_at FROM users
        WHERE client_id = $1 ORDER BY member_since NULLS FIRST, created_at, id`,
      [clientId],
    );
    return rows.map(member);
  }

  async member(clientId: string, userId: string, q: Queryable = this.db): Promise<TeamMember | undefined> {
    const rows: MemberRow[] = await q.query(
      `SELECT id, email, full_name, member_role, member_since, created_at FROM users WHERE client_id = $1 AND id = $2`,
      [clientId, userId],
    );
    return rows[0] && member(rows[0]);
  }

  /** The actor's live role in the client (not the one their token was issued with). */
  async roleOf(clientId: string, userId: string): Promise<MemberRole | undefined> {
    const rows: { member_role: MemberRole }[] = await this.db.query(
      `SELECT member_role FROM users WHERE client_id = $1 AND id = $2`,
      [clientId, userId],
    );
    return rows[0]?.member_role;
  }

  /**
   * Locks the client's owners for the rest of the transaction, so two owners demoting or removing
   * each other at once cannot leave the client with none.
   */
  async lockOwners(clientId: string, q: Queryable): Promise<string[]> {
    const rows: { id: string }[] = await q.query(
      `SELECT id FROM users WHERE client_id = $1 AND member_role = 'owner' FOR UPDATE`,
      [clientId],
    );
    return rows.map((r) => r.id);
  }

  async setRole(clientId: string, userId: string, role: MemberRole, q: Queryable): Promise<boolean> {
    const rows: unknown[] = await q.query(
      `UPDATE users SET member_role = $3, updated_at = now() WHERE client_id = $1 AND id = $2 RETURNING id`,
      [clientId, userId, role],
    );
    return rows.length > 0;
  }

  async remove(clientId: string, userId: string, q: Queryable): Promise<boolean> {
    const rows: unknown[] = await q.query(
      `UPDATE users SET client_id = NULL, member_role = NULL, member_since = NULL, updated_at = now()
        WHERE client_id = $1 AND id = $2 RETURNING id`,
      [clientId, userId],
    );
    return rows.length > 0;
  }

  /** Joins a user who has no client yet, and only if the address is theirs. */
  async join(userId: string, email: string, clientId: string, role: MemberRole, q: Queryable): Promise<boolean> {
    const rows: unknown[] = await q.query(
      `UPDATE users SET client_id = $3, member_role = $4, member_since = now(), updated_at = now()
        WHERE id = $1 AND email = $2 AND client_id IS NULL RETURNING id`,
      [userId, email, clientId, role],
    );
    return rows.length > 0;
  }

  async openInvitations(clientId: string): Promise<TeamInvitation[]> {
    const rows: InvitationRow[] = await this.db.query(
      `SELECT ${INVITATION_COLUMNS} FROM team_invitations i JOIN clients c ON c.id = i.client_id
         LEFT JOIN users inviter ON inviter.id = i.invited_by
        WHERE i.client_id = $1 AND ${OPEN} ORDER BY i.created_at DESC, i.id`,
      [clientId],
    );
    return rows.map(invitation);
  }

  /** A new invitation; an open one to the same address is revoked first (its link stops working). */
  async invite(invite: {
    clientId: string;
    email: string;
    role: MemberRole;
    tokenHash: string;
    invitedBy: string;
    expiresAt: Date;
  }): Promise<TeamInvitation> {
    return this.db.transaction(async (tx) => {
      await tx.query(
        `UPDATE team_invitations SET revoked_at = now() WHERE client_id = $1 AND email = $2 AND accepted_at IS NULL AND revoked_at IS NULL`,
        [invite.clientId, invite.email],
      );
      const rows: { id: string }[] = await tx.query(
        `INSERT INTO team_invitations (client_id, email, member_role, token_hash, invited_by, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
        [invite.clientId, invite.email, invite.role, invite.tokenHash, invite.invitedBy, invite.expiresAt],
      );
      const found: InvitationRow[] = await tx.query(
        `SELECT ${INVITATION_COLUMNS} FROM team_invitations i JOIN clients c ON c.id = i.client_id
           LEFT JOIN users inviter ON inviter.id = i.invited_by WHERE i.id = $1`,
        [rows[0]!.id],
      );
      return invitation(found[0]!);
    });
  }

  async revoke(clientId: string, invitationId: string): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      `UPDATE team_invitations i SET revoked_at = now() WHERE i.client_id = $1 AND i.id = $2 AND ${OPEN} RETURNING i.id`,
      [clientId, invitationId],
    );
    return rows.length > 0;
  }

  async findOpen(tokenHash: string): Promise<InvitationRow | undefined> {
    const rows: InvitationRow[] = await this.db.query(
      `SELECT ${INVITATION_COLUMNS} FROM team_invitations i JOIN clients c ON c.id = i.client_id
         LEFT JOIN users inviter ON inviter.id = i.invited_by
        WHERE i.token_hash = $1 AND ${OPEN}`,
      [tokenHash],
    );
    return rows[0];
  }

  /** Uses the invitation up, atomically: of two acceptances of one link, one wins. */
  async consume(tokenHash: string, userId: string | null, q: Queryable): Promise<InvitationRow | undefined> {
    const rows: { id: string }[] = await q.query(
      `UPDATE team_invitations i SET accepted_at = now(), accepted_by = $2 WHERE i.token_hash = $1 AND ${OPEN} RETURNING i.id`,
      [tokenHash, userId],
    );
    if (!rows[0]) return undefined;
    const found: InvitationRow[] = await q.query(
      `SELECT ${INVITATION_COLUMNS} FROM team_invitations i JOIN clients c ON c.id = i.client_id
         LEFT JOIN users inviter ON inviter.id = i.invited_by WHERE i.id = $1`,
      [rows[0].id],
    );
    return found[0];
  }

  async setAcceptedBy(invitationId: string, userId: string, q: Queryable): Promise<void> {
    await q.query(`UPDATE team_invitations SET accepted_by = $2 WHERE id = $1`, [invitationId, userId]);
  }
}
