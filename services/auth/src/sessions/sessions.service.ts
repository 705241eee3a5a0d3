import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '@vigil/platform';
import type { AssuranceLevel, CallerContext, MemberRole, Role, Session, SessionInfo } from '@vigil/proto';
import { adminAssuranceProblem } from '@vigil/proto';
import { AUTH_CONFIG, type AuthConfig } from '../env.js';
import { randomToken, sha256 } from '../crypto/secrets.js';
import { EventsPublisher } from '../events/events.publisher.js';
import { AccessTokens } from '../tokens/access-tokens.service.js';
import { UsersRepository, type UserRow } from '../users/users.repository.js';
import { SessionsRepository, type RevokedSession, type SessionRow } from './sessions.repository.js';

/** Who is calling, as established from a verified access token and a live session. */
export type Principal = {
  userId: string;
  email: string;
  role: Role;
  clientId: string | null;
  memberRole: MemberRole | null;
  sessionId: string;
  aal: AssuranceLevel;
  hasVerifiedFactor: boolean;
};

/**
 * `aal2-if-enrolled` (the default): a user who has a verified TOTP factor must
 * have completed it in this session. `aal1` is for the steps that get them there.
 */
export type AssuranceRequirement = 'aal1' | 'aal2-if-enrolled';

@Injectable()
export class SessionsService {
  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    private readonly sessions: SessionsRepository,
    private readonly users: UsersRepository,
    private readonly tokens: AccessTokens,
    private readonly events: EventsPublisher,
  ) {}

  async activeUsers(): Promise<number> {
    return this.sessions.countActiveUsers();
  }

  /** Opens a new session (a new refresh-token family) for a user who just proved who they are. */
  async start(
    user: UserRow,
    options: { amr: string[]; rememberMe: boolean; aal?: AssuranceLevel } & CallerContext,
    extras: Pick<Session, 'provider_token' | 'provider_refresh_token'> = {},
  ): Promise<Session> {
    const lifetimeMs = options.rememberMe
      ? this.config.REMEMBER_ME_TTL_DAYS * 86_400_000
      : this.config.SESSION_TTL_HOURS * 3_600_000;
    const session = await this.sessions.create({
      userId: user.id,
      aal: options.aal ?? 'aal1',
      amr: options.amr,
      rememberMe: options.rememberMe,
      ip: options.ip,
      userAgent: options.userAgent,
      expiresAt: new Date(Date.now() + lifetimeMs),
    });
    return this.issue(session, extras);
  }

  /**
   * Rotates a refresh token. Presenting an already-rotated one revokes its whole family,
   * except within REFRESH_TOKEN_REUSE_SECONDS of its rotation while no newer token of the
   * session has been used: a page reloaded or a tab closed while its refresh was in flight
   * never stored the answer, and signing the user out for that would be our fault, not theirs.
   * That caller gets a new token of the same session (as GoTrue's reuse interval does).
   */
  async refresh(refreshToken: string): Promise<Session> {
    const claim = await this.sessions.claimRefreshToken(sha256(refreshToken), this.config.REFRESH_TOKEN_REUSE_SECONDS);
    if (claim.status === 'unknown') throw new DomainError('UNAUTHENTICATED', 'Invalid refresh token.');
    if (claim.status === 'reused' && !claim.graceful) {
      await this.announce(await this.sessions.revoke(claim.sessionId, 'refresh_token_reused'), 'refresh_token_reused');
      throw new DomainError(
        'REFRESH_TOKEN_REUSED',
        'This refresh token was already used; the session has been signed out for safety.',
      );
    }
    const session = await this.sessions.findActive(claim.sessionId);
    if (!session) throw new DomainError('UNAUTHENTICATED', 'The session has ended. Please sign in again.');
    await this.sessions.markRefreshed(session.id);
    return this.issue(session);
  }

  /** Issues fresh tokens in an existing session, e.g. after it was raised to aal2. */
  async reissue(sessionId: string): Promise<Session> {
    const session = await this.sessions.findActive(sessionId);
    if (!session) throw new DomainError('UNAUTHENTICATED', 'The session has ended. Please sign in again.');
    return this.issue(session);
  }

  async authenticate(accessToken: string, requirement: AssuranceRequirement = 'aal2-if-enrolled'): Promise<Principal> {
    const claims = await this.tokens.verify(accessToken);
    const session = await this.sessions.findActive(claims.sid);
    if (!session || session.user_id !== claims.sub)
      throw new DomainError('UNAUTHENTICATED', 'The session has ended. Please sign in again.');
    const principal: Principal = {
      userId: session.user_id,
      email: session.email,
      // Role and client come from the database, so a promotion or a new client takes effect at once.
      role: session.role,
      clientId: session.client_id,
      memberRole: session.member_role,
      sessionId: session.id,
      aal: claims.aal,
      hasVerifiedFactor: session.has_verified_factor,
    };
    if (requirement === 'aal2-if-enrolled' && principal.hasVerifiedFactor && principal.aal !== 'aal2') {
      throw new DomainError('MFA_REQUIRED', 'Complete two-factor verification to continue.');
    }
    return principal;
  }

  async authenticateAdmin(accessToken: string): Promise<Principal> {
    const principal = await this.authenticate(accessToken);
    if (principal.role !== 'admin') throw new DomainError('FORBIDDEN', 'This action needs an administrator account.');
    // The gateway's rule for admin routes, applied again here: auth's own admin subjects need aal2 too.
    const missing = adminAssuranceProblem({ aal: principal.aal, mfa_enrolled: principal.hasVerifiedFactor });
    if (missing) throw new DomainError(missing, 'Administrator actions need two-factor verification.');
    return principal;
  }

  async logout(principal: Principal, scope: 'global' | 'local' | 'others'): Promise<void> {
    const reason = `logout_${scope}`;
    const revoked =
      scope === 'local'
        ? await this.sessions.revoke(principal.sessionId, reason)
        : await this.sessions.revokeAllForUser(
            principal.userId,
            reason,
            scope === 'others' ? principal.sessionId : undefined,
          );
    await this.announce(revoked, reason);
  }

  async list(principal: Principal): Promise<SessionInfo[]> {
    const rows = await this.sessions.listActive(principal.userId);
    return rows.map((s) => ({
      id: s.id,
      created_at: s.created_at.toISOString(),
      refreshed_at: s.refreshed_at ? s.refreshed_at.toISOString() : null,
      expires_at: s.expires_at.toISOString(),
      aal: s.aal,
      ip: s.ip,
      user_agent: s.user_agent,
      remember_me: s.remember_me,
      current: s.id === principal.sessionId,
    }));
  }

  async revoke(principal: Principal, sessionId: string): Promise<void> {
    // Scoped to the caller's own sessions: another user's id reads as not found.
    const revoked = await this.sessions.revoke(sessionId, 'revoked_by_user', principal.userId);
    if (revoked.length === 0) throw new DomainError('NOT_FOUND', 'No such session.');
    await this.announce(revoked, 'revoked_by_user');
  }

  async revokeAllForUser(userId: string, reason: string): Promise<void> {
    await this.announce(await this.sessions.revokeAllForUser(userId, reason), reason);
  }

  /** Tells verifiers that check tokens locally (the gateway) to stop accepting these sessions now. */
  async announce(revoked: RevokedSession[], reason: string): Promise<void> {
    for (const session of revoked) {
      await this.events.sessionRevoked({
        session_id: session.id,
        user_id: session.user_id,
        reason,
        revoked_at: session.revoked_at.toISOString(),
      });
    }
  }

  private async issue(
    session: SessionRow,
    extras: Pick<Session, 'provider_token' | 'provider_refresh_token'> = {},
  ): Promise<Session> {
    const user = await this.users.view(session.user_id);
    const refreshToken = randomToken();
    await this.sessions.addRefreshToken(session.id, sha256(refreshToken));
    const { token, expiresAt } = await this.tokens.sign({
      sub: user.id,
      email: user.email,
      role: user.role,
      client_id: user.client_id,
      member_role: user.member_role,
      sid: session.id,
      aal: session.aal,
      amr: session.amr,
      mfa_enrolled: user.factors.some((f) => f.status === 'verified'),
    });
    return {
      access_token: token,
      refresh_token: refreshToken,
      expires_at: expiresAt,
      expires_in: this.tokens.ttlSeconds,
      token_type: 'bearer',
      user,
      ...extras,
    };
  }
}
