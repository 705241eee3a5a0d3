import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DomainError, limiterAddress } from '@vigil/platform';
import {
  PLANS,
  adminAssuranceProblem,
  assuranceSatisfied,
  memberRoleAtLeast,
  planOf,
  type MemberRole,
  type ResolvedKey,
} from '@vigil/proto';
import type { Request, Response } from 'express';
import { RateLimits, type RateLimitDecision } from '../rate-limits/rate-limits.service.js';
import { SecurityEvents } from '../security-events/security-events.publisher.js';
import { ApiKeys, hashApiKey } from './api-keys.service.js';
import {
  ANY_PLAN_METADATA,
  CREDENTIALS_METADATA,
  MEMBER_ROLE_METADATA,
  PLAN_FEATURE_METADATA,
  type PlanFeature,
  setCaller,
  type Caller,
  type CredentialsKind,
  type SessionUser,
} from './credentials.js';
import { SessionTokens } from './session-tokens.service.js';
import { Inject } from '@nestjs/common';
import { GATEWAY_CONFIG } from '../config.token.js';
import type { GatewayConfig } from '../env.js';

const ADMIN_ASSURANCE_DETAIL = {
  MFA_REQUIRED: 'Administrator routes need two-factor verification: enter the code from your authenticator app.',
  MFA_ENROLMENT_REQUIRED:
    'Administrator routes need two-factor verification: set up an authenticator app for this account first.',
} as const;

const FEATURE_WORDS: Readonly<Record<PlanFeature, string>> = {
  dashboardAccess: 'dashboard access',
  webhookNotifications: 'webhook notifications',
  realTimeUpdates: 'real-time updates',
  webSocketAccess: 'live (streaming) access',
};

/**
 * Who is calling, then whether they may call now: credentials as the route's
 * @Credentials says, then the caller's rate limit (per client for keyed routes, per
 * user for session routes). Routes without @Credentials belong to controllers that
 * forward the bearer token for the auth service to judge; they pass untouched.
 */
type Demands = { kind: CredentialsKind | undefined; minimum: MemberRole | undefined; feature: PlanFeature | null };

@Injectable()
export class CredentialsGuard implements CanActivate {
  private readonly demandsOf = new WeakMap<object, WeakMap<object, Demands>>();

  constructor(
    private readonly reflector: Reflector,
    private readonly keys: ApiKeys,
    private readonly tokens: SessionTokens,
    private readonly limits: RateLimits,
    private readonly events: SecurityEvents,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const { kind, minimum, feature } = this.demands(context);
    if (kind === 'public' || (!kind && !minimum)) return true;
    const req = context.switchToHttp().getRequest<Request>();
    const res = context.switchToHttp().getResponse<Response>();

    // The address's failed-auth limit is consulted only when the credentials fail: valid
    // credentials always get in (issue #15, finding 8), so an attacker guessing keys from a
    // shared address (an office NAT, a proxy) cannot lock out the callers who hold real ones.
    // The address is the connecting one unless it is a TRUSTED_PROXIES hop (see create-app.ts); an
    // IPv6 caller counts by its /64 as at auth's sign-in, or one host would guess from a new address each time.
    const failures = `failed-auth:${limiterAddress(req.ip) ?? 'unknown'}`;
    if (!kind) {
      // A route that forwards the bearer token to auth, which judges it in full against the live
      // membership, and also names a least role: the role the token carries is refused here as on
      // every dashboard route (before the body is validated). A token issued before its user had a
      // client carries none; auth alone decides for it, so a client attached since still counts.
      const caller = await this.authenticate('session', req, failures, null);
      setCaller(req, caller);
      if (caller.user!.clientId) this.requireMemberRole(caller.user!, minimum!);
      return true;
    }
    // The API v1 (api-key routes) is every plan's: only dashboard and key-or-session routes need a feature.
    const needs = kind === 'api-key' || kind === 'session' || kind === 'admin' ? null : feature;
    const caller = await this.authenticate(this.effectiveKind(kind, req), req, failures, needs);
    setCaller(req, caller);
    if (minimum && caller.user) this.requireMemberRole(caller.user, minimum);
    const decision = await this.consume(caller);
    this.limit(decision, caller, req, res);
    return true;
  }

