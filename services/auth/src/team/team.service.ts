import { Inject, Injectable } from '@nestjs/common';
import { Database, DomainError } from '@vigil/platform';
import {
  memberRoleAtLeast,
  type AcceptInvitationRequest,
  type AcceptInvitationSignupRequest,
  type ChangeMemberRoleRequest,
  type InvitationPreview,
  type InviteMemberRequest,
  type MemberRole,
  type ResolvedMember,
  type Session,
  type TeamInvitation,
  type TeamMember,
} from '@vigil/proto';
import { ClientsService } from '../clients/clients.service.js';
import { PasswordHasher } from '../crypto/password-hasher.js';
import { randomToken, sha256 } from '../crypto/secrets.js';
import { AUTH_CONFIG, type AuthConfig } from '../env.js';
import { EventsPublisher } from '../events/events.publisher.js';
import { teamInvitationMail } from '../mail/mail.templates.js';
import { Mailer } from '../mail/mailer.service.js';
import { SessionsService } from '../sessions/sessions.service.js';
import { UsersRepository } from '../users/users.repository.js';
import { TeamRepository } from './team.repository.js';

type Actor = { clientId: string; actorId: string };

const invalidLink = () =>
  new DomainError(
    'INVALID_LINK',
    'This invitation link is invalid or has expired. Ask the person who invited you for a new one.',
  );

/**
 * A client's team. The gateway has checked the role the caller's token names; every request is
 * checked again here against the live membership, so a role taken away a moment ago no longer works.
 */
