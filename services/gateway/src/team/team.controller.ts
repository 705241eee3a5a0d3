import { Controller, Delete, Get, HttpCode, Patch, Post } from '@nestjs/common';
import { RpcClient } from '@vigil/platform';
import { contracts, type ParsedRequestOf } from '@vigil/proto';
import { Credentials, RequiresMemberRole } from '../credentials/credentials.js';
import { ZodRequest } from '../http/route-params.js';
import { Answers } from '../http/answers.js';

const on = contracts.clients.team;

/**
 * /api/team: the members of the caller's client and the invitations its owners sent. The client
 * and the acting user come from the verified session, never from the request; auth checks the
 * actor's live role again, so a role taken away a moment ago no longer works.
 */
@Controller('api/team')
@Credentials('dashboard')
export class TeamController {
  constructor(private readonly rpc: RpcClient) {}

  /** Every member sees who is on the team. */
  @Get('members')
  @Answers(on.listMembers, { summary: 'Team members' })
  members(
    @ZodRequest(on.listMembers.request, 'request', { body: false, client: true, actor: true })
    request: ParsedRequestOf<typeof on.listMembers>,
  ) {
    return this.rpc.request(on.listMembers, request);
  }

  /** Body {member_role}. The last owner cannot be demoted (409 LAST_OWNER). */
  @Patch('members/:userId')
  @Answers(on.changeRole, { summary: "Change a member's role" })
  @RequiresMemberRole('owner')
  changeRole(
    @ZodRequest(on.changeRole.request, 'member', { client: true, actor: true, params: { userId: 'userId' } })
    request: ParsedRequestOf<typeof on.changeRole>,
  ) {
    return this.rpc.request(on.changeRole, request);
  }

  /** The member leaves the client and is signed out everywhere; the last owner cannot be removed (409 LAST_OWNER). */
  @Delete('members/:userId')
  @Answers(on.removeMember, { summary: 'Remove a member' })
  @RequiresMemberRole('owner')
  remove(
    @ZodRequest(on.removeMember.request, 'request', {
      body: false,
      client: true,
      actor: true,
      params: { userId: 'userId' },
    })
    request: ParsedRequestOf<typeof on.removeMember>,
  ) {
    return this.rpc.request(on.removeMember, request);
  }

  /** Open invitations: neither accepted, revoked nor expired. */
  @Get('invitations')
  @Answers(on.listInvitations, { summary: 'Pending invitations' })
  @RequiresMemberRole('owner')
  invitations(
    @ZodRequest(on.listInvitations.request, 'request', { body: false, client: true, actor: true })
    request: ParsedRequestOf<typeof on.listInvitations>,
  ) {
    return this.rpc.request(on.listInvitations, request);
  }

  /** Body {email, member_role}: mails a single-use link; a new invitation to the same address replaces the open one. */
  @Post('invitations')
  @Answers(on.invite, { status: 201, summary: 'Invite a member' })
  @HttpCode(201)
  @RequiresMemberRole('owner')
  invite(
    @ZodRequest(on.invite.request, 'invitation', { client: true, actor: true })
    request: ParsedRequestOf<typeof on.invite>,
  ) {
    return this.rpc.request(on.invite, request);
  }

  @Delete('invitations/:invitationId')
  @Answers(on.revokeInvitation, { summary: 'Revoke an invitation' })
  @RequiresMemberRole('owner')
  revokeInvitation(
    @ZodRequest(on.revokeInvitation.request, 'request', {
      body: false,
      client: true,
      actor: true,
      params: { invitationId: 'invitationId' },
    })
    request: ParsedRequestOf<typeof on.revokeInvitation>,
  ) {
    return this.rpc.request(on.revokeInvitation, request);
  }
}
