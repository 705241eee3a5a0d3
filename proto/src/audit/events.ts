import { z } from 'zod';

// Events the audit service stores that no other contract already describes. Each carries an
// id that is also its Nats-Msg-Id, so a re-publication is dropped by the stream and a
// redelivery by the audit tables' unique constraint.

export const ADMIN_ACTIONS = [
  'client.created',
  'client.deleted',
  'key.regenerated',
  'key.revoked',
  'thresholds.changed',
  'tier.changed',
  'lists.refreshed',
] as const;
export type AdminAction = (typeof ADMIN_ACTIONS)[number];

/**
 * `admin.v1.action` (JetStream stream ADMIN_ACTIONS): an administrator changed something,
 * published by the gateway after the change succeeded.
 */
export const adminActionEventSchema = z.object({
  id: z.uuid(),
  action: z.enum(ADMIN_ACTIONS),
  /** The administrator's user id and e-mail, from the verified session token. */
  actorId: z.string().min(1),
  actorEmail: z.string().nullable(),
  /** The client acted upon, if any (a list refresh has none). */
  clientId: z.string().nullable(),
  clientName: z.string().nullable(),
  ip: z.string().nullable(),
  endpoint: z.string(),
  requestId: z.string().nullable(),
  /** What changed: the new tier, the new thresholds, the refreshed sources… */
  details: z.record(z.string(), z.unknown()),
  occurredAt: z.string(),
});

/** `screening.v1.review-decided` (JetStream stream SCREENINGS): an analyst cleared or blocked a pending review. */
export const reviewDecidedEventSchema = z.object({
  eventId: z.string(),
  reviewId: z.string(),
  screeningLogId: z.string(),
  clientId: z.string(),
  decision: z.enum(['approved', 'blocked']),
  /** The signed-in user who decided; null when the decision came without a session. */
  actorId: z.string().nullable(),
  decidedAt: z.string(),
});

export type AdminActionEvent = z.infer<typeof adminActionEventSchema>;
export type ReviewDecidedEvent = z.infer<typeof reviewDecidedEventSchema>;
