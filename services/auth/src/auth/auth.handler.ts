import { Controller } from '@nestjs/common';
import { Handles } from '@vigil/platform';
import {
  type ActiveUsersReply,
  type InvitationReply,
  type JwksReply,
  type ListSessionsReply,
  type MessageReply,
  type Session,
  type SignupReply,
  type User,
  contracts,
  type ParsedRequestOf,
} from '@vigil/proto';
import { InvitationsService } from '../invitations/invitations.service.js';
import { SessionsService } from '../sessions/sessions.service.js';
import { AccessTokens } from '../tokens/access-tokens.service.js';
import { AuthService } from './auth.service.js';

@Controller()
export class AuthHandler {
  constructor(
    private readonly auth: AuthService,
    private readonly sessions: SessionsService,
    private readonly invitations: InvitationsService,
    private readonly tokens: AccessTokens,
  ) {}

  @Handles(contracts.auth.signup, 'sign-up request')
  signup(request: ParsedRequestOf<typeof contracts.auth.signup>): Promise<SignupReply> {
    return this.auth.signup(request);
  }

  @Handles(contracts.auth.token, 'token request')
  token(request: ParsedRequestOf<typeof contracts.auth.token>): Promise<Session> {
    return request.grant_type === 'password'
      ? this.auth.signInWithPassword(request)
      : this.sessions.refresh(request.refresh_token);
  }

  @Handles(contracts.auth.logout)
  async logout(request: ParsedRequestOf<typeof contracts.auth.logout>): Promise<MessageReply> {
    await this.sessions.logout(await this.sessions.authenticate(request.accessToken, 'aal1'), request.scope);
    return { message: 'Signed out.' };
  }

  @Handles(contracts.auth.recover)
  recover(request: ParsedRequestOf<typeof contracts.auth.recover>): MessageReply {
    return this.auth.recover(request.email);
  }

  @Handles(contracts.auth.resend)
  resend(request: ParsedRequestOf<typeof contracts.auth.resend>): Promise<MessageReply> {
    return this.auth.resend(request.email, request.ip);
  }

  @Handles(contracts.auth.verify)
  verify(request: ParsedRequestOf<typeof contracts.auth.verify>): Promise<Session | MessageReply> {
    return this.auth.verify(request);
  }

  @Handles(contracts.auth.getUser)
  async getUser(request: ParsedRequestOf<typeof contracts.auth.getUser>): Promise<User> {
    // aal1 on purpose: the web app reads the factors here to know a challenge is due.
    return this.auth.getUser(await this.sessions.authenticate(request.accessToken, 'aal1'));
  }

  @Handles(contracts.auth.updateUser)
  async updateUser(request: ParsedRequestOf<typeof contracts.auth.updateUser>): Promise<User> {
    return this.auth.updateUser(await this.sessions.authenticate(request.accessToken), request);
  }

  @Handles(contracts.auth.listSessions)
  async listSessions(request: ParsedRequestOf<typeof contracts.auth.listSessions>): Promise<ListSessionsReply> {
    const principal = await this.sessions.authenticate(request.accessToken);
    return { sessions: await this.sessions.list(principal) };
  }

  @Handles(contracts.auth.revokeSession)
  async revokeSession(request: ParsedRequestOf<typeof contracts.auth.revokeSession>): Promise<MessageReply> {
    await this.sessions.revoke(await this.sessions.authenticate(request.accessToken), request.session_id);
    return { message: 'Session revoked.' };
  }

  @Handles(contracts.auth.unlinkIdentity)
  async unlinkIdentity(request: ParsedRequestOf<typeof contracts.auth.unlinkIdentity>): Promise<User> {
    return this.auth.unlinkIdentity(await this.sessions.authenticate(request.accessToken), request.identity_id);
  }

  @Handles(contracts.auth.createInvitation)
  async createInvitation(request: ParsedRequestOf<typeof contracts.auth.createInvitation>): Promise<InvitationReply> {
    const admin = await this.sessions.authenticateAdmin(request.accessToken);
    return this.invitations.create(admin.userId, request.expires_in_hours);
  }

  /** Admin overview figure; the gateway admits admins only. */
  @Handles(contracts.auth.activeUsers)
  async activeUsers(): Promise<ActiveUsersReply> {
    return { activeUsers: await this.sessions.activeUsers() };
  }

  @Handles(contracts.auth.jwks)
  jwks(): JwksReply {
    return this.tokens.jwks();
  }
}
