import { z } from 'zod';
import { emailAddress } from '../email.js';
import { SUBSCRIPTION_STATUSES, TIERS } from '../clients/tiers.js';

// Billing's NATS contracts. The gateway verifies who is calling (session token, API key,
// admin role) and passes the verified identity; billing trusts only that.

/** A signed-in user as the gateway verified their access token. */
export const billingUserSchema = z.object({
  id: z.uuid(),
  email: z.string().trim().toLowerCase().pipe(emailAddress()),
});

export const TIER_REQUIRED_MESSAGE = 'Valid tier is required';
export const TIER_EMPTY_MESSAGE = 'Tier cannot be empty';
/** A tier as typed by a caller: a non-empty string first, then one of the tiers (INVALID_TIER otherwise). */
export const requestedTierSchema = z
  .string({ message: TIER_REQUIRED_MESSAGE })
  .trim()
  .min(1, { message: TIER_EMPTY_MESSAGE });

/** `billing.v1.checkout.create` */
export const createCheckoutRequestSchema = z.object({
  user: billingUserSchema,
  tier: requestedTierSchema,
  clientEmail: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.email({ message: 'A valid clientEmail is required' })),
  /**
   * The organisation the subscription is for (the client's client_name), asked at onboarding.
   * Without it the client is named after its e-mail address until renamed in Settings.
   */
  clientName: z.string().trim().min(1, { message: 'Please enter your organisation name' }).max(200).optional(),
});
export const checkoutSessionReplySchema = z.object({ url: z.string(), sessionId: z.string() });

/** `billing.v1.sandbox.session` / `billing.v1.sandbox.complete` */
export const sandboxSessionRequestSchema = z.object({ user: billingUserSchema, sessionId: z.string().min(1).max(200) });
export const sandboxCompleteRequestSchema = sandboxSessionRequestSchema.extend({
  cardNumber: z
    .string({ message: 'Card number is required' })
    .transform((value) => value.replace(/[\s-]/g, ''))
    .pipe(z.string().regex(/^\d{12,19}$/, { message: 'Card number must be 12 to 19 digits' })),
});

/** `billing.v1.webhook`: the raw body exactly as received (signatures cover the bytes) and the Stripe-Signature header. */
export const webhookRequestSchema = z.object({ payload: z.string(), signature: z.string().default('') });
export const webhookReplySchema = z.object({ received: z.literal(true), duplicate: z.boolean() });

/** Routes called with an API key: the gateway resolved it to a client. */
export const clientRequestSchema = z.object({ clientId: z.uuid() });

/** `billing.v1.client-by-email` */
export const clientByEmailRequestSchema = z.object({
  user: billingUserSchema,
  email: z.string().trim().toLowerCase().pipe(emailAddress()),
});

/** `billing.v1.subscription`: the route guards' hasSubscription. */
export const subscriptionCheckRequestSchema = z.object({
  user: billingUserSchema,
  /**
   * The client the verified session names, if any: a team member shares its subscription although
   * billing knows only the owner's address (absent: older gateways; the address decides).
   */
  clientId: z.uuid().nullable().optional(),
});
export const subscriptionCheckReplySchema = z.object({
  hasSubscription: z.boolean(),
  tier: z.enum(TIERS).nullable(),
  subscription_status: z.enum(SUBSCRIPTION_STATUSES).nullable(),
});

/** `billing.v1.upgrade.preview` / `billing.v1.upgrade.apply` */
export const upgradeRequestSchema = z.object({ clientId: z.uuid(), newTier: requestedTierSchema });

// Events (core NATS, at-least-once from billing's point of view: consumers key on `id`).
const billingEventBase = z.object({ id: z.string(), client_id: z.uuid(), occurred_at: z.string() });
export const subscriptionActivatedEventSchema = billingEventBase.extend({
  tier: z.enum(TIERS),
  quota_month: z.number().int(),
  contact_email: z.string(),
});
export const tierChangedEventSchema = billingEventBase.extend({
  from_tier: z.enum(TIERS),
  to_tier: z.enum(TIERS),
  quota_month: z.number().int(),
  rate_limit_per_minute: z.number().int(),
  prorated_cost_cents: z.number().int(),
});
export const subscriptionStatusEventSchema = billingEventBase.extend({
  subscription_status: z.enum(SUBSCRIPTION_STATUSES),
});

export type BillingUser = z.infer<typeof billingUserSchema>;
export type CreateCheckoutRequest = z.infer<typeof createCheckoutRequestSchema>;
export type CheckoutSessionReply = z.infer<typeof checkoutSessionReplySchema>;
export type SandboxSessionQuery = z.infer<typeof sandboxSessionRequestSchema>;
export type SandboxCompleteCommand = z.infer<typeof sandboxCompleteRequestSchema>;
export type WebhookRequest = z.infer<typeof webhookRequestSchema>;
export type WebhookReply = z.infer<typeof webhookReplySchema>;
export type SubscriptionCheckReply = z.infer<typeof subscriptionCheckReplySchema>;
export type SubscriptionActivatedEvent = z.infer<typeof subscriptionActivatedEventSchema>;
export type TierChangedEvent = z.infer<typeof tierChangedEventSchema>;
export type SubscriptionStatusEvent = z.infer<typeof subscriptionStatusEventSchema>;
