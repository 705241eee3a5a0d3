import { z } from 'zod';
import { emailAddress } from '../email.js';
import { FEEDS, TIERS } from '../clients/tiers.js';
import { thresholdConfigSchema } from '../clients/thresholds.js';

// Ongoing monitoring (spec §3 Monitored entity / Monitoring stats / Monitoring alert, §4, §5, §7, §9):
// a client's monitored entities, the alerts raised when one of them matches a list entity, the
// client's monitoring settings and its webhook endpoints. Every request carries `caller`, the
// verified client as the gateway resolved it: monitoring keeps the last one it saw, because it
// re-screens in the background (list updates, scheduled checks) with the client's own feeds and
// thresholds, when no request is there to say what they are.

export const CHECK_FREQUENCIES = ['daily', 'weekly', 'monthly'] as const;
export const MONITORING_STATUSES = ['active', 'paused', 'stopped'] as const;
export const ALERT_SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
/** §4 "Client-list entry screening status". */
export const ENTRY_SCREENING_STATUSES = ['sanctioned', 'review', 'clear', 'unknown'] as const;
export const ALERT_TYPES = ['new_match', 'changed_match', 'check_match'] as const;
export const WEBHOOK_EVENT_TYPES = ['monitoring.alert', 'screening.review_required', 'bulk_job.completed'] as const;
/**
 * What `POST /api/monitoring/webhooks/{id}/test` sends: signed and recorded like every delivery,
 * to that endpoint whatever it subscribes to (nobody subscribes to it).
 */
export const WEBHOOK_TEST_EVENT = 'webhook.test';
/** Where a monitored entity came from: added on the Ongoing Monitoring page, or an entry of a client list. */
export const MONITORED_ORIGINS = ['manual', 'client_list'] as const;

export const MONITORING_PAGE_MAX = 500;
export const MONITORING_BULK_MAX = 1000;

export type CheckFrequency = (typeof CHECK_FREQUENCIES)[number];
export type MonitoringStatus = (typeof MONITORING_STATUSES)[number];
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];
export type EntryScreeningStatus = (typeof ENTRY_SCREENING_STATUSES)[number];
export type AlertType = (typeof ALERT_TYPES)[number];
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The verified client, from the gateway's key resolution. */
export const monitoringCallerSchema = z.object({
  clientId: z.string().min(1).max(100),
  tier: z.enum(TIERS),
  feeds: z.array(z.enum(FEEDS)).min(1).max(FEEDS.length),
  thresholds: thresholdConfigSchema,
});
export type MonitoringCaller = z.infer<typeof monitoringCallerSchema>;

/**
 * Who changes a client's monitoring settings or webhooks, named on the client's audit chain
 * (issue #33): the signed-in member, or a bank's server holding the API key alone, by the key's
 * prefix (never the key). Filled by the gateway from the verified credentials, never from a body.
 */
export const monitoringActorSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('user'), userId: z.string().min(1).max(100), email: z.string().max(320) }),
  z.object({ kind: z.literal('api_key'), keyPrefix: z.string().min(1).max(40) }),
]);
export type MonitoringActor = z.infer<typeof monitoringActorSchema>;

const idSchema = z.uuid({ message: 'must be an id (uuid)' });
const name = z.string().trim().min(1, 'entity_name is required').max(300);
const pageLimit = z.number().int().min(1).max(MONITORING_PAGE_MAX).default(50);
const pageOffset = z.number().int().min(0).max(10_000_000).default(0);

/** §7 POST /api/monitoring/entities; §5: entity_name required, email and notes optional, frequency daily|weekly|monthly. */
export const newMonitoredEntitySchema = z.object({
  entity_name: name,
  entity_email: z
    .union([emailAddress(), z.literal('')])
    .nullish()
    .transform((v) => v || null),
  entity_aliases: z.array(z.string().trim().min(1).max(300)).max(50).default([]),
  /** Absent: the client's default from settings (daily unless changed). */
  check_frequency: z.enum(CHECK_FREQUENCIES).optional(),
  notes: z
    .string()
    .trim()
    .max(2000)
    .nullish()
    .transform((v) => v || null),
});
export type NewMonitoredEntity = z.input<typeof newMonitoredEntitySchema>;

