import type { Tier } from '@vigil/proto';

export type ProviderKind = 'sandbox' | 'stripe';

export type CheckoutInput = { tier: Tier; email: string; userId: string; successUrl: string; cancelUrl: string };
export type CheckoutCreated = { sessionId: string; url: string };

/** A subscription's current billing period, as the provider counts it. */
export type Period = { start: Date; end: Date };

/**
 * What billing reacts to, whichever provider said it. `occurredAt` orders events that
 * arrive out of order; `eventId` makes a redelivery harmless.
 */
export type ProviderEvent =
  | { kind: 'checkout_completed'; eventId: string; occurredAt: Date; sessionId: string; customerRef: string | null; subscriptionRef: string | null; period: Period | null }
  | { kind: 'subscription_updated'; eventId: string; occurredAt: Date; subscriptionRef: string; customerRef: string; status: ProviderSubscriptionStatus; period: Period | null }
  | { kind: 'subscription_deleted'; eventId: string; occurredAt: Date; subscriptionRef: string; customerRef: string }
  | { kind: 'invoice_payment_failed'; eventId: string; occurredAt: Date; customerRef: string; subscriptionRef: string | null }
  | { kind: 'invoice_paid'; eventId: string; occurredAt: Date; customerRef: string; subscriptionRef: string | null; period: Period | null }
  | { kind: 'ignored'; eventId: string; type: string };

export type ProviderSubscriptionStatus = 'active' | 'past_due' | 'unpaid' | 'canceled' | 'incomplete' | 'other';

export type UpgradeCharge = { customerRef: string | null; subscriptionRef: string | null; fromTier: Tier; toTier: Tier; proratedCents: number; description: string };

/** One payment provider: Stripe in production, the sandbox for development and tests. */
export type PaymentProvider = {
  readonly kind: ProviderKind;
  createCheckout(input: CheckoutInput): Promise<CheckoutCreated>;
  createPortal(customerRef: string | null, returnUrl: string): Promise<string>;
  /** Verifies and decodes a webhook delivery; throws INVALID_SIGNATURE when it is not the provider's. */
  parseWebhook(payload: string, signature: string): ProviderEvent;
  /** Moves the subscription to the new tier and charges the proration now; throws PAYMENT_PROCESSING_ERROR when that fails. */
  upgrade(charge: UpgradeCharge): Promise<void>;
};

export const PAYMENT_PROVIDER = Symbol('PAYMENT_PROVIDER');
