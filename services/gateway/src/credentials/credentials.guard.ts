import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DomainError } from '@vigil/platform';
import type { Request, Response } from 'express';
import { RateLimits, type RateLimitDecision } from '../rate-limits/rate-limits.service.js';
import { SecurityEvents } from '../security-events/security-events.publisher.js';
import { ApiKeys } from './api-keys.service.js';
import { CREDENTIALS_METADATA, setCaller, type Caller, type CredentialsKind, type SessionUser } from './credentials.js';
import { SessionTokens } from './session-tokens.service.js';
import { Inject } from '@nestjs/common';
import { GATEWAY_CONFIG } from '../config.token.js';
import type { GatewayConfig } from '../env.js';

/**
 * Who is calling, then whether they may call now: credentials as the route's
 * @Credentials says, then the caller's rate limit (per client for keyed routes, per
 * user for session routes). Routes without @Credentials belong to controllers that
 * forward the bearer token for the auth service to judge; they pass untouched.
 */
@Injectable()
export class CredentialsGuard implements CanActivate {
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
    const kind = this.reflector.getAllAndOverride<CredentialsKind | undefined>(CREDENTIALS_METADATA, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!kind || kind === 'public') return true;
    const req = context.switchToHttp().getRequest<Request>();
    const res = context.switchToHttp().getResponse<Response>();

    // On the public API (an API key only) the address's failed-auth check and the client's rate
    // limit go to Redis together: one pipelined round trip when the key comes from the cache. A
    // blocked address is still refused whatever it presents; the other kinds wait for the check
    // before looking at their credentials, as their access events must not be recorded for it.
    const failures = `failed-auth:${req.ip ?? 'unknown'}`;
    const blocked = this.limits.exhausted(failures, this.config.FAILED_AUTH_PER_MINUTE);
    blocked.catch(() => undefined);
    const caller = await this.authenticate(kind, req, failures, blocked);
    setCaller(req, caller);
    const decision = this.consume(caller);
    decision.catch(() => undefined);
    const block = await blocked;
    if (block) throw this.tooManyFailures(block.resetSeconds);
    this.limit(await decision, caller, req, res);
    return true;
  }

  private async authenticate(
    kind: Exclude<CredentialsKind, 'public'>,
    req: Request,
    failures: string,
    blocked: Promise<RateLimitDecision | null>,
  ): Promise<Caller> {
    if (kind !== 'api-key') {
      const block = await blocked;
      if (block) throw this.tooManyFailures(block.resetSeconds);
    }
    try {
      const caller: Caller = {};
      if (kind === 'session' || kind === 'admin' || kind === 'dashboard') caller.user = await this.tokens.verify(req);
      if (kind === 'api-key' || kind === 'dashboard') {
        const key = req.header('x-api-key');
        if (!key && kind === 'api-key')
          throw new DomainError('INVALID_API_KEY', 'This request needs an x-api-key header.');
        const { client, fresh } = key ? await this.keys.resolve(key) : await this.sessionClient(caller.user!);
        caller.client = client;
        if (fresh) {
          setCaller(req, caller);
          this.events.record('CLIENT_ACCESS', req, key ? 'api_key_resolved' : 'session_client_resolved');
        }
      }
      if (kind === 'dashboard' && caller.user!.clientId !== caller.client!.clientId) {
        setCaller(req, caller);
        this.events.record('SUSPICIOUS_ACTIVITY', req, 'api_key_of_another_client');
        throw new DomainError('FORBIDDEN', "This API key does not belong to the signed-in user's client.");
      }
      if (kind === 'admin') {
        setCaller(req, caller);
        if (caller.user!.role !== 'admin') {
          this.events.record('SUSPICIOUS_ACTIVITY', req, 'admin_route_without_admin_role');
          throw new DomainError('FORBIDDEN', 'This route is for administrators.');
        }
        this.events.record('ADMIN_ACCESS', req);
      }
      return caller;
    } catch (error) {
      const block = await blocked;
      if (block) throw this.tooManyFailures(block.resetSeconds);
      if (error instanceof DomainError && (error.code === 'UNAUTHENTICATED' || error.code === 'INVALID_API_KEY')) {
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
      }
      throw error;
    }
  }

  /** A dashboard route without a key: the session is enough, for the client the user belongs to. */
  private sessionClient(user: SessionUser) {
    if (!user.clientId)
      throw new DomainError('FORBIDDEN', 'This account has no client yet: choose a plan to use the dashboard.');
    return this.keys.resolveClient(user.clientId);
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