export const monitoredEntitySchema = z.object({
  id: z.string(),
  entity_name: z.string(),
  entity_email: z.string().nullable(),
  entity_aliases: z.array(z.string()),
  check_frequency: z.enum(CHECK_FREQUENCIES),
  notes: z.string().nullable(),
  monitoring_status: z.enum(MONITORING_STATUSES),
  last_checked: z.string().nullable(),
  next_check_due: z.string().nullable(),
  alert_count: z.number().int().nonnegative(),
  origin: z.enum(MONITORED_ORIGINS),
  client_list_id: z.string().nullable(),
  /** The last check's outcome (§4 client-list statuses): unknown until a check has answered. */
  screening_status: z.enum(ENTRY_SCREENING_STATUSES),
  screening_score: z.number().nullable(),
  screening_source: z.string().nullable(),
  screening_details: z.string().nullable(),
  created_at: z.string(),
});
export type MonitoredEntity = z.infer<typeof monitoredEntitySchema>;

export const createMonitoredEntityRequestSchema = newMonitoredEntitySchema.extend({ caller: monitoringCallerSchema });
export const listMonitoredEntitiesQuerySchema = z.object({
  status: z.enum(MONITORING_STATUSES).optional(),
  origin: z.enum(MONITORED_ORIGINS).optional(),
  limit: pageLimit,
  offset: pageOffset,
});
export const listMonitoredEntitiesRequestSchema = listMonitoredEntitiesQuerySchema.extend({
  caller: monitoringCallerSchema,
});
export const monitoredEntitiesReplySchema = z.object({
  entities: z.array(monitoredEntitySchema),
  total: z.number().int().nonnegative(),
  limit: z.number().int(),
  offset: z.number().int(),
});
export const updateMonitoredEntityBodySchema = z.object({ monitoring_status: z.enum(MONITORING_STATUSES) });
export const updateMonitoredEntityRequestSchema = updateMonitoredEntityBodySchema.extend({
  caller: monitoringCallerSchema,
  id: idSchema,
});
export const monitoredEntityRefRequestSchema = z.object({ caller: monitoringCallerSchema, id: idSchema });
export const deleteMonitoredEntityReplySchema = z.object({ id: z.string(), deleted: z.literal(true) });

export const monitoringAlertSchema = z.object({
  id: z.string(),
  entity_id: z.string().nullable(),
  entity_name: z.string(),
  matched_sanctioned_name: z.string(),
  matched_entity_id: z.string(),
  match_score: z.number(),
  match_source: z.string(),
  alert_type: z.enum(ALERT_TYPES),
  severity: z.enum(ALERT_SEVERITIES),
  alert_message: z.string(),
  triggered_at: z.string(),
  is_acknowledged: z.boolean(),
  acknowledged_at: z.string().nullable(),
  /** Set when the list entity was removed (or the match superseded): the alert is closed, with why. */
  closed_at: z.string().nullable(),
  closed_note: z.string().nullable(),
});
export type MonitoringAlert = z.infer<typeof monitoringAlertSchema>;

export const checkMonitoredEntityReplySchema = z.object({
  entity: monitoredEntitySchema,
  /** Alerts this check raised (an unchanged match already alerted is not raised again). */
  alerts: z.array(monitoringAlertSchema),
});

export const listAlertsQuerySchema = z.object({
  acknowledged: z.boolean().optional(),
  severity: z.enum(ALERT_SEVERITIES).optional(),
  limit: pageLimit,
  offset: pageOffset,
});
export const listAlertsRequestSchema = listAlertsQuerySchema.extend({ caller: monitoringCallerSchema });
export const alertsReplySchema = z.object({
  alerts: z.array(monitoringAlertSchema),
  total: z.number().int().nonnegative(),
  limit: z.number().int(),
  offset: z.number().int(),
});
export const alertRefRequestSchema = z.object({ caller: monitoringCallerSchema, id: idSchema });

