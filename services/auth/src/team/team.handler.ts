import { Controller } from '@nestjs/common';
import { Handles } from '@vigil/platform';
import {
  contracts,
  type InvitationPreview,
  type MessageReply,
  type ParsedRequestOf,
  type ResolvedMember,
  type Session,
  type TeamInvitation,
  type TeamMember,
} from '@vigil/proto';
import { TeamService } from './team.service.js';

const on = contracts.clients.team;

@Controller()
export class TeamHandler {
  constructor(private readonly team: TeamService) {}

  @Handles(on.listMembers)
  async members(request: ParsedRequestOf<typeof on.listMembers>): Promise<{ members: TeamMember[] }> {
    return { members: await this.team.members(request) };
  }

  @Handles(on.listInvitations)
  async invitations(request: ParsedRequestOf<typeof on.listInvitations>): Promise<{ invitations: TeamInvitation[] }> {
    return { invitations: await this.team.invitations(request) };
  }

  @Handles(on.invite, 'invitation')
  invite(request: ParsedRequestOf<typeof on.invite>): Promise<TeamInvitation> {
    return this.team.invite(request);
  }

  @Handles(on.revokeInvitation)
  async revokeInvitation(request: ParsedRequestOf<typeof on.revokeInvitation>): Promise<MessageReply> {
    await this.team.revokeInvitation(request, request.invitationId);
    return { message: 'Invitation revoked.' };
  }

  @Handles(on.changeRole, 'member')
  changeRole(request: ParsedRequestOf<typeof on.changeRole>): Promise<TeamMember> {
    return this.team.changeRole(request);
  }

  @Handles(on.removeMember)
  async removeMember(request: ParsedRequestOf<typeof on.removeMember>): Promise<MessageReply> {
    await this.team.remove(request, request.userId);
    return { message: 'Member removed.' };
  }

  @Handles(on.resolveMember)
  resolveMember(request: ParsedRequestOf<typeof on.resolveMember>): Promise<ResolvedMember> {
    return this.team.resolveMember(request.clientId, request.userId);
  }

  @Handles(on.lookUpInvitation)
  lookUp(request: ParsedRequestOf<typeof on.lookUpInvitation>): Promise<InvitationPreview> {
    return this.team.lookUp(request.token);
  }

  @Handles(on.acceptInvitation)
  accept(request: ParsedRequestOf<typeof on.acceptInvitation>): Promise<Session> {
    return this.team.accept(request);
  }

  @Handles(on.acceptInvitationSignup, 'sign-up')
  acceptWithSignup(request: ParsedRequestOf<typeof on.acceptInvitationSignup>): Promise<Session> {
    return this.team.acceptWithSignup(request);
  }
}
