import type { SubscriptionStatus, Tier } from '../clients/tiers.js';
import type { Plan } from '../plans.js';

/** `GET /api/v1/plans`: the plan catalogue; the web apps never keep their own copy of prices. */
export type PlansResponse = { plans: Plan[] };

/** `POST /api/payment/create-checkout-session` (bearer). The browser then goes to `url`. */
export type CheckoutSessionRequest = { tier: Tier; clientEmail: string };
export type CheckoutSessionResponse = { url: string; sessionId?: string };

/** `GET /api/payment/portal-session` (x-api-key): the billing portal, opened in a new tab. */
export type PortalSessionResponse = { url: string };

/**
 * `GET /api/payment/client-by-email/{email}` (bearer). The API key is present
 * only while the checkout's key has not yet been shown once.
 */
export type ClientByEmailResponse = {
  client: {
    id: string;
    client_name: string;
    api_key?: string;
    api_key_prefix?: string | null;
    tier: Tier;
    subscription_status: SubscriptionStatus;
    quota_month: number;
    usage_month: number;
  };
};

/** `GET /api/upgrade/options` */
export type UpgradeOption = {
  tier: Tier;
  tierName: string;
  price: number;
  proratedCost: number;
  quotaIncrease: number;
  newTotalQuota: number;
  features: { monthlyQuota: number; apiRateLimit: number; dashboardAccess: boolean; webSocketAccess: boolean };
};
export type UpgradeOptionsResponse = { upgradeOptions: UpgradeOption[] };

/** `GET /api/upgrade/preview?newTier=` */
export type UpgradePreview = { proratedCost: number; quotaIncrease: number; newTotalQuota: number; daysRemaining: number };

/** `POST /api/upgrade/upgrade` */
export type UpgradeRequest = { newTier: Tier };

/**
 * The sandbox payment provider's hosted checkout, rendered by the web app at
 * /payment/checkout?session_id=… (the checkout-session `url` points there in sandbox mode).
 * `GET /api/payment/sandbox/sessions/{id}` (bearer) describes the session.
 */
export type SandboxCheckoutSession = {
  id: string;
  tier: Tier;
  clientEmail: string;
  /** Whole US dollars charged now. */
  amount: number;
  status: 'open' | 'complete' | 'expired';
};

/** `POST /api/payment/sandbox/sessions/{id}/complete` (bearer): pays with the sandbox card; then go to `redirectUrl`. */
export type SandboxCompleteRequest = { cardNumber: string };
export type SandboxCompleteResponse = { redirectUrl: string };

/** `GET /api/payment/subscription` (bearer): the route guards' subscription check. */
export type SubscriptionCheckResponse = { hasSubscription: boolean; tier: Tier | null; subscription_status: SubscriptionStatus | null };

export const BILLING_EVENT_TYPES = ['quota_warning', 'quota_exceeded', 'payment_failed', 'subscription_cancelled', 'payment_recovery_reminder'] as const;
export type BillingEventType = (typeof BILLING_EVENT_TYPES)[number];

/** `GET /api/client/quota-monitoring` (admin). */
export type QuotaMonitoringResponse = {
  quotaWarnings: { client_id: string; client_name: string; tier: Tier; usage_month: number; quota_month: number; usage_percent: number }[];
  quotaExceeded: { client_id: string; client_name: string; tier: Tier; usage_month: number; quota_month: number; usage_percent: number }[];
  paymentFailures: { client_id: string; client_name: string; tier: Tier; subscription_status: SubscriptionStatus; updated_at: string }[];
  recentEvents: {
    id: string;
    event_type: BillingEventType;
    client_id: string;
    client_name: string;
    usage: number | null;
    quota: number | null;
    percentage: number | null;
    created_at: string;
  }[];
};

/** `POST /api/client/quota-monitoring/check-warnings` and `/check-payments` (admin). */
export type QuotaCheckResponse = { checked: number; notified: number };
