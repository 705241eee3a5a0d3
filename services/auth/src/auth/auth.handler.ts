import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { parseMessage } from '@vigil/platform';
import {
  createInvitationRequestSchema,
  getUserRequestSchema,
  listSessionsRequestSchema,
  logoutRequestSchema,
  recoverRequestSchema,
  revokeSessionRequestSchema,
  signupRequestSchema,
  subjects,
  tokenRequestSchema,
  unlinkIdentityRequestSchema,
  updateUserRequestSchema,
  verifyRequestSchema,
  type InvitationReply,
  type JwksReply,
  type ListSessionsReply,
  type MessageReply,
  type Session,
  type SignupReply,
  type User,
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

  @MessagePattern(subjects.auth.signup)
  signup(@Payload() data: unknown): Promise<SignupReply> {
    return this.auth.signup(parseMessage(signupRequestSchema, data, 'sign-up request'));
  }

  @MessagePattern(subjects.auth.token)
  token(@Payload() data: unknown): Promise<Session> {
    const request = parseMessage(tokenRequestSchema, data, 'token request');
    return request.grant_type === 'password' ? this.auth.signInWithPassword(request) : this.sessions.refresh(request.refresh_token);
  }

  @MessagePattern(subjects.auth.logout)
  async logout(@Payload() data: unknown): Promise<MessageReply> {
    const request = parseMessage(logoutRequestSchema, data);
    await this.sessions.logout(await this.sessions.authenticate(request.accessToken, 'aal1'), request.scope);
    return { message: 'Signed out.' };
  }

  @MessagePattern(subjects.auth.recover)
  recover(@Payload() data: unknown): MessageReply {
    return this.auth.recover(parseMessage(recoverRequestSchema, data).email);
  }

  @MessagePattern(subjects.auth.verify)
  verify(@Payload() data: unknown): Promise<Session | MessageReply> {
    return this.auth.verify(parseMessage(verifyRequestSchema, data));
  }

  @MessagePattern(subjects.auth.getUser)
  async getUser(@Payload() data: unknown): Promise<User> {
    // aal1 on purpose: the web app reads the factors here to know a challenge is due.
    return this.auth.getUser(await this.sessions.authenticate(parseMessage(getUserRequestSchema, data).accessToken, 'aal1'));
  }

  @MessagePattern(subjects.auth.updateUser)
  async updateUser(@Payload() data: unknown): Promise<User> {
    const request = parseMessage(updateUserRequestSchema, data);
    return this.auth.updateUser(await this.sessions.authenticate(request.accessToken), request);
  }

  @MessagePattern(subjects.auth.listSessions)
  async listSessions(@Payload() data: unknown): Promise<ListSessionsReply> {
    const principal = await this.sessions.authenticate(parseMessage(listSessionsRequestSchema, data).accessToken);
    return { sessions: await this.sessions.list(principal) };
  }

  @MessagePattern(subjects.auth.revokeSession)
  async revokeSession(@Payload() data: unknown): Promise<MessageReply> {
    const request = parseMessage(revokeSessionRequestSchema, data);
    await this.sessions.revoke(await this.sessions.authenticate(request.accessToken), request.session_id);
    return { message: 'Session revoked.' };
  }

  @MessagePattern(subjects.auth.unlinkIdentity)
  async unlinkIdentity(@Payload() data: unknown): Promise<User> {
    const request = parseMessage(unlinkIdentityRequestSchema, data);
    return this.auth.unlinkIdentity(await this.sessions.authenticate(request.accessToken), request.identity_id);
  }

  @MessagePattern(subjects.auth.createInvitation)
  async createInvitation(@Payload() data: unknown): Promise<InvitationReply> {
    const request = parseMessage(createInvitationRequestSchema, data);
    const admin = await this.sessions.authenticateAdmin(request.accessToken);
    return this.invitations.create(admin.userId, request.expires_in_hours);
  }

  @MessagePattern(subjects.auth.jwks)
  jwks(): JwksReply {
    return this.tokens.jwks();
  }
}