@Injectable()
export class TeamService {
  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    private readonly db: Database,
    private readonly team: TeamRepository,
    private readonly users: UsersRepository,
    private readonly sessions: SessionsService,
    private readonly passwords: PasswordHasher,
    private readonly mailer: Mailer,
    private readonly events: EventsPublisher,
    private readonly clients: ClientsService,
  ) {}

  /** For the gateway's session routes: the client as resolve-client answers it, if the user is still its member. */
  async resolveMember(clientId: string, userId: string): Promise<ResolvedMember> {
    const memberRole = await this.team.roleOf(clientId, userId);
    if (!memberRole)
      throw new DomainError('UNAUTHENTICATED', 'Your membership of this client has ended; sign in again.');
    return { ...(await this.clients.resolveClient(clientId)), memberRole };
  }

  async members(actor: Actor): Promise<TeamMember[]> {
    await this.require(actor, 'viewer');
    return this.team.members(actor.clientId);
  }

  async invitations(actor: Actor): Promise<TeamInvitation[]> {
    await this.require(actor, 'owner');
    return this.team.openInvitations(actor.clientId);
  }

  async invite(request: InviteMemberRequest): Promise<TeamInvitation> {
    await this.require(request, 'owner');
    const existing = await this.users.findByEmail(request.email);
    if (existing?.client_id === request.clientId) {
      throw new DomainError('CONFLICT', `${request.email} is already a member of your team.`);
    }
    const token = randomToken();
    const invitation = await this.team.invite({
      clientId: request.clientId,
      email: request.email,
      role: request.member_role,
      tokenHash: sha256(token),
      invitedBy: request.actorId,
      expiresAt: new Date(Date.now() + this.config.INVITATION_TTL_HOURS * 3_600_000),
    });
    const preview = await this.team.findOpen(sha256(token));
    await this.mailer.send(
      teamInvitationMail(request.email, {
        clientName: preview!.client_name,
        invitedBy: invitation.invited_by_email,
        role: invitation.member_role,
        link: `${this.config.WEB_URL}/invitation?token=${token}`,
        expiresInHours: this.config.INVITATION_TTL_HOURS,
      }),
    );
    return invitation;
  }

  async revokeInvitation(actor: Actor, invitationId: string): Promise<void> {
    await this.require(actor, 'owner');
    if (!(await this.team.revoke(actor.clientId, invitationId)))
      throw new DomainError('NOT_FOUND', 'No such open invitation.');
  }

  async changeRole(request: ChangeMemberRoleRequest): Promise<TeamMember> {
    await this.require(request, 'owner');
    const changed = await this.db.transaction(async (tx) => {
      const owners = await this.team.lockOwners(request.clientId, tx);
      const target = await this.team.member(request.clientId, request.userId, tx);
      if (!target) throw new DomainError('NOT_FOUND', 'No such member.');
      if (target.member_role === 'owner' && request.member_role !== 'owner' && owners.length === 1) {
        throw new DomainError('LAST_OWNER', 'Your team needs at least one owner: make someone else an owner first.');
      }
      await this.team.setRole(request.clientId, request.userId, request.member_role, tx);
      const after = (await this.team.member(request.clientId, request.userId, tx))!;
      return { ...after, previous_role: target.member_role };
    });
    await this.events.clientChanged({
      change: 'member.role_changed',
      clientId: request.clientId,
      actorId: request.actorId,
      actorEmail: null,
      details: {
        member_id: changed.user_id,
        member_email: changed.email,
        from: changed.previous_role,
        to: changed.member_role,
      },
    });
    const { previous_role: _previous, ...member } = changed;
    await this.events.memberChanged({
      user_id: changed.user_id,
      client_id: request.clientId,
      member_role: changed.member_role,
      changed_at: new Date().toISOString(),
    });
    return member;
  }

  /** The member leaves the client, and every session they have ends now. */
  async remove(actor: Actor, userId: string): Promise<void> {
    await this.require(actor, 'owner');
    const removed = await this.db.transaction(async (tx) => {
      const owners = await this.team.lockOwners(actor.clientId, tx);
      const target = await this.team.member(actor.clientId, userId, tx);
      if (!target) throw new DomainError('NOT_FOUND', 'No such member.');
      if (target.member_role === 'owner' && owners.length === 1) {
        throw new DomainError('LAST_OWNER', 'Your team needs at least one owner: make someone else an owner first.');
      }
      await this.team.remove(actor.clientId, userId, tx);
      return target;
    });
    await this.events.clientChanged({
      change: 'member.removed',
      clientId: actor.clientId,
      actorId: actor.actorId,
      actorEmail: null,
      details: { member_id: userId, member_email: removed.email, role: removed.member_role },
    });
    await this.events.memberChanged({
      user_id: userId,
      client_id: null,
      member_role: null,
      changed_at: new Date().toISOString(),
    });
    await this.sessions.revokeAllForUser(userId, 'removed_from_team');
  }

  async lookUp(token: string): Promise<InvitationPreview> {
    const invitation = await this.team.findOpen(sha256(token));
    if (!invitation) throw invalidLink();
    return {
      email: invitation.email,
      client_name: invitation.client_name,
      member_role: invitation.member_role,
      invited_by_email: invitation.invited_by_email,
      expires_at: invitation.expires_at.toISOString(),
      has_account: (await this.users.findByEmail(invitation.email)) !== undefined,
    };
  }

  /** A new account for the invited address, in the client from the start; the link proved the address. */
  async acceptWithSignup(request: AcceptInvitationSignupRequest): Promise<Session> {
    if (this.passwords.isCommon(request.password)) {
      const detail = 'This password is too common. Please choose a different one.';
      throw new DomainError('VALIDATION_FAILED', detail, [{ pointer: '/password', detail }]);
    }
    const passwordHash = await this.passwords.hash(request.password);
    const joined = await this.db.transaction(async (tx) => {
      const invitation = await this.team.consume(sha256(request.token), null, tx);
      if (!invitation) throw invalidLink();
      const created = await this.users.create(
        {
          email: invitation.email,
          fullName: request.full_name,
          passwordHash,
          role: 'user',
          confirmed: true,
          clientId: invitation.client_id,
          memberRole: invitation.member_role,
        },
        tx,
      );
      // Rolled back with the invitation, which stays usable by signing in.
      if (!created)
        throw new DomainError(
          'CONFLICT',
          'An account with this email already exists. Sign in to accept the invitation.',
        );
      await this.team.setAcceptedBy(invitation.id, created.id, tx);
      await this.users.addIdentity(created.id, 'email', created.id, created.email, tx);
      return { created, invitation };
    });
    await this.events.clientChanged({
      change: 'member.added',
      clientId: joined.invitation.client_id,
      actorId: joined.created.id,
      actorEmail: joined.created.email,
      details: {
        member_id: joined.created.id,
        member_email: joined.created.email,
        role: joined.invitation.member_role,
      },
    });
    return this.sessions.start(joined.created, {
      amr: ['password'],
      rememberMe: false,
      ip: request.ip,
      userAgent: request.userAgent,
    });
  }

  /** A signed-in account without a client joins; its session goes on with tokens that name the client. */
  async accept(request: AcceptInvitationRequest): Promise<Session> {
    const principal = await this.sessions.authenticate(request.accessToken);
    const joined = await this.db.transaction(async (tx) => {
      const invitation = await this.team.consume(sha256(request.token), principal.userId, tx);
      if (!invitation) throw invalidLink();
      if (invitation.email !== principal.email) {
        throw new DomainError(
          'FORBIDDEN',
          `This invitation was sent to ${invitation.email}. Sign in with that address to accept it.`,
        );
      }
      if (
        !(await this.team.join(principal.userId, principal.email, invitation.client_id, invitation.member_role, tx))
      ) {
        throw new DomainError('CONFLICT', 'This account already belongs to a client, so it cannot join another one.');
      }
      return invitation;
    });
    await this.events.clientChanged({
      change: 'member.added',
      clientId: joined.client_id,
      actorId: principal.userId,
      actorEmail: principal.email,
      details: { member_id: principal.userId, member_email: principal.email, role: joined.member_role },
    });
    return this.sessions.reissue(principal.sessionId);
  }

  private async require(actor: Actor, minimum: MemberRole): Promise<void> {
    const role = await this.team.roleOf(actor.clientId, actor.actorId);
    if (!memberRoleAtLeast(role, minimum)) {
      const held = role ? `your role is ${role}` : 'you are no longer a member of this client';
      throw new DomainError('ROLE_FORBIDDEN', `This action needs the ${minimum} role or higher; ${held}.`);
    }
  }
}
