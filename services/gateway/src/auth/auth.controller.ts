import { Controller, Delete, Get, HttpCode, Post, Put, Query, Res } from '@nestjs/common';
import { RpcClient } from '@vigil/platform';
import { contracts, type JwksReply, type ParsedRequestOf } from '@vigil/proto';
import type { Response } from 'express';
import { AccessToken, OptionalAccessToken, ZodRequest } from '../http/route-params.js';
import { DevelopmentOnly } from '../openapi/development-only.js';

const on = contracts.auth;
const team = contracts.clients.team;
type RequestFor<K extends keyof typeof on> = ParsedRequestOf<(typeof on)[K]>;

/**
 * /auth/v1/*: the sign-in, session, MFA and Google endpoints the web apps use.
 * Each route parses its input with the contract's request schema and forwards it to the auth
 * service, which owns every decision (including who the bearer token belongs to).
 */
@Controller('auth/v1')
export class AuthController {
  constructor(private readonly rpc: RpcClient) {}

  @Post('signup')
  @HttpCode(200)
  signup(@ZodRequest(on.signup.request, 'sign-up request', { caller: true }) request: RequestFor<'signup'>) {
    return this.rpc.request(on.signup, request);
  }

  /** grant_type=password ({email, password, remember_me?}) or grant_type=refresh_token ({refresh_token}). */
  @Post('token')
  @HttpCode(200)
  token(
    @ZodRequest(on.token.request, 'token request', { caller: true, query: { grant_type: 'grant_type' } })
    request: RequestFor<'token'>,
    @Res({ passthrough: true }) res: Response,
  ) {
    res.setHeader('cache-control', 'no-store');
    return this.rpc.request(on.token, request);
  }

  @Post('logout')
  @HttpCode(200)
  logout(
    @ZodRequest(on.logout.request, 'message', { body: false, accessToken: true, query: { scope: 'scope' } })
    request: RequestFor<'logout'>,
  ) {
    return this.rpc.request(on.logout, request);
  }

  @Post('recover')
  @HttpCode(200)
  recover(@ZodRequest(on.recover.request, 'message', { caller: true }) request: RequestFor<'recover'>) {
    return this.rpc.request(on.recover, request);
  }

  /** {type: 'signup', email}: a new confirmation link; one answer for every address (no account enumeration). */
  @Post('resend')
  @HttpCode(200)
  resend(@ZodRequest(on.resend.request, 'message', { caller: true }) request: RequestFor<'resend'>) {
    return this.rpc.request(on.resend, request);
  }

  /** {type: 'signup', token} answers a Session; {type: 'recovery', token, password} sets the new password; {type: 'unlock', token} lifts a sign-in lock. */
  @Post('verify')
  @HttpCode(200)
  verify(@ZodRequest(on.verify.request, 'message', { caller: true }) request: RequestFor<'verify'>) {
    return this.rpc.request(on.verify, request);
  }

  @Get('user')
  user(@AccessToken() accessToken: string) {
    return this.rpc.request(on.getUser, { accessToken });
  }

  @Put('user')
  updateUser(@ZodRequest(on.updateUser.request, 'message', { accessToken: true }) request: RequestFor<'updateUser'>) {
    return this.rpc.request(on.updateUser, request);
  }

  @Get('sessions')
  sessions(@AccessToken() accessToken: string) {
    return this.rpc.request(on.listSessions, { accessToken });
  }

  @Delete('sessions/:id')
  revokeSession(
    @ZodRequest(on.revokeSession.request, 'message', { body: false, accessToken: true, params: { session_id: 'id' } })
    request: RequestFor<'revokeSession'>,
  ) {
    return this.rpc.request(on.revokeSession, request);
  }

  @Delete('user/identities/:id')
  unlinkIdentity(
    @ZodRequest(on.unlinkIdentity.request, 'message', { body: false, accessToken: true, params: { identity_id: 'id' } })
    request: RequestFor<'unlinkIdentity'>,
  ) {
    return this.rpc.request(on.unlinkIdentity, request);
  }

  @Post('factors')
  @HttpCode(200)
  enroll(
    @ZodRequest(on.enrollFactor.request, 'message', { accessToken: true }) request: RequestFor<'enrollFactor'>,
    @Res({ passthrough: true }) res: Response,
  ) {
    res.setHeader('cache-control', 'no-store');
    return this.rpc.request(on.enrollFactor, request);
  }

  @Post('factors/:id/challenge')
  @HttpCode(200)
  challenge(
    @ZodRequest(on.challengeFactor.request, 'message', { body: false, accessToken: true, params: { factor_id: 'id' } })
    request: RequestFor<'challengeFactor'>,
  ) {
    return this.rpc.request(on.challengeFactor, request);
  }

