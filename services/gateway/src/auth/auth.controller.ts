import { Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeEndpoint } from '@nestjs/swagger';
import { RpcClient, parseMessage } from '@vigil/platform';
import {
  challengeFactorRequestSchema,
  createInvitationRequestSchema,
  enrollFactorRequestSchema,
  logoutRequestSchema,
  mailboxListRequestSchema,
  oidcCallbackRequestSchema,
  oidcStartRequestSchema,
  recoverRequestSchema,
  revokeSessionRequestSchema,
  signupRequestSchema,
  subjects,
  tokenRequestSchema,
  unenrollFactorRequestSchema,
  unlinkIdentityRequestSchema,
  updateUserRequestSchema,
  verifyFactorRequestSchema,
  verifyRequestSchema,
  type ChallengeReply,
  type EnrollFactorReply,
  type InvitationReply,
  type JwksReply,
  type ListSessionsReply,
  type MailboxListReply,
  type MessageReply,
  type OidcStartReply,
  type Session,
  type SignupReply,
  type User,
  type VerifyFactorReply,
} from '@vigil/proto';
import type { Request, Response } from 'express';
import { bearerToken, bodyOf, callerContext } from './caller.js';

/**
 * /auth/v1/*: the sign-in, session, MFA and Google endpoints the web apps use.
 * Each route validates against the proto schema and forwards to the auth service,
 * which owns every decision (including who the bearer token belongs to).
 */
@Controller('auth/v1')
export class AuthController {
  constructor(private readonly rpc: RpcClient) {}

  @Post('signup')
  @HttpCode(200)
  signup(@Req() req: Request): Promise<SignupReply> {
    return this.rpc.request(subjects.auth.signup, parseMessage(signupRequestSchema, { ...bodyOf(req), ...callerContext(req) }, 'sign-up request'));
  }

  /** grant_type=password ({email, password, remember_me?}) or grant_type=refresh_token ({refresh_token}). */
  @Post('token')
  @HttpCode(200)
  async token(@Req() req: Request, @Query('grant_type') grantType: string | undefined, @Res({ passthrough: true }) res: Response): Promise<Session> {
    const request = parseMessage(tokenRequestSchema, { ...bodyOf(req), grant_type: grantType ?? bodyOf(req).grant_type, ...callerContext(req) }, 'token request');
    res.setHeader('cache-control', 'no-store');
    return this.rpc.request(subjects.auth.token, request);
  }

  @Post('logout')
  @HttpCode(200)
  logout(@Req() req: Request, @Query('scope') scope: string | undefined): Promise<MessageReply> {
    return this.rpc.request(subjects.auth.logout, parseMessage(logoutRequestSchema, { accessToken: bearerToken(req), ...(scope ? { scope } : {}) }));
  }

  @Post('recover')
  @HttpCode(200)
  recover(@Req() req: Request): Promise<MessageReply> {
    return this.rpc.request(subjects.auth.recover, parseMessage(recoverRequestSchema, { ...bodyOf(req), ...callerContext(req) }));
  }

  /** {type: 'signup', token} answers a Session; {type: 'recovery', token, password} sets the new password. */
  @Post('verify')
  @HttpCode(200)
  verify(@Req() req: Request): Promise<Session | MessageReply> {
    return this.rpc.request(subjects.auth.verify, parseMessage(verifyRequestSchema, { ...bodyOf(req), ...callerContext(req) }));
  }

  @Get('user')
  user(@Req() req: Request): Promise<User> {
    return this.rpc.request(subjects.auth.getUser, { accessToken: bearerToken(req) });
  }

  @Put('user')
  updateUser(@Req() req: Request): Promise<User> {
    return this.rpc.request(subjects.auth.updateUser, parseMessage(updateUserRequestSchema, { ...bodyOf(req), accessToken: bearerToken(req) }));
  }

  @Get('sessions')
  sessions(@Req() req: Request): Promise<ListSessionsReply> {
    return this.rpc.request(subjects.auth.listSessions, { accessToken: bearerToken(req) });
  }

  @Delete('sessions/:id')
  revokeSession(@Req() req: Request, @Param('id') id: string): Promise<MessageReply> {
    return this.rpc.request(subjects.auth.revokeSession, parseMessage(revokeSessionRequestSchema, { accessToken: bearerToken(req), session_id: id }));
  }

