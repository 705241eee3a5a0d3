import { z } from 'zod';

export const SECURITY_EVENT_TYPES = [
  'ADMIN_ACCESS',
  'CLIENT_ACCESS',
  'FAILED_AUTH',
  'RATE_LIMIT_VIOLATION',
  'SUSPICIOUS_ACTIVITY',
] as const;

/** Event `auth.v1.failed-auth`: one failed sign-in (bad password, unknown account, locked out, bad MFA code). */
export const failedAuthEventSchema = z.object({
  id: z.uuid(),
  event: z.literal('FAILED_AUTH'),
  email: z.string(),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  /** Which step failed. */
  reason: z.enum(['invalid_credentials', 'rate_limited', 'invalid_mfa_code', 'refresh_token_reused']),
  endpoint: z.string(),
  occurred_at: z.string(),
});

/**
 * Event `auth.v1.session-revoked`: a session ended before its expiry (sign-out, revoke,
 * refresh-token reuse, password reset). A verifier that checks access tokens locally
 * can deny-list `session_id` (the token's `sid`) until the token's `exp`.
 */
export const sessionRevokedEventSchema = z.object({
  session_id: z.uuid(),
  user_id: z.uuid(),
  reason: z.string(),
  revoked_at: z.string(),
});

export type FailedAuthEvent = z.infer<typeof failedAuthEventSchema>;
export type SessionRevokedEvent = z.infer<typeof sessionRevokedEventSchema>;