  /**
   * A key-or-session route is a dashboard route for a request with a session token, and an API
   * route for one with a key alone (a server has no user, so no team role; its tier still applies).
   * With neither, the session's answer (401): the dashboard is the common caller.
   */
  private effectiveKind(kind: Exclude<CredentialsKind, 'public'>, req: Request) {
    if (kind !== 'key-or-session') return kind;
    return !req.header('authorization') && req.header('x-api-key') ? 'api-key' : 'dashboard';
  }

  /**
   * What the route's decorators demand, read once per handler: the metadata never changes after
   * boot, and four reflector look-ups per request were a visible share of the screen route.
   */
  private demands(context: ExecutionContext): Demands {
    const handler = context.getHandler();
    const controller = context.getClass();
    let byHandler = this.demandsOf.get(controller);
    if (!byHandler) this.demandsOf.set(controller, (byHandler = new WeakMap()));
    let demands = byHandler.get(handler);
    if (demands) return demands;
    const targets = [handler, controller];
    const anyPlan = this.reflector.getAllAndOverride<boolean | undefined>(ANY_PLAN_METADATA, targets);
    demands = {
      kind: this.reflector.getAllAndOverride<CredentialsKind | undefined>(CREDENTIALS_METADATA, targets),
      minimum: this.reflector.getAllAndOverride<MemberRole | undefined>(MEMBER_ROLE_METADATA, targets),
      feature: anyPlan
        ? null
        : (this.reflector.getAllAndOverride<PlanFeature | undefined>(PLAN_FEATURE_METADATA, targets) ??
          'dashboardAccess'),
    };
    byHandler.set(handler, demands);
    return demands;
  }

  private async authenticate(
    kind: Exclude<CredentialsKind, 'public' | 'key-or-session'>,
    req: Request,
    failures: string,
    feature: PlanFeature | null,
  ): Promise<Caller> {
    try {
      const caller: Caller = {};
      if (kind === 'session' || kind === 'admin' || kind === 'dashboard') {
        caller.user = await this.tokens.verify(req);
        // Auth's rule on every session route: once a factor is verified, a password-only
        // session (aal1) is good for completing the second factor and nothing else.
        if (!assuranceSatisfied({ aal: caller.user.aal, mfa_enrolled: caller.user.mfaEnrolled })) {
          throw new DomainError('MFA_REQUIRED', 'Complete two-factor verification to continue.');
        }
      }
      if (kind === 'api-key' || kind === 'dashboard') {
        const key = req.header('x-api-key');
        if (!key && kind === 'api-key')
          throw new DomainError('INVALID_API_KEY', 'This request needs an x-api-key header.');
        if (key) {
          const { client, fresh } = await this.keys.resolve(key);
          caller.client = client;
          if (kind === 'api-key') caller.keyHash = hashApiKey(key);
          if (fresh) {
            setCaller(req, caller);
            this.events.record('CLIENT_ACCESS', req, 'api_key_resolved');
          }
        }
      }
      if (kind === 'dashboard' && caller.client && caller.user!.clientId !== caller.client.clientId) {
        setCaller(req, caller);
        this.events.record('SUSPICIOUS_ACTIVITY', req, 'api_key_of_another_client');
        throw new DomainError('FORBIDDEN', "This API key does not belong to the signed-in user's client.");
      }
      if (kind === 'dashboard') {
        // The session's client and the user's live role in it: a removed member is refused, and a
        // changed role applies, within KEY_CACHE_TTL_MS whatever the token says.
        const member = await this.sessionMember(caller.user!);
        caller.user!.memberRole = member.memberRole;
        const keyed = caller.client !== undefined;
        caller.client ??= member.client;
        if (member.fresh && !keyed) {
          setCaller(req, caller);
          this.events.record('CLIENT_ACCESS', req, 'session_client_resolved');
        }
      }
      // A key alone on a key-or-session route needs the same plan feature a session would.
      if ((kind === 'dashboard' || kind === 'api-key') && feature) this.requirePlan(caller.client!, feature);
      if (kind === 'admin') {
        setCaller(req, caller);
        if (caller.user!.role !== 'admin') {
          this.events.record('SUSPICIOUS_ACTIVITY', req, 'admin_route_without_admin_role');
          throw new DomainError('FORBIDDEN', 'This route is for administrators.');
        }
        // Full power over every client never rests on a password alone (issue #33): the console
        // reads the code and asks for the authenticator code, or for enrolment first.
        const missing = adminAssuranceProblem({ aal: caller.user!.aal, mfa_enrolled: caller.user!.mfaEnrolled });
        if (missing) {
          this.events.record('SUSPICIOUS_ACTIVITY', req, 'admin_route_without_second_factor');
          throw new DomainError(missing, ADMIN_ASSURANCE_DETAIL[missing]);
        }
        this.events.record('ADMIN_ACCESS', req);
      }
      return caller;
    } catch (error) {
      const failed =
        error instanceof DomainError && (error.code === 'UNAUTHENTICATED' || error.code === 'INVALID_API_KEY');
      if (!failed) throw error;
      const block = await this.limits.exhausted(failures, this.config.FAILED_AUTH_PER_MINUTE);
      if (block) throw this.tooManyFailures(block.resetSeconds);
      this.events.record(
        'FAILED_AUTH',
        req,
        error.code === 'INVALID_API_KEY' ? 'invalid_api_key' : 'invalid_access_token',
      );
      const spent = await this.limits.consume(failures, this.config.FAILED_AUTH_PER_MINUTE);
      if (!spent.allowed) {
        this.events.record('SUSPICIOUS_ACTIVITY', req, 'repeated_failed_auth');
        throw this.tooManyFailures(spent.resetSeconds);
      }
      throw error;
    }
  }

