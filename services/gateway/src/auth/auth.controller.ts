import { Controller, Delete, Get, HttpCode, Post, Put, Query, Res } from '@nestjs/common';
import { RpcClient } from '@vigil/platform';
import { contracts, type JwksReply, type ParsedRequestOf } from '@vigil/proto';
import type { Response } from 'express';
import { AccessToken, OptionalAccessToken, ZodRequest } from '../http/route-params.js';
import { DevelopmentOnly } from '../openapi/development-only.js';
import { Answers, AnswersEmpty } from '../http/answers.js';

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
  @Answers(on.signup, { summary: 'Create an account' })
  @HttpCode(200)
  signup(@ZodRequest(on.signup.request, 'sign-up request', { caller: true }) request: RequestFor<'signup'>) {
    return this.rpc.request(on.signup, request);
  }

  /** grant_type=password ({email, password, remember_me?}) or grant_type=refresh_token ({refresh_token}). */
  @Post('token')
  @Answers(on.token, { summary: 'Sign in, or refresh a session' })
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
  @Answers(on.logout, { summary: 'Sign out' })
  @HttpCode(200)
  logout(
    @ZodRequest(on.logout.request, 'message', { body: false, accessToken: true, query: { scope: 'scope' } })
    request: RequestFor<'logout'>,
  ) {
    return this.rpc.request(on.logout, request);
  }

  @Post('recover')
  @Answers(on.recover, { summary: 'Send a password reset link' })
  @HttpCode(200)
  recover(@ZodRequest(on.recover.request, 'message', { caller: true }) request: RequestFor<'recover'>) {
    return this.rpc.request(on.recover, request);
  }

  /** {type: 'signup', email}: a new confirmation link; one answer for every address (no account enumeration). */
  @Post('resend')
  @Answers(on.resend, { summary: 'Send a new confirmation link' })
  @HttpCode(200)
  resend(@ZodRequest(on.resend.request, 'message', { caller: true }) request: RequestFor<'resend'>) {
    return this.rpc.request(on.resend, request);
  }

  /** {type: 'signup', token} answers a Session; {type: 'recovery', token, password} sets the new password; {type: 'unlock', token} lifts a sign-in lock. */
  @Post('verify')
  @Answers(on.verify, { summary: 'Confirm an email, reset a password or lift a sign-in lock' })
  @HttpCode(200)
  verify(@ZodRequest(on.verify.request, 'message', { caller: true }) request: RequestFor<'verify'>) {
    return this.rpc.request(on.verify, request);
  }

  @Get('user')
  @Answers(on.getUser, { summary: 'The signed-in user' })
  user(@AccessToken() accessToken: string) {
    return this.rpc.request(on.getUser, { accessToken });
  }

  @Put('user')
  @Answers(on.updateUser, { summary: 'Change the email, password or profile' })
  updateUser(@ZodRequest(on.updateUser.request, 'message', { accessToken: true }) request: RequestFor<'updateUser'>) {
    return this.rpc.request(on.updateUser, request);
  }

  @Get('sessions')
  @Answers(on.listSessions, { summary: "The user's sessions" })
  sessions(@AccessToken() accessToken: string) {
    return this.rpc.request(on.listSessions, { accessToken });
  }

  @Delete('sessions/:id')
  @Answers(on.revokeSession, { summary: 'Revoke a session' })
  revokeSession(
    @ZodRequest(on.revokeSession.request, 'message', { body: false, accessToken: true, params: { session_id: 'id' } })
    request: RequestFor<'revokeSession'>,
  ) {
    return this.rpc.request(on.revokeSession, request);
  }

  @Delete('user/identities/:id')
  @Answers(on.unlinkIdentity, { summary: 'Unlink a Google identity' })
  unlinkIdentity(
    @ZodRequest(on.unlinkIdentity.request, 'message', { body: false, accessToken: true, params: { identity_id: 'id' } })
    request: RequestFor<'unlinkIdentity'>,
  ) {
    return this.rpc.request(on.unlinkIdentity, request);
  }

  @Post('factors')
  @Answers(on.enrollFactor, { summary: 'Enrol a TOTP factor' })
  @HttpCode(200)
  enroll(
    @ZodRequest(on.enrollFactor.request, 'message', { accessToken: true }) request: RequestFor<'enrollFactor'>,
    @Res({ passthrough: true }) res: Response,
  ) {
    res.setHeader('cache-control', 'no-store');
    return this.rpc.request(on.enrollFactor, request);
  }

  @Post('factors/:id/challenge')
  @Answers(on.challengeFactor, { summary: 'Challenge a TOTP factor' })
  @HttpCode(200)
  challenge(
    @ZodRequest(on.challengeFactor.request, 'message', { body: false, accessToken: true, params: { factor_id: 'id' } })
    request: RequestFor<'challengeFactor'>,
  ) {
    return this.rpc.request(on.challengeFactor, request);
  }

  @Post('factors/:id/verify')
  @Answers(on.verifyFactor, { summary: 'Verify a TOTP code' })
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
  @Answers(on.unenrollFactor, { summary: 'Remove a TOTP factor' })
  unenroll(
    @ZodRequest(on.unenrollFactor.request, 'message', { body: false, accessToken: true, params: { factor_id: 'id' } })
    request: RequestFor<'unenrollFactor'>,
  ) {
    return this.rpc.request(on.unenrollFactor, request);
  }

  /** Starts "Continue with Google": 302 to the provider, or {url} with ?redirect=false for script callers. */
  @Get('authorize')
  @Answers(on.oidcStart, {
    summary: 'Start Continue with Google',
    description: 'The provider URL, with `?redirect=false`; otherwise a 302 to it.',
  })
  @AnswersEmpty({ status: 302, description: "Redirect to the provider's sign-in page (Location)." })
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
  @Answers(on.oidcStart, { summary: 'Start linking a Google identity' })
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
  @Answers(on.oidcCallback, { summary: 'Finish Continue with Google' })
  @HttpCode(200)
  callback(@ZodRequest(on.oidcCallback.request, 'message', { caller: true }) request: RequestFor<'oidcCallback'>) {
    return this.rpc.request(on.oidcCallback, request);
  }

  @Post('invitations')
  @Answers(on.createInvitation, { status: 201, summary: 'Invite an administrator' })
  @HttpCode(201)
  invite(
    @ZodRequest(on.createInvitation.request, 'message', { accessToken: true }) request: RequestFor<'createInvitation'>,
  ) {
    return this.rpc.request(on.createInvitation, request);
  }

  /** What an invitation link offers (client, role, whether the address has an account), before accepting it. */
  @Post('team-invitations/look-up')
  @Answers(team.lookUpInvitation, { summary: 'Look up a team invitation' })
  @HttpCode(200)
  lookUpInvitation(
    @ZodRequest(team.lookUpInvitation.request, 'invitation') request: ParsedRequestOf<typeof team.lookUpInvitation>,
  ) {
    return this.rpc.request(team.lookUpInvitation, request);
  }

  /** {token, full_name, password, confirm_password, accepted_terms}: a new account in the inviting client; answers a Session. */
  @Post('team-invitations/signup')
  @Answers(team.acceptInvitationSignup, { summary: 'Accept a team invitation with a new account' })
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
  @Answers(team.acceptInvitation, { summary: 'Accept a team invitation' })
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
  @Answers(on.jwks.reply.pick({ keys: true }), { summary: 'The public keys that verify session tokens (JWKS)' })
  async jwks(@Res({ passthrough: true }) res: Response): Promise<Pick<JwksReply, 'keys'>> {
    const { keys } = await this.rpc.request(on.jwks, {});
    res.setHeader('cache-control', 'public, max-age=300');
    return { keys };
  }

  /** Development mailbox: auth answers 404 outside a development stack, and only an administrator reads it there. */
  @Get('dev/mailbox')
  @Answers(on.mailbox, { summary: 'Development mailbox' })
  @DevelopmentOnly()
  mailbox(
    @ZodRequest(on.mailbox.request, 'message', { body: false, query: { to: 'to', limit: 'limit' } })
    request: RequestFor<'mailbox'>,
    @OptionalAccessToken() accessToken: string | undefined,
  ) {
    return this.rpc.request(on.mailbox, { ...request, ...(accessToken ? { accessToken } : {}) });
  }
}
