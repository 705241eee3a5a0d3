import { z } from 'zod';
import { createCheckoutRequestSchema, sandboxCompleteRequestSchema, upgradeRequestSchema } from '../billing/billing.js';
import { SUBSCRIPTION_STATUSES, TIERS } from '../clients/tiers.js';
import type { Plan } from '../plans.js';

const tier = z.enum(TIERS);
const subscriptionStatus = z.enum(SUBSCRIPTION_STATUSES);

/** `GET /api/v1/plans`: the plan catalogue; the web apps never keep their own copy of prices. */
export type PlansResponse = { plans: Plan[] };

/** `POST /api/payment/create-checkout-session` (bearer). The browser then goes to `url`. */
export type CheckoutSessionRequest = { tier: (typeof TIERS)[number]; clientEmail: string; clientName?: string };
export const checkoutSessionResponseSchema = z.object({ url: z.string(), sessionId: z.string().optional() });
export type CheckoutSessionResponse = z.infer<typeof checkoutSessionResponseSchema>;

/** `GET /api/payment/portal-session` (x-api-key): the billing portal, opened in a new tab. */
export const portalSessionResponseSchema = z.object({ url: z.string() });
export type PortalSessionResponse = z.infer<typeof portalSessionResponseSchema>;

/**
 * `GET /api/payment/client-by-email/{email}` (bearer). The API key is present
 * only while the checkout's key has not yet been shown once.
 */
export const clientByEmailResponseSchema = z.object({
  client: z.object({
    id: z.string(),
    client_name: z.string(),
    api_key: z.string().optional(),
    api_key_prefix: z.string().nullable().optional(),
    tier,
    subscription_status: subscriptionStatus,
    quota_month: z.number(),
    usage_month: z.number(),
  }),
});
export type ClientByEmailResponse = z.infer<typeof clientByEmailResponseSchema>;

/** `GET /api/upgrade/options` */
export const upgradeOptionSchema = z.object({
  tier,
  tierName: z.string(),
  price: z.number(),
  proratedCost: z.number(),
  quotaIncrease: z.number(),
  newTotalQuota: z.number(),
  features: z.object({
    monthlyQuota: z.number(),
    apiRateLimit: z.number(),
    dashboardAccess: z.boolean(),
    webSocketAccess: z.boolean(),
  }),
});
export type UpgradeOption = z.infer<typeof upgradeOptionSchema>;
export const upgradeOptionsResponseSchema = z.object({ upgradeOptions: z.array(upgradeOptionSchema) });
export type UpgradeOptionsResponse = z.infer<typeof upgradeOptionsResponseSchema>;

/** `GET /api/upgrade/preview?newTier=` */
export const upgradePreviewSchema = z.object({
  proratedCost: z.number(),
  quotaIncrease: z.number(),
  newTotalQuota: z.number(),
  daysRemaining: z.number(),
});
export type UpgradePreview = z.infer<typeof upgradePreviewSchema>;

/** `POST /api/upgrade/upgrade` */
export type UpgradeRequest = { newTier: (typeof TIERS)[number] };
export const upgradeResultSchema = upgradePreviewSchema.extend({ message: z.string(), tier, quota_month: z.number() });
export type UpgradeResult = z.infer<typeof upgradeResultSchema>;

/**
 * The sandbox payment provider's hosted checkout, rendered by the web app at
 * /payment/checkout?session_id=… (the checkout-session `url` points there in sandbox mode).
 * `GET /api/payment/sandbox/sessions/{id}` (bearer) describes the session.
 */
export const sandboxCheckoutSessionSchema = z.object({
  id: z.string(),
  tier,
  clientEmail: z.string(),
  /** Whole US dollars charged now. */
  amount: z.number(),
  status: z.enum(['open', 'complete', 'expired']),
});
export type SandboxCheckoutSession = z.infer<typeof sandboxCheckoutSessionSchema>;

/** `POST /api/payment/sandbox/sessions/{id}/complete` (bearer): pays with the sandbox card; then go to `redirectUrl`. */
export type SandboxCompleteRequest = { cardNumber: string };
export const sandboxCompleteResponseSchema = z.object({ redirectUrl: z.string() });
export type SandboxCompleteResponse = z.infer<typeof sandboxCompleteResponseSchema>;

/** `GET /api/payment/subscription` (bearer): the route guards' subscription check. */
export type SubscriptionCheckResponse = {
  hasSubscription: boolean;
  tier: (typeof TIERS)[number] | null;
  subscription_status: (typeof SUBSCRIPTION_STATUSES)[number] | null;
};

export const BILLING_EVENT_TYPES = [
  'quota_warning',
  'quota_exceeded',
  'payment_failed',
  'subscription_cancelled',
  'payment_recovery_reminder',
] as const;
export type BillingEventType = (typeof BILLING_EVENT_TYPES)[number];

const quotaRow = z.object({
  client_id: z.string(),
  client_name: z.string(),
  tier,
  usage_month: z.number(),
  quota_month: z.number(),
  usage_percent: z.number(),
});

/** `GET /api/client/quota-monitoring` (admin). */
export const quotaMonitoringResponseSchema = z.object({
  quotaWarnings: z.array(quotaRow),
  quotaExceeded: z.array(quotaRow),
  paymentFailures: z.array(
    z.object({
      client_id: z.string(),
      client_name: z.string(),
      tier,
      subscription_status: subscriptionStatus,
      updated_at: z.string(),
    }),
  ),
  recentEvents: z.array(
    z.object({
      id: z.string(),
      event_type: z.enum(BILLING_EVENT_TYPES),
      client_id: z.string(),
      client_name: z.string(),
      usage: z.number().nullable(),
      quota: z.number().nullable(),
      percentage: z.number().nullable(),
      created_at: z.string(),
    }),
  ),
});
export type QuotaMonitoringResponse = z.infer<typeof quotaMonitoringResponseSchema>;

/** `POST /api/client/quota-monitoring/check-warnings` and `/check-payments` (admin). */
export const quotaCheckResponseSchema = z.object({ checked: z.number(), notified: z.number() });
export type QuotaCheckResponse = z.infer<typeof quotaCheckResponseSchema>;

// Request bodies and queries of the billing routes: the NATS request schemas less what the
// gateway fills from the verified credential (the user, the key's client).

/** `POST /api/payment/create-checkout-session` */
export const checkoutBodySchema = createCheckoutRequestSchema.omit({ user: true });
/** `POST /api/payment/sandbox/sessions/{id}/complete` */
export const sandboxCompleteBodySchema = sandboxCompleteRequestSchema.pick({ cardNumber: true });
/** `POST /api/upgrade/upgrade` and `GET /api/upgrade/preview?newTier=` */
export const upgradeBodySchema = upgradeRequestSchema.pick({ newTier: true });
