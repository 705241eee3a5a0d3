import { DomainError } from '@vigil/platform';
import type { CallerContext } from '@vigil/proto';
import type { Request } from 'express';

/** The bearer token of a request; the auth service verifies it (signature, expiry, live session, role). */
export function bearerToken(req: Request): string {
  const match = /^Bearer\s+(\S+)$/i.exec(req.header('authorization') ?? '');
  if (!match) throw new DomainError('UNAUTHENTICATED', 'Sign in first: this request needs an Authorization: Bearer access token.');
  return match[1]!;
}

/** What the auth service records about the caller (brute-force accounting, FAILED_AUTH events, session list). */
export function callerContext(req: Request): CallerContext {
  const userAgent = req.header('user-agent');
  return { ...(req.ip ? { ip: req.ip } : {}), ...(userAgent ? { userAgent: userAgent.slice(0, 512) } : {}) };
}

/** Request body as an object, whatever was posted: validation then reports missing fields instead of crashing. */
export function bodyOf(req: Request): Record<string, unknown> {
  return req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};
}
