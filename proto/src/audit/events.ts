import { z } from 'zod';
import { monitoringActorSchema } from '../monitoring/monitoring.js';

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

export const REVIEW_DECISION_STEPS = ['decided', 'proposed', 'confirmed', 'returned'] as const;

/**
 * `screening.v1.review-decided` (JetStream stream SCREENINGS): a step of a review's decision.
 * `decided`: final at once; under four-eyes `proposed`, then `confirmed` by a second member or
 * `returned` to the queue. `decision` is the (proposed) outcome. Fields added with issue #19
 * default to null so events already in the stream still parse.
 */
export const reviewDecidedEventSchema = z.object({
  eventId: z.string(),
  reviewId: z.string(),
  screeningLogId: z.string(),
  clientId: z.string(),
  decision: z.enum(['approved', 'blocked']),
  step: z.enum(REVIEW_DECISION_STEPS).default('decided'),
  /** The signed-in user who acted; null when the decision came without a session. */
  actorId: z.string().nullable(),
  actorEmail: z.string().nullable().default(null),
  reasonCode: z.string().nullable().default(null),
  note: z.string().nullable().default(null),
  /** On a confirmation: the member who proposed. */
  proposedById: z.string().nullable().default(null),
  /** The remembered false positive the final approval created. */
  rememberedId: z.string().nullable().default(null),
  decidedAt: z.string(),
});

/**
 * `screening.v1.memory-changed` (JetStream stream SCREENINGS): a remembered false positive was
 * created (by a final approval) or revoked. Screening replicas also listen on core NATS to drop
 * their cached memories of the client.
 */
export const memoryChangedEventSchema = z.object({
  eventId: z.string(),
  memoryId: z.string(),
  clientId: z.string(),
  change: z.enum(['created', 'revoked']),
  reviewId: z.string(),
  /** The screening the remembered review came from. */
  screeningLogId: z.string(),
  entityId: z.string(),
  searchedName: z.string(),
  actorId: z.string().nullable(),
  actorEmail: z.string().nullable(),
  occurredAt: z.string(),
});

/**
 * `screening.v1.review-settings-changed` (JetStream stream SCREENINGS): a supervisor or owner set
 * the client's four-eyes setting. Sent on every update, a repeat of the same value included: the
 * trail shows who switched four-eyes off and on around a decision made alone.
 */
export const reviewSettingsChangedEventSchema = z.object({
  eventId: z.uuid(),
  clientId: z.string(),
  fourEyes: z.boolean(),
  /** The setting before this update (false when the client had never set it). */
  previousFourEyes: z.boolean(),
  actorId: z.string(),
  actorEmail: z.string().nullable(),
  actorRole: z.string(),
  occurredAt: z.string(),
});

/** What a client's own members changed, for the client's audit chain (issue #33). */
export const CLIENT_CHANGES = [
  'key.rotated',
  'member.added',
  'member.role_changed',
  'member.removed',
  'notifications.changed',
] as const;
export type ClientChange = (typeof CLIENT_CHANGES)[number];

/**
 * `auth.v1.client-changed` (JetStream stream AUTH_EVENTS): a member of a client rotated its key,
 * joined it, changed a member's role or removed one, or changed its e-mail notifications. The
 * actor is the signed-in member who did it (on `member.added`: who joined). Never a raw key:
 * a rotation carries the new key's prefix only.
 */
export const clientChangedEventSchema = z.object({
  id: z.uuid(),
  change: z.enum(CLIENT_CHANGES),
  clientId: z.string(),
  actorId: z.string(),
  actorEmail: z.string().nullable(),
  /** What changed: the member and their roles, the new key's prefix, the notification flags. */
  details: z.record(z.string(), z.unknown()),
  occurredAt: z.string(),
});

export type ClientChangedEvent = z.infer<typeof clientChangedEventSchema>;

/** What a client changed in monitoring, for the client's audit chain (issue #33). */
export const MONITORING_CHANGES = [
  'settings.changed',
  'webhook.registered',
  'webhook.deleted',
  'webhook.disabled',
  'webhook.secret_rotated',
] as const;
export type MonitoringChange = (typeof MONITORING_CHANGES)[number];

/**
 * `monitoring.v1.client-changed` (JetStream stream MONITORING_EVENTS): a client's member or its
 * API key changed the monitoring settings, registered a webhook or deleted one; or monitoring
 * itself (`system`) disabled a webhook whose endpoint answered 410 Gone. The actor is the member
 * (user id and e-mail), the key (its prefix) or the system. Never a webhook's signing secret.
 */
export const monitoringChangedEventSchema = z.object({
  id: z.uuid(),
  change: z.enum(MONITORING_CHANGES),
  clientId: z.string(),
  actor: z.discriminatedUnion('kind', [...monitoringActorSchema.options, z.object({ kind: z.literal('system') })]),
  /** What changed: the settings sent and as they now stand; the webhook's id, URL and event types. */
  details: z.record(z.string(), z.unknown()),
  occurredAt: z.string(),
});
export type MonitoringChangedEvent = z.infer<typeof monitoringChangedEventSchema>;
export type AdminActionEvent = z.infer<typeof adminActionEventSchema>;
export type ReviewDecidedEvent = z.infer<typeof reviewDecidedEventSchema>;
export type MemoryChangedEvent = z.infer<typeof memoryChangedEventSchema>;
export type ReviewSettingsChangedEvent = z.infer<typeof reviewSettingsChangedEventSchema>;
