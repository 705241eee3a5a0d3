import { z } from 'zod';

export const SECURITY_EVENT_TYPES = ['ADMIN_ACCESS', 'CLIENT_ACCESS', 'FAILED_AUTH', 'RATE_LIMIT_VIOLATION', 'SUSPICIOUS_ACTIVITY'] as const;

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

export type FailedAuthEvent = z.infer<typeof failedAuthEventSchema>;