export const monitoringStatsSchema = z.object({
  total_monitored: z.number().int(),
  active_monitored: z.number().int(),
  overdue_checks: z.number().int(),
  unacknowledged_alerts: z.number().int(),
  critical_alerts: z.number().int(),
  last_check_time: z.string().nullable(),
});
export const callerOnlyRequestSchema = z.object({ caller: monitoringCallerSchema });
export const monitoringStatsReplySchema = z.object({ stats: monitoringStatsSchema });

export const monitoringSettingsSchema = z.object({
  /** Used when an entity is added without a check_frequency. */
  default_check_frequency: z.enum(CHECK_FREQUENCIES),
  /** Re-screen the monitored names a list update could match, as soon as it is published. */
  rescreen_on_list_update: z.boolean(),
  /** Raise alerts for review-band matches too (otherwise only for blocked ones). */
  alert_on_review: z.boolean(),
});
export const DEFAULT_MONITORING_SETTINGS: Readonly<MonitoringSettings> = Object.freeze({
  default_check_frequency: 'daily',
  rescreen_on_list_update: true,
  alert_on_review: true,
});
export const monitoringSettingsChangeSchema = monitoringSettingsSchema.partial().strict();
export const updateMonitoringSettingsRequestSchema = monitoringSettingsSchema
  .partial()
  .extend({ caller: monitoringCallerSchema, actor: monitoringActorSchema });
export const monitoringSettingsReplySchema = z.object({ settings: monitoringSettingsSchema });

export const bulkAddBodySchema = z.object({
  entities: z
    .array(newMonitoredEntitySchema)
    .min(1, 'Please enter at least one entity')
    .max(MONITORING_BULK_MAX, `Maximum ${MONITORING_BULK_MAX} entities allowed per batch`),
});
export const bulkAddRequestSchema = bulkAddBodySchema.extend({ caller: monitoringCallerSchema });
export const bulkAddReplySchema = z.object({ entities: z.array(monitoredEntitySchema), created: z.number().int() });
export const bulkRemoveBodySchema = z.object({
  entityIds: z
    .array(idSchema)
    .min(1, 'Please select at least one entity')
    .max(MONITORING_BULK_MAX, `Maximum ${MONITORING_BULK_MAX} entities per request`),
});
export const bulkRemoveRequestSchema = bulkRemoveBodySchema.extend({ caller: monitoringCallerSchema });
export const bulkRemoveReplySchema = z.object({ removed: z.number().int(), entityIds: z.array(z.string()) });

export const monitoringServiceStatusSchema = z.object({
  status: z.enum(['operational', 'degraded']),
  scheduler: z.object({ running: z.boolean(), last_run_at: z.string().nullable(), overdue_checks: z.number().int() }),
  list_updates: z.object({
    consumer_running: z.boolean(),
    /** The last list version whose delta was re-screened, for any client. */
    last_version: z.object({ source: z.string(), version_id: z.number().int(), processed_at: z.string() }).nullable(),
  }),
  webhooks: z.object({ pending_deliveries: z.number().int() }),
});
export const monitoringServiceStatusReplySchema = monitoringServiceStatusSchema;

// Webhooks (small tier and up): Standard Webhooks deliveries to a client's HTTPS endpoints.
export const createWebhookBodySchema = z.object({
  url: z.url({ protocol: /^https?$/, message: 'must be an https:// URL' }).max(2000),
  event_types: z.array(z.enum(WEBHOOK_EVENT_TYPES)).min(1, 'pick at least one event type').max(3),
  description: z.string().trim().max(200).optional(),
});
export const createWebhookRequestSchema = createWebhookBodySchema.extend({
  caller: monitoringCallerSchema,
  actor: monitoringActorSchema,
});
export const webhookEndpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  event_types: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  description: z.string().nullable(),
  enabled: z.boolean(),
  disabled_reason: z.string().nullable(),
  created_at: z.string(),
});
/** The secret (`whsec_…`) is in this reply only: it is not shown again. */
export const createWebhookReplySchema = z.object({ webhook: webhookEndpointSchema, secret: z.string() });
export const webhooksReplySchema = z.object({ webhooks: z.array(webhookEndpointSchema) });
export const webhookRefRequestSchema = z.object({ caller: monitoringCallerSchema, id: idSchema });
/** A deletion is a change: it names who made it. */
export const deleteWebhookRequestSchema = webhookRefRequestSchema.extend({ actor: monitoringActorSchema });
/**
 * A new signing secret for an endpoint, replacing the old one at once (a leaked secret must stop
 * verifying): the reply carries it, as a registration's does, and it is not shown again.
 */
