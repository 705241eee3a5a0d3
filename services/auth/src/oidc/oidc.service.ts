import { Inject, Injectable, Logger } from '@nestjs/common';
import { DomainError } from '@vigil/platform';
import type { CallerContext, OidcCallbackRequest, OidcStartReply, Session } from '@vigil/proto';
import * as oidc from 'openid-client';
import { AUTH_CONFIG, type AuthConfig } from '../env.js';
import { SessionsService } from '../sessions/sessions.service.js';
import { UsersRepository, type UserRow } from '../users/users.repository.js';
import { OidcRepository } from './oidc.repository.js';

const PENDING_TTL_MS = 10 * 60_000;

/**
 * "Continue with Google": OpenID Connect authorisation code flow with PKCE.
 * The browser goes to Google and back to the web app's /auth/callback, which
 * forwards code and state here; the exchange happens server-side.
 */
@Injectable()
export class OidcService {
  private readonly logger = new Logger('OidcService');
  private configuration: Promise<oidc.Configuration> | undefined;

  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    private readonly pending: OidcRepository,
    private readonly users: UsersRepository,
    private readonly sessions: SessionsService,
  ) {}

  private get redirectUri(): string {
    return this.config.OIDC_REDIRECT_URI ?? `${this.config.WEB_URL}/auth/callback`;
  }

  /** `linkUserId`: a signed-in user adding Google to their account rather than signing in with it. */
  async start(rememberMe: boolean, linkUserId: string | null = null): Promise<OidcStartReply> {
    const configuration = await this.discover();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    await this.pending.save(state, { provider: 'google', code_verifier: codeVerifier, nonce, remember_me: rememberMe, link_user_id: linkUserId }, new Date(Date.now() + PENDING_TTL_MS));
    const url = oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: this.redirectUri,
      scope: 'openid email profile',
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
      // Google's spelling for "also give a refresh token", and ask again so it does.
      access_type: 'offline',
      prompt: 'consent',
    });
    return { url: url.href };
  }

  async callback(request: OidcCallbackRequest & CallerContext): Promise<Session> {
    const pending = await this.pending.take(request.state);
    if (!pending) throw new DomainError('OIDC_FAILED', 'This sign-in link has expired or was already used. Please try again.');
    const configuration = await this.discover();
    const callbackUrl = new URL(this.redirectUri);
    callbackUrl.searchParams.set('code', request.code);
    callbackUrl.searchParams.set('state', request.state);
    if (request.iss) callbackUrl.searchParams.set('iss', request.iss);
    if (request.scope) callbackUrl.searchParams.set('scope', request.scope);

    let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(configuration, callbackUrl, {
        pkceCodeVerifier: pending.code_verifier,
        expectedState: request.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
    } catch (error) {
      this.logger.warn(`Google code exchange failed: ${error instanceof Error ? error.message : String(error)}`);
      throw new DomainError('OIDC_FAILED', 'Sign-in with Google failed. Please try again.');
    }
    const claims = tokens.claims();
    if (!claims) throw new DomainError('OIDC_FAILED', 'Sign-in with Google failed. Please try again.');
    const email = typeof claims.email === 'string' ? claims.email.toLowerCase() : undefined;
    const user = pending.link_user_id
      ? await this.link(pending.link_user_id, String(claims.sub), email)
      : await this.userFor(String(claims.sub), email, claims.email_verified === true, typeof claims.name === 'string' ? claims.name : null);
    return this.sessions.start(
      user,
      { amr: ['oauth'], rememberMe: pending.remember_me, ip: request.ip, userAgent: request.userAgent },
      { provider_token: tokens.access_token, ...(tokens.refresh_token ? { provider_refresh_token: tokens.refresh_token } : {}) },
    );
  }

  private async link(userId: string, subject: string, email: string | undefined): Promise<UserRow> {
    const existing = await this.users.findIdentity('google', subject);
    if (existing && existing.user_id !== userId) throw new DomainError('CONFLICT', 'This Google account is already linked to another Vigil account.');
    await this.users.addIdentity(userId, 'google', subject, email ?? null);
    const user = await this.users.findById(userId);
    if (!user) throw new DomainError('UNAUTHENTICATED', 'The account to link no longer exists.');
    return user;
  }

  /** The linked user; else the user with this verified email, now linked; else a new user. */
  private async userFor(subject: string, email: string | undefined, emailVerified: boolean, name: string | null): Promise<UserRow> {
    const identity = await this.users.findIdentity('google', subject);
    if (identity) {
      await this.users.touchIdentity(identity.id);
      return (await this.users.findById(identity.user_id))!;
    }
    if (!email || !emailVerified) throw new DomainError('OIDC_FAILED', 'Your Google account has no verified email address.');
    let user = await this.users.findByEmail(email);
    if (user) {
      if (await this.pending.dropUnconfirmedPassword(user.id)) await this.sessions.revokeAllForUser(user.id, 'identity_linked');
      await this.users.confirmEmail(user.id);
    } else {
      user = await this.users.create({ email, fullName: name, passwordHash: null, role: 'user', confirmed: true });
      // Lost a race with a concurrent sign-up for the same email: use that row.
      user ??= (await this.users.findByEmail(email))!;
    }
    await this.users.addIdentity(user.id, 'google', subject, email);
    return (await this.users.findById(user.id))!;
  }

  private discover(): Promise<oidc.Configuration> {
    if (!this.config.GOOGLE_CLIENT_ID || !this.config.GOOGLE_CLIENT_SECRET) {
      throw new DomainError('SERVICE_UNAVAILABLE', 'Google sign-in is not configured on this server.');
    }
    const issuer = new URL(this.config.GOOGLE_ISSUER);
    // Plain http only for a provider on this machine (local development and tests).
    const local = issuer.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(issuer.hostname);
    this.configuration ??= oidc
      .discovery(issuer, this.config.GOOGLE_CLIENT_ID, this.config.GOOGLE_CLIENT_SECRET, undefined, local ? { execute: [oidc.allowInsecureRequests] } : undefined)
      .catch((error: unknown) => {
        this.configuration = undefined;
        this.logger.warn(`OIDC discovery failed: ${error instanceof Error ? error.message : String(error)}`);
        throw new DomainError('SERVICE_UNAVAILABLE', 'Google sign-in is unavailable right now. Please try again.');
      });
    return this.configuration;
  }
}
