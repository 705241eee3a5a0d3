import {
  Inject,
  Injectable,
  UseInterceptors,
  applyDecorators,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import { Reflector } from '@nestjs/core';
import { DomainError } from '@vigil/platform';
import { IDEMPOTENCY_KEY_MAX_LENGTH } from '@vigil/proto';
import type { Request } from 'express';
import { createHash } from 'node:crypto';
import { from, lastValueFrom, type Observable } from 'rxjs';
import { GATEWAY_CONFIG } from '../config.token.js';
import { callerOf } from '../credentials/credentials.js';
import type { GatewayConfig } from '../env.js';
import { BytesReply } from '../http/bytes-reply.js';
import { ClaimHeartbeat } from './claim-heartbeat.js';
import { IdempotencyRepository, type StoredResponse } from './idempotency.repository.js';
import { setOperationId } from './operation-id.js';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
// @HttpCode()'s metadata key (not exported from @nestjs/common's entry point).
const HTTP_CODE_METADATA = '__httpCode__';

/**
 * `Idempotency-Key` on POST: the first successful response is stored and every retry
 * with the same key and body gets those exact bytes back without running the handler
 * again (so quota is never counted twice). The same key with another body is a 422.
 * Keys are scoped to the caller's client (or user), so two clients never collide.
 * While the first request runs its claim is renewed (ClaimHeartbeat) and a duplicate is a 409;
 * a claim its replica stopped renewing is taken over by the next retry.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly records: IdempotencyRepository,
    private readonly heartbeat: ClaimHeartbeat,
    private readonly reflector: Reflector,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<Request>();
    const key = req.header(IDEMPOTENCY_HEADER);
    if (req.method !== 'POST' || key === undefined) return next.handle();
    const status = this.reflector.get<number | undefined>(HTTP_CODE_METADATA, context.getHandler()) ?? 201;
    return from(this.run(req, key, status, next));
  }

  private async run(req: Request, key: string, defaultStatus: number, next: CallHandler): Promise<BytesReply> {
    if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
      throw new DomainError('VALIDATION_FAILED', 'The Idempotency-Key header is invalid.', [
        { pointer: '/headers/idempotency-key', detail: `must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters` },
      ]);
    }
    const caller = callerOf(req);
    const scope = caller.client ? `client:${caller.client.clientId}` : `user:${caller.user?.id ?? 'anonymous'}`;
    const fingerprint = createHash('sha256')
      .update(`${req.method} ${req.originalUrl}\n${JSON.stringify(req.body ?? null)}`)
      .digest('hex');

    let claim = await this.records.claim(scope, key, fingerprint);
    if (!claim) {
      const existing = await this.records.find(scope, key);
      if (existing && existing.fingerprint !== fingerprint) {
        throw new DomainError(
          'IDEMPOTENCY_KEY_REUSED',
          'This Idempotency-Key was already used with a different request.',
        );
      }
      if (existing?.response) return replay(existing.response);
      if (existing) {
        // A live claim was renewed moments ago; a dead replica's lapses this long after its last renewal.
        const lapsesInMs = this.config.IDEMPOTENCY_CLAIM_TAKEOVER_MS - existing.sinceRenewalMs;
        const retryAfter = Math.max(1, Math.ceil(lapsesInMs / 1000));
        throw new DomainError(
          'CONFLICT',
          'A request with this Idempotency-Key is still being processed; retry shortly.',
          undefined,
          Math.min(retryAfter, 5),
        );
      }
      // Swept between our claim and our read: claim again once.
      claim = await this.records.claim(scope, key, fingerprint);
      if (!claim) throw new DomainError('CONFLICT', 'Retry this request.');
    }

    setOperationId(req, scope, key);
    let stored: StoredResponse;
    this.heartbeat.hold(claim);
    try {
      const result = await lastValueFrom(next.handle(), { defaultValue: undefined });
      stored = await toStored(result, defaultStatus);
    } catch (error) {
      await this.records.abandon(claim).catch(() => undefined);
      throw error;
    } finally {
      this.heartbeat.release(claim);
    }
    // A claim taken over meanwhile (this replica stalled past the takeover time) stores nothing
    // here: the record is the taker's to complete.
    await this.records.complete(claim, stored);
    return new BytesReply(stored.body, stored.status, stored.contentType);
  }
}

function replay(stored: StoredResponse): BytesReply {
  return new BytesReply(stored.body, stored.status, stored.contentType, { 'idempotent-replayed': 'true' });
}

async function toStored(result: unknown, defaultStatus: number): Promise<StoredResponse> {
  if (result instanceof BytesReply)
    return { status: result.status, contentType: result.contentType, body: Buffer.from(result.body) };
  if (result instanceof Response) {
    return {
      status: result.status,
      contentType: result.headers.get('content-type') ?? 'application/json',
      body: Buffer.from(await result.arrayBuffer()),
    };
  }
  // Exactly what Express's res.json would have sent.
  return {
    status: defaultStatus,
    contentType: 'application/json; charset=utf-8',
    body: Buffer.from(JSON.stringify(result ?? null), 'utf8'),
  };
}

/** The OpenAPI extension marking an operation that takes Idempotency-Key (openapi.ts documents the header there). */
export const IDEMPOTENT_EXTENSION = 'x-vigil-idempotent';

/** A POST whose retries with one Idempotency-Key run once: the interceptor, and the header in /openapi.json. */
export const Idempotent = () =>
  applyDecorators(UseInterceptors(IdempotencyInterceptor), ApiExtension(IDEMPOTENT_EXTENSION, true));
