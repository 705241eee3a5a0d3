import { z } from 'zod';
import { emailAddress } from '../email.js';
import { INT4_MAX } from '../text.js';
import { authenticatedRequestSchema } from '../auth/common.js';
import { thresholdConfigSchema } from './thresholds.js';
import { FEEDS, SUBSCRIPTION_STATUSES, TIERS } from './tiers.js';

/** An API key as issued: 64 lowercase hex characters (256 bits from a CSPRNG). */
export const API_KEY_PATTERN = /^[0-9a-f]{64}$/;
export const API_KEY_PREFIX_LENGTH = 8;

export const clientSchema = z.object({
  id: z.uuid(),
  client_name: z.string(),
  contact_email: z.string().nullable(),
  tier: z.enum(TIERS),
  subscription_status: z.enum(SUBSCRIPTION_STATUSES),
  threshold_config: thresholdConfigSchema.nullable(),
  quota_month: z.number().int(),
  usage_month: z.number().int(),
  /** First 8 characters of the current key, or null when the key is revoked. */
  api_key_prefix: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

/** A client as answered right after its key was made: the only time the key is shown. */
export const clientWithKeySchema = clientSchema.extend({ api_key: z.string().regex(API_KEY_PATTERN) });

export const apiKeyStatusSchema = z.object({
  client_id: z.uuid(),
  status: z.enum(['active', 'revoked', 'none']),
  prefix: z.string().nullable(),
  created_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});

// Admin operations: the auth service checks the caller's token carries the admin role.
export const listClientsRequestSchema = authenticatedRequestSchema;
export const listClientsReplySchema = z.object({ clients: z.array(clientSchema) });

export const REQUIRED_FIELDS_MESSAGE = 'Please fill in all required fields';
export const createClientRequestSchema = authenticatedRequestSchema.extend({
  clientName: z.string().trim().min(1, { message: REQUIRED_FIELDS_MESSAGE }).max(200),
  tier: z.enum(TIERS, { message: REQUIRED_FIELDS_MESSAGE }),
  contactEmail: z.string().trim().toLowerCase().pipe(emailAddress()).optional(),
  subscriptionStatus: z.enum(SUBSCRIPTION_STATUSES).default('active'),
});

export const clientIdRequestSchema = authenticatedRequestSchema.extend({ clientId: z.uuid() });

export const CLIENT_NOT_FOUND_BY_KEY = 'Client not found with this API key';
export const findByKeyRequestSchema = authenticatedRequestSchema.extend({
  apiKey: z.string().trim().min(1, { message: 'API key is required' }).max(200),
});

export const updateThresholdsRequestSchema = authenticatedRequestSchema.extend({
  clientId: z.uuid(),
  /** null resets the client to the global thresholds. */
  threshold_config: thresholdConfigSchema.nullable(),
});

// Service-to-service: the gateway's API-key guard and billing.

/** `clients.v1.resolve-key`: the gateway hashes the presented key (SHA-256, hex) and asks who it belongs to. */
export const resolveKeyRequestSchema = z.object({ keyHash: z.string().regex(/^[0-9a-f]{64}$/) });
export const resolvedKeySchema = z.object({
  clientId: z.uuid(),
  clientName: z.string(),
  /** The active key; null only from `clients.v1.resolve-client` for a client without one. */
  keyId: z.uuid().nullable(),
  keyPrefix: z.string().nullable(),
  tier: z.enum(TIERS),
  subscriptionStatus: z.enum(SUBSCRIPTION_STATUSES),
  /** The client's own thresholds, or null when it uses the global ones. */
  thresholdConfig: thresholdConfigSchema.nullable(),
  /** What screening should use: the client's thresholds or the global defaults. */
  thresholds: thresholdConfigSchema,
  feeds: z.array(z.enum(FEEDS)),
  quotaMonth: z.number().int(),
  usageMonth: z.number().int(),
  rateLimitPerMinute: z.number().int(),
  /**
   * The client's current usage period [periodStart, periodEnd), ISO 8601: its billing period
   * (kept by billing through update-subscription, rolled monthly past its end until billing
   * renews it), or the UTC calendar month for a client without a subscription. The gateway keys
   * its quota counter by periodStart and tells a refused caller to come back at periodEnd.
   */
  periodStart: z.string(),
  periodEnd: z.string(),
});

/** Event `clients.v1.key-revoked`: drop any cached resolution of this key hash now. */
export const keyRevokedEventSchema = z.object({
  clientId: z.uuid(),
  keyId: z.uuid(),
  keyHash: z.string(),
  keyPrefix: z.string(),
  reason: z.enum(['regenerated', 'revoked', 'client_deleted']),
  revokedAt: z.string(),
});

/**
 * `clients.v1.provision` (billing, after a successful checkout): creates the client for an
 * account, or returns the existing one for that contact email; attaches the user if given.
 */
export const provisionClientRequestSchema = z.object({
  clientName: z.string().trim().min(1).max(200),
  contactEmail: z.string().trim().toLowerCase().pipe(emailAddress()),
  tier: z.enum(TIERS),
  subscriptionStatus: z.enum(SUBSCRIPTION_STATUSES).default('active'),
  userId: z.uuid().optional(),
});
export const provisionClientReplySchema = z.object({
  client: clientSchema,
  /** Present only when this call created the client (and so its first key). */
  api_key: z.string().regex(API_KEY_PATTERN).optional(),
  created: z.boolean(),
});

/**
 * `clients.v1.update-subscription` (billing, and the gateway's usage copy): tier changes reset
 * the quota to the tier's. A later billing period (`period`) resets usage to 0 once; an earlier
 * or equal one changes nothing. A usage copy names the period it counts (`usagePeriodStart`) and
 * is ignored if that period is older than the client's, so a copy racing a renewal cannot bring
 * last period's usage back.
 */
export const updateSubscriptionRequestSchema = z
  .object({
    clientId: z.uuid(),
    tier: z.enum(TIERS).optional(),
    subscriptionStatus: z.enum(SUBSCRIPTION_STATUSES).optional(),
    quotaMonth: z.number().int().min(0).max(INT4_MAX).optional(),
    usageMonth: z.number().int().min(0).max(INT4_MAX).optional(),
    usagePeriodStart: z.iso.datetime({ offset: true }).optional(),
    period: z.object({ start: z.iso.datetime({ offset: true }), end: z.iso.datetime({ offset: true }) }).optional(),
  })
  .refine((request) => request.usagePeriodStart === undefined || request.usageMonth !== undefined, {
    path: ['usagePeriodStart'],
    message: 'only with usageMonth',
  })
  .refine((request) => !request.period || Date.parse(request.period.start) < Date.parse(request.period.end), {
    path: ['period'],
    message: 'must end after it starts',
  });

export type Client = z.infer<typeof clientSchema>;
export type ClientWithKey = z.infer<typeof clientWithKeySchema>;
export type ApiKeyStatus = z.infer<typeof apiKeyStatusSchema>;
export type ListClientsReply = z.infer<typeof listClientsReplySchema>;
export type CreateClientRequest = z.infer<typeof createClientRequestSchema>;
export type ClientIdRequest = z.infer<typeof clientIdRequestSchema>;
export type FindByKeyRequest = z.infer<typeof findByKeyRequestSchema>;
export type UpdateThresholdsRequest = z.infer<typeof updateThresholdsRequestSchema>;
export type ResolveKeyRequest = z.infer<typeof resolveKeyRequestSchema>;
export type ResolvedKey = z.infer<typeof resolvedKeySchema>;
export type KeyRevokedEvent = z.infer<typeof keyRevokedEventSchema>;
export type ProvisionClientRequest = z.infer<typeof provisionClientRequestSchema>;
export type ProvisionClientReply = z.infer<typeof provisionClientReplySchema>;
export type UpdateSubscriptionRequest = z.infer<typeof updateSubscriptionRequestSchema>;
