import { z } from 'zod';
import { SECURITY_EVENT_TYPES } from '../auth/events.js';
import { TIERS } from '../clients/tiers.js';

/**
 * `security.v1.event` (JetStream stream SECURITY): what the admin console's security log
 * shows — id, event, timestamp and details (ip, endpoint, adminEmail, clientName).
 */
export const securityEventSchema = z.object({
  id: z.uuid(),
  event: z.enum(SECURITY_EVENT_TYPES),
  timestamp: z.string(),
  details: z.object({
    ip: z.string().nullable(),
    endpoint: z.string(),
    method: z.string(),
    adminEmail: z.string().nullable(),
    clientName: z.string().nullable(),
    clientId: z.string().nullable(),
    userId: z.string().nullable(),
    requestId: z.string().nullable(),
    /** Why: e.g. "invalid_api_key", "expired_token", "tier_limit", "cross_tenant". */
    reason: z.string().nullable(),
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