  /** A dashboard route: the session is enough, for the client the user belongs to. */
  private sessionMember(user: SessionUser) {
    if (!user.clientId)
      throw new DomainError('FORBIDDEN', 'This account has no client yet: choose a plan to use the dashboard.');
    return this.keys.resolveMember(user.clientId, user.id);
  }

  /** After authentication, so an unknown caller is told to sign in, not that their role falls short. */
  private requireMemberRole(user: SessionUser, minimum: MemberRole) {
    if (memberRoleAtLeast(user.memberRole, minimum)) return;
    const held = user.memberRole ? `your role is ${user.memberRole}` : 'you are not a member of a client';
    throw new DomainError('ROLE_FORBIDDEN', `This action needs the ${minimum} role or higher; ${held}.`);
  }

  /** Dashboard routes are a plan feature (proto PLANS; spec §9: no dashboard in starter or small). */
  private requirePlan(client: ResolvedKey, feature: PlanFeature) {
    const plan = planOf(client.tier);
    if (plan[feature]) return;
    const including = PLANS.filter((p) => p[feature]).map((p) => p.name);
    const list = including.length > 1 ? `${including.slice(0, -1).join(', ')} and ${including.at(-1)}` : including[0];
    throw new DomainError(
      'FEATURE_NOT_IN_PLAN',
      `The ${plan.name} plan does not include ${FEATURE_WORDS[feature]} (plan limit: ${feature}); ` +
        `the ${list} plans do. Upgrade at /upgrade, or use the API v1 with your key.`,
    );
  }

  private tooManyFailures(retryAfterSeconds: number) {
    return new DomainError(
      'RATE_LIMITED',
      `Too many failed sign-in attempts from this address; retry in ${retryAfterSeconds} s.`,
      undefined,
      retryAfterSeconds,
    );
  }

  private consume(caller: Caller): Promise<RateLimitDecision> {
    return caller.client
      ? this.limits.consume(`client:${caller.client.clientId}`, caller.client.rateLimitPerMinute)
      : this.limits.consume(`user:${caller.user!.id}`, this.config.SESSION_RATE_LIMIT_PER_MINUTE);
  }

  private limit(decision: RateLimitDecision, caller: Caller, req: Request, res: Response) {
    res.setHeader('RateLimit-Limit', String(decision.limit));
    res.setHeader('RateLimit-Remaining', String(decision.remaining));
    res.setHeader('RateLimit-Reset', String(decision.resetSeconds));
    if (!decision.allowed) {
      this.events.record('RATE_LIMIT_VIOLATION', req, caller.client ? `tier_${caller.client.tier}` : 'session');
      throw new DomainError(
        'RATE_LIMITED',
        `Rate limit of ${decision.limit} requests per minute reached; retry in ${decision.resetSeconds} s.`,
        undefined,
        decision.resetSeconds,
      );
    }
  }
}