export const rotateWebhookSecretRequestSchema = webhookRefRequestSchema.extend({ actor: monitoringActorSchema });
export const deleteWebhookReplySchema = z.object({ id: z.string(), deleted: z.literal(true) });
export const webhookAttemptSchema = z.object({
  attempted_at: z.string(),
  status_code: z.number().int().nullable(),
  error: z.string().nullable(),
  duration_ms: z.number().int(),
});
export const webhookDeliverySchema = z.object({
  id: z.string(),
  event_type: z.enum([...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT]),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.array(webhookAttemptSchema),
  next_attempt_at: z.string().nullable(),
  created_at: z.string(),
  delivered_at: z.string().nullable(),
});
export const webhookDeliveriesQuerySchema = z.object({ limit: pageLimit, offset: pageOffset });
export const webhookDeliveriesRequestSchema = webhookRefRequestSchema.extend(webhookDeliveriesQuerySchema.shape);
export const webhookDeliveriesReplySchema = z.object({ deliveries: z.array(webhookDeliverySchema) });
/** The test event's delivery, after its one attempt (a test is not retried: its sender is watching). */
export const testWebhookReplySchema = z.object({ delivery: webhookDeliverySchema });

/** Live push (core NATS, `monitoring.v1.push.<clientId>`): what the gateway streams to the dashboard. */
export const monitoringPushSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('monitoring.alert'), alert: monitoringAlertSchema }),
  z.object({
    type: z.literal('screening.review_required'),
    review: z.object({
      screening_id: z.string(),
      searched_name: z.string().nullable(),
      matched_name: z.string().nullable(),
      score: z.number(),
      created_at: z.string(),
    }),
  }),
]);
export type MonitoringPush = z.infer<typeof monitoringPushSchema>;

/**
 * `POST /api/monitoring/live-ticket`: a single-use ticket that opens the WebSocket beside the SSE
 * stream (`GET /api/monitoring/live?ticket=…`, the same events as JSON text frames). A browser
 * cannot set headers on a WebSocket, so the credentials are checked on this ordinary request and
 * the ticket, good for `expires_in` seconds and one connection, carries what they decided.
 */
export const liveTicketSchema = z.object({
  ticket: z.string(),
  /** The path to open, ticket included (resolve it against the gateway's ws:// or wss:// origin). */
  path: z.string(),
  expires_in: z.number().int(),
});
export type LiveTicket = z.infer<typeof liveTicketSchema>;

export type MonitoringSettings = z.infer<typeof monitoringSettingsSchema>;
export type MonitoringStats = z.infer<typeof monitoringStatsSchema>;
export type MonitoredEntitiesReply = z.infer<typeof monitoredEntitiesReplySchema>;
export type AlertsReply = z.infer<typeof alertsReplySchema>;
export type CheckMonitoredEntityReply = z.infer<typeof checkMonitoredEntityReplySchema>;
export type BulkAddReply = z.infer<typeof bulkAddReplySchema>;
export type BulkRemoveReply = z.infer<typeof bulkRemoveReplySchema>;
export type MonitoringServiceStatus = z.infer<typeof monitoringServiceStatusSchema>;
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;
export type CreateWebhookReply = z.infer<typeof createWebhookReplySchema>;
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;
export type TestWebhookReply = z.infer<typeof testWebhookReplySchema>;
export type WebhookAttempt = z.infer<typeof webhookAttemptSchema>;
export type ParsedCreateMonitoredEntityRequest = z.infer<typeof createMonitoredEntityRequestSchema>;
export type ParsedNewMonitoredEntity = z.infer<typeof newMonitoredEntitySchema>;