  @Post('factors/:id/verify')
  @HttpCode(200)
  verifyFactor(
    @ZodRequest(on.verifyFactor.request, 'message', { accessToken: true, params: { factor_id: 'id' }, caller: true })
    request: RequestFor<'verifyFactor'>,
    @Res({ passthrough: true }) res: Response,
  ) {
    res.setHeader('cache-control', 'no-store');
    return this.rpc.request(on.verifyFactor, request);
  }

  @Delete('factors/:id')
  unenroll(
    @ZodRequest(on.unenrollFactor.request, 'message', { body: false, accessToken: true, params: { factor_id: 'id' } })
    request: RequestFor<'unenrollFactor'>,
  ) {
    return this.rpc.request(on.unenrollFactor, request);
  }

  /** Starts "Continue with Google": 302 to the provider, or {url} with ?redirect=false for script callers. */
  @Get('authorize')
  async authorize(
    @ZodRequest(on.oidcStart.request, 'message', {
      body: false,
      caller: true,
      query: { provider: 'provider', remember_me: 'remember_me' },
    })
    request: RequestFor<'oidcStart'>,
    @Res() res: Response,
    @Query('redirect') redirect?: string,
  ) {
    const { url } = await this.rpc.request(on.oidcStart, request);
    if (redirect === 'false') res.json({ url });
    else res.redirect(302, url);
  }

  /** A signed-in user links Google: answers {url} to send the browser to; the callback then links instead of signing in. */
  @Get('user/identities/authorize')
  linkIdentity(
    @ZodRequest(on.oidcStart.request, 'message', {
      body: false,
      accessToken: true,
      caller: true,
      query: { provider: 'provider' },
    })
    request: RequestFor<'oidcStart'>,
  ) {
    return this.rpc.request(on.oidcStart, request);
  }

  /** The web app's /auth/callback posts the provider's query here ({code, state, iss?}) and gets a Session. */
  @Post('callback')
  @HttpCode(200)
  callback(@ZodRequest(on.oidcCallback.request, 'message', { caller: true }) request: RequestFor<'oidcCallback'>) {
    return this.rpc.request(on.oidcCallback, request);
  }

  @Post('invitations')
  @HttpCode(201)
  invite(
    @ZodRequest(on.createInvitation.request, 'message', { accessToken: true }) request: RequestFor<'createInvitation'>,
  ) {
    return this.rpc.request(on.createInvitation, request);
  }

  /** What an invitation link offers (client, role, whether the address has an account), before accepting it. */
  @Post('team-invitations/look-up')
  @HttpCode(200)
  lookUpInvitation(
    @ZodRequest(team.lookUpInvitation.request, 'invitation') request: ParsedRequestOf<typeof team.lookUpInvitation>,
  ) {
    return this.rpc.request(team.lookUpInvitation, request);
  }

  /** {token, full_name, password, confirm_password, accepted_terms}: a new account in the inviting client; answers a Session. */
  @Post('team-invitations/signup')
  @HttpCode(200)
  acceptInvitationSignup(
    @ZodRequest(team.acceptInvitationSignup.request, 'sign-up request', { caller: true })
    request: ParsedRequestOf<typeof team.acceptInvitationSignup>,
    @Res({ passthrough: true }) res: Response,
  ) {
    res.setHeader('cache-control', 'no-store');
    return this.rpc.request(team.acceptInvitationSignup, request);
  }

  /** {token} with the invited address's session (an account without a client): joins; answers the session's new tokens. */
  @Post('team-invitations/accept')
  @HttpCode(200)
  acceptInvitation(
    @ZodRequest(team.acceptInvitation.request, 'invitation', { caller: true, accessToken: true })
    request: ParsedRequestOf<typeof team.acceptInvitation>,
    @Res({ passthrough: true }) res: Response,
  ) {
    res.setHeader('cache-control', 'no-store');
    return this.rpc.request(team.acceptInvitation, request);
  }

  /** Public keys for verifying Vigil access tokens (RS256), for anyone outside NATS. */
  @Get('.well-known/jwks.json')
  async jwks(@Res({ passthrough: true }) res: Response): Promise<Pick<JwksReply, 'keys'>> {
    const { keys } = await this.rpc.request(on.jwks, {});
    res.setHeader('cache-control', 'public, max-age=300');
    return { keys };
  }

  /** Development mailbox: auth answers 404 outside a development stack, and only an administrator reads it there. */
  @Get('dev/mailbox')
  @DevelopmentOnly()
  mailbox(
    @ZodRequest(on.mailbox.request, 'message', { body: false, query: { to: 'to', limit: 'limit' } })
    request: RequestFor<'mailbox'>,
    @OptionalAccessToken() accessToken: string | undefined,
  ) {
    return this.rpc.request(on.mailbox, { ...request, ...(accessToken ? { accessToken } : {}) });
  }
}
