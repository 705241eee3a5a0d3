import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { DomainError, Nats, RpcClient } from '@vigil/platform';
import {
  ACCESS_TOKEN_ALGORITHM,
  accessTokenClaimsSchema,
  contracts,
  memberChangedEventSchema,
  sessionRevokedEventSchema,
  subjects,
  type JwksReply,
  type MemberRole,
} from '@vigil/proto';
import type { Request } from 'express';
import { createPublicKey } from 'node:crypto';
import passport from 'passport';
import passportJwt from 'passport-jwt';
import type { SessionUser } from './credentials.js';

const { Strategy: JwtStrategy, ExtractJwt } = passportJwt;
const STRATEGY = 'vigil-access-token';
const JWKS_MAX_AGE_MS = 5 * 60_000;
/** An unknown `kid` (auth rotated its key) triggers at most one JWKS refresh per this interval. */
const JWKS_MIN_REFRESH_MS = 10_000;
/** Longer than any access token lives, so a revoked session's tokens expire before we forget it. */
const ENDED_SESSION_MEMORY_MS = 24 * 60 * 60_000;

type Verifier = { passport: passport.Authenticator; pems: Map<string, string>; fetchedAt: number };

/**
 * Verifies session access tokens locally with passport-jwt: RS256 only (the allow-list
 * comes from auth and is intersected with ours, so "none" or HS256 can never slip in),
 * `exp`, `iss` and `aud` — issuer, audience and keys all from auth's `auth.v1.jwks`,
 * so nothing is configured twice. The role in the token was decided by auth.
 */
@Injectable()
export class SessionTokens implements OnModuleInit {
  private readonly logger = new Logger(SessionTokens.name);
  private verifier: Promise<Verifier> | undefined;
  private lastRefresh = 0;
  /** Sessions ended early (sign-out, revoke, reuse): their still-unexpired tokens are refused. sid → token exp bound (ms). */
  private readonly ended = new Map<string, number>();
  /**
   * Team membership changed after tokens were issued: user id → the change. A token issued
   * before it carries the old role (or a client the user has left) and is judged by the change.
   */
  private readonly memberships = new Map<
    string,
    { clientId: string | null; memberRole: MemberRole | null; changedAt: number; forgetAt: number }
  >();

  constructor(
    private readonly rpc: RpcClient,
    private readonly nats: Nats,
  ) {}

