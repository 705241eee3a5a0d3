import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { createHash } from 'node:crypto';

const OPERATION_ID = Symbol('vigil.idempotent-operation');

/** A name-based (version 5 style) UUID: the same text always gives the same id. */
export function nameBasedUuid(text: string): string {
  const bytes = createHash('sha1').update(text).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Set by the idempotency interceptor for a request that carries an Idempotency-Key. */
export function setOperationId(req: Request, scope: string, key: string) {
  (req as unknown as Record<symbol, string>)[OPERATION_ID] = nameBasedUuid(`vigil-operation:${scope}\n${key}`);
}

/**
 * The id of the operation an Idempotency-Key names, undefined without one. A handler that runs
 * again for the same key (its first run's answer was lost: the gateway died, or screening's reply
 * timed out after it had logged) hands it on, so the downstream write is the one already made.
 */
export const OperationId = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): string | undefined =>
    (ctx.switchToHttp().getRequest<Request>() as unknown as Record<symbol, string | undefined>)[OPERATION_ID],
);
