import { z } from 'zod';

export const SECURITY_EVENT_TYPES = [
  'ADMIN_ACCESS',
  'CLIENT_ACCESS',
  'FAILED_AUTH',
  'RATE_LIMIT_VIOLATION',
  'SUSPICIOUS_ACTIVITY',
] as const;

/**
 * Event `auth.v1.failed-auth` (JetStream stream AUTH_EVENTS): one failed sign-in (bad password,
 * unknown account, locked out, bad MFA code), stored by the audit service as a FAILED_AUTH
 * security event. Caused by callers without credentials, so every field is bounded.
 */
export const failedAuthEventSchema = z.object({
  id: z.uuid(),
  event: z.literal('FAILED_AUTH'),
  email: z.string().max(320),
  /** The account's user id when the email names one (null for an unknown address). */
  user_id: z.string().max(100).nullable().default(null),
  ip: z.string().max(100).nullable(),
  user_agent: z.string().max(512).nullable(),
  /** Which step failed. */
  reason: z.enum(['invalid_credentials', 'rate_limited', 'invalid_mfa_code', 'refresh_token_reused']),
  /** The auth route under /auth/v1/, e.g. `token?grant_type=password` or `factors/verify`. */
  endpoint: z.string().max(100),
  occurred_at: z.string().max(64),
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