  async onModuleInit() {
    try {
      await this.nats.subscribeAll(subjects.auth.sessionRevoked, (payload) => {
        const event = sessionRevokedEventSchema.parse(payload);
        this.ended.set(event.session_id, Date.now() + ENDED_SESSION_MEMORY_MS);
        this.forgetExpired();
      });
    } catch (error) {
      this.logger.error(
        `cannot follow ${subjects.auth.sessionRevoked}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    try {
      await this.nats.subscribeAll(subjects.auth.memberChanged, (payload) => this.onMemberChanged(payload));
    } catch (error) {
      this.logger.error(
        `cannot follow ${subjects.auth.memberChanged}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  /** Applies a membership change to the tokens issued before it (the next ones carry it themselves). */
  onMemberChanged(payload: unknown) {
    const event = memberChangedEventSchema.parse(payload);
    const changedAt = Date.parse(event.changed_at);
    const known = this.memberships.get(event.user_id);
    if (known && known.changedAt > changedAt) return;
    this.memberships.set(event.user_id, {
      clientId: event.client_id,
      memberRole: event.member_role,
      changedAt,
      forgetAt: Date.now() + ENDED_SESSION_MEMORY_MS,
    });
    this.forgetExpired();
  }

  /** The session ended early (its revocation was heard here): its tokens are refused. */
  hasEnded(sessionId: string): boolean {
    return this.ended.has(sessionId);
  }

  private forgetExpired() {
    const now = Date.now();
    for (const [sid, until] of this.ended) if (until < now) this.ended.delete(sid);
    for (const [user, change] of this.memberships) if (change.forgetAt < now) this.memberships.delete(user);
  }

  /**
   * The client and role a token's holder has now: the token's own, unless a membership change
   * came after it was issued (`iat` has whole seconds, so a token of the same second counts as
   * older: at worst its holder is refused once and refreshes). Null: they left the client.
   */
  private membershipOf(claims: { sub: string; iat: number; client_id: string | null; member_role: MemberRole | null }) {
    const change = this.memberships.get(claims.sub);
    if (!change || claims.iat * 1000 > change.changedAt)
      return { clientId: claims.client_id, memberRole: claims.member_role };
    if (claims.client_id !== null && change.clientId !== claims.client_id) return null;
    return { clientId: claims.client_id, memberRole: claims.client_id === null ? null : change.memberRole };
  }

  async verify(req: Request): Promise<SessionUser> {
    if (!/^Bearer\s+\S+$/i.test(req.header('authorization') ?? '')) {
      throw new DomainError(
        'UNAUTHENTICATED',
        'Sign in first: this request needs an Authorization: Bearer access token.',
      );
    }
    let verifier = await this.current();
    const kid = tokenKid(req);
    if (kid && !verifier.pems.has(kid) && Date.now() - this.lastRefresh > JWKS_MIN_REFRESH_MS) {
      this.verifier = undefined;
      verifier = await this.current();
    }
    return new Promise<SessionUser>((resolve, reject) => {
      const authenticate = verifier.passport.authenticate(
        STRATEGY,
        { session: false },
        (error: unknown, user: SessionUser | false, info: unknown) => {
          if (error)
            return reject(
              error instanceof DomainError ? error : new DomainError('UNAUTHENTICATED', 'The access token is invalid.'),
            );
          if (!user) return reject(new DomainError('UNAUTHENTICATED', describe(info)));
          resolve(user);
        },
      ) as (req: Request, res: unknown, next: (error?: unknown) => void) => void;
      authenticate(req, {}, reject);
    });
  }

  private current(): Promise<Verifier> {
    if (this.verifier) {
      const cached = this.verifier;
      return cached.then((v) => {
        if (Date.now() - v.fetchedAt < JWKS_MAX_AGE_MS) return v;
        if (this.verifier === cached) this.verifier = undefined;
        return this.current();
      });
    }
    this.lastRefresh = Date.now();
    this.verifier = this.load().catch((error: unknown) => {
      this.verifier = undefined;
      this.logger.warn(
        `cannot load the token verification keys: ${error instanceof Error ? error.message : String(error)}`,
      );
      throw error instanceof DomainError
        ? error
        : new DomainError('SERVICE_UNAVAILABLE', 'Sign-in verification is unavailable.');
    });
    return this.verifier;
  }

  private async load(): Promise<Verifier> {
    const jwks: JwksReply = await this.rpc.request(contracts.auth.jwks, {});
    const pems = new Map(
      jwks.keys.map((jwk) => [
        jwk.kid,
        createPublicKey({ key: jwk, format: 'jwk' }).export({ type: 'spki', format: 'pem' }).toString(),
      ]),
    );
    const algorithms = jwks.algorithms.filter((a) => a === ACCESS_TOKEN_ALGORITHM);
    if (algorithms.length === 0) throw new DomainError('SERVICE_UNAVAILABLE', 'No acceptable token algorithm.');
    const instance = new passport.Passport();
    instance.use(
      STRATEGY,
      new JwtStrategy(
        {
          jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
          secretOrKeyProvider: (_req: unknown, rawJwt: string, done: (error: unknown, key?: string) => void) => {
            const pem = pems.get(kidOf(rawJwt) ?? '') ?? (pems.size === 1 ? [...pems.values()][0] : undefined);
            if (!pem) return done(new DomainError('UNAUTHENTICATED', 'The access token was signed by an unknown key.'));
            done(null, pem);
          },
          issuer: jwks.issuer,
          audience: jwks.audience,
          algorithms,
          jsonWebTokenOptions: { clockTolerance: 5 },
        },
        (payload: unknown, done: (error: unknown, user?: SessionUser | false) => void) => {
          const claims = accessTokenClaimsSchema.safeParse(payload);
          if (!claims.success) return done(null, false);
          const c = claims.data;
          if (this.ended.has(c.sid))
            return done(new DomainError('UNAUTHENTICATED', 'This session has ended; sign in again.'));
          const membership = this.membershipOf(c);
          if (!membership)
            return done(new DomainError('UNAUTHENTICATED', 'Your membership of this client has ended; sign in again.'));
          done(null, {
            id: c.sub,
            email: c.email,
            role: c.role,
            clientId: membership.clientId,
            memberRole: membership.memberRole,
            sessionId: c.sid,
            aal: c.aal,
            mfaEnrolled: c.mfa_enrolled,
          });
        },
      ),
    );
    return { passport: instance, pems, fetchedAt: Date.now() };
  }
}

function kidOf(rawJwt: string): string | undefined {
  try {
    const header = JSON.parse(Buffer.from(rawJwt.split('.')[0] ?? '', 'base64url').toString('utf8')) as {
      kid?: unknown;
    };
    return typeof header.kid === 'string' ? header.kid : undefined;
  } catch {
    return undefined;
  }
}

function tokenKid(req: Request): string | undefined {
  const token = /^Bearer\s+(\S+)$/i.exec(req.header('authorization') ?? '')?.[1];
  return token ? kidOf(token) : undefined;
}

function describe(info: unknown): string {
  const name = (info as { name?: unknown })?.name;
  if (name === 'TokenExpiredError') return 'The access token has expired; refresh the session.';
  return 'The access token is invalid.';
}
