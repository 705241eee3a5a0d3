import { z } from 'zod';
import { SECURITY_EVENT_TYPES } from '../auth/events.js';
import { TIERS } from '../clients/tiers.js';
import { REQUEST_ID_PATTERN } from '../subjects.js';

/** The longest endpoint a security event carries: the gateway cuts longer paths (issue #33). */
export const SECURITY_EVENT_ENDPOINT_MAX = 256;

/**
 * `security.v1.event` (JetStream stream SECURITY): what the admin console's security log
 * shows — id, event, timestamp and details (ip, endpoint, adminEmail, clientName). Many are
 * caused by callers without credentials and the log keeps them for good, so every field is
 * bounded and the request id has the shape the gateway accepts (issue #33).
 */
export const securityEventSchema = z.object({
  id: z.uuid(),
  event: z.enum(SECURITY_EVENT_TYPES),
  timestamp: z.string().max(64),
  details: z.object({
    ip: z.string().max(100).nullable(),
    endpoint: z.string().max(SECURITY_EVENT_ENDPOINT_MAX),
    method: z.string().max(16),
    adminEmail: z.string().max(320).nullable(),
    clientName: z.string().max(200).nullable(),
    clientId: z.string().max(100).nullable(),
    userId: z.string().max(100).nullable(),
    requestId: z.string().regex(REQUEST_ID_PATTERN).nullable(),
    /** Why: e.g. "invalid_api_key", "expired_token", "tier_limit", "cross_tenant". */
    reason: z.string().max(200).nullable(),
  }),
});

export const QUOTA_EVENT_TYPES = ['quota_warning', 'quota_exceeded'] as const;

/** `quota.v1.warning` / `quota.v1.exceeded` (JetStream stream QUOTA): a client crossed 80% or 100% of its month. */
export const quotaEventSchema = z.object({
  id: z.string(),
  event_type: z.enum(QUOTA_EVENT_TYPES),
  client_id: z.uuid(),
  client_name: z.string(),
  tier: z.enum(TIERS),
  /** The usage period's start, ISO 8601: the client's billing period (ResolvedKey.periodStart). */
  period: z.string(),
  usage: z.number().int(),
  quota: z.number().int(),
  percentage: z.number(),
  created_at: z.string(),
});

export type SecurityEvent = z.infer<typeof securityEventSchema>;
export type QuotaEvent = z.infer<typeof quotaEventSchema>;