  @Delete('user/identities/:id')
  unlinkIdentity(@Req() req: Request, @Param('id') id: string): Promise<User> {
    return this.rpc.request(subjects.auth.unlinkIdentity, parseMessage(unlinkIdentityRequestSchema, { accessToken: bearerToken(req), identity_id: id }));
  }

  @Post('factors')
  @HttpCode(200)
  enroll(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<EnrollFactorReply> {
    res.setHeader('cache-control', 'no-store');
    return this.rpc.request(subjects.auth.enrollFactor, parseMessage(enrollFactorRequestSchema, { ...bodyOf(req), accessToken: bearerToken(req) }));
  }

  @Post('factors/:id/challenge')
  @HttpCode(200)
  challenge(@Req() req: Request, @Param('id') id: string): Promise<ChallengeReply> {
    return this.rpc.request(subjects.auth.challengeFactor, parseMessage(challengeFactorRequestSchema, { accessToken: bearerToken(req), factor_id: id }));
  }

  @Post('factors/:id/verify')
  @HttpCode(200)
  verifyFactor(@Req() req: Request, @Param('id') id: string, @Res({ passthrough: true }) res: Response): Promise<VerifyFactorReply> {
    res.setHeader('cache-control', 'no-store');
    return this.rpc.request(
      subjects.auth.verifyFactor,
      parseMessage(verifyFactorRequestSchema, { ...bodyOf(req), accessToken: bearerToken(req), factor_id: id, ...callerContext(req) }),
    );
  }

  @Delete('factors/:id')
  unenroll(@Req() req: Request, @Param('id') id: string): Promise<User> {
    return this.rpc.request(subjects.auth.unenrollFactor, parseMessage(unenrollFactorRequestSchema, { accessToken: bearerToken(req), factor_id: id }));
  }

  /** Starts "Continue with Google": 302 to the provider, or {url} with ?redirect=false for script callers. */
  @Get('authorize')
  async authorize(@Req() req: Request, @Res() res: Response, @Query('provider') provider: string, @Query('remember_me') rememberMe?: string, @Query('redirect') redirect?: string) {
    const request = parseMessage(oidcStartRequestSchema, { provider, remember_me: rememberMe === 'true', ...callerContext(req) });
    const { url } = await this.rpc.request<OidcStartReply>(subjects.auth.oidcStart, request);
    if (redirect === 'false') res.json({ url });
    else res.redirect(302, url);
  }

  /** A signed-in user links Google: answers {url} to send the browser to; the callback then links instead of signing in. */
  @Get('user/identities/authorize')
  linkIdentity(@Req() req: Request, @Query('provider') provider: string): Promise<OidcStartReply> {
    return this.rpc.request(subjects.auth.oidcStart, parseMessage(oidcStartRequestSchema, { provider, accessToken: bearerToken(req), ...callerContext(req) }));
  }

  /** The web app's /auth/callback posts the provider's query here ({code, state, iss?}) and gets a Session. */
  @Post('callback')
  @HttpCode(200)
  callback(@Req() req: Request): Promise<Session> {
    return this.rpc.request(subjects.auth.oidcCallback, parseMessage(oidcCallbackRequestSchema, { ...bodyOf(req), ...callerContext(req) }));
  }

  @Post('invitations')
  @HttpCode(201)
  invite(@Req() req: Request): Promise<InvitationReply> {
    return this.rpc.request(subjects.auth.createInvitation, parseMessage(createInvitationRequestSchema, { ...bodyOf(req), accessToken: bearerToken(req) }));
  }

  /** Public keys for verifying Vigil access tokens (RS256), for anyone outside NATS. */
  @Get('.well-known/jwks.json')
  async jwks(@Res({ passthrough: true }) res: Response): Promise<Pick<JwksReply, 'keys'>> {
    const { keys } = await this.rpc.request<JwksReply>(subjects.auth.jwks, {});
    res.setHeader('cache-control', 'public, max-age=300');
    return { keys };
  }

  /** Development mailbox: auth answers 404 outside a development stack, and only an administrator reads it there. */
  @ApiExcludeEndpoint()
  @Get('dev/mailbox')
  mailbox(@Req() req: Request, @Query('to') to?: string, @Query('limit') limit?: string): Promise<MailboxListReply> {
    const accessToken = req.header('authorization') ? { accessToken: bearerToken(req) } : {};
    return this.rpc.request(subjects.auth.mailbox, parseMessage(mailboxListRequestSchema, { ...accessToken, ...(to ? { to } : {}), ...(limit ? { limit: Number(limit) } : {}) }));
  }
}
