import { DomainError } from '@vigil/platform';
import { planOf, type Tier } from '@vigil/proto';
import Stripe from 'stripe';
import type { CheckoutCreated, CheckoutInput, PaymentProvider, Period, ProviderEvent, ProviderSubscriptionStatus, UpgradeCharge } from './payment-provider.js';

export type StripeProviderOptions = {
  secretKey: string;
  webhookSecret: string;
  toleranceSeconds: number;
  /** e.g. http://127.0.0.1:4010 in tests; unset: api.stripe.com. */
  apiUrl?: string;
};

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
/** Stripe expands references either as an id or as the object: take the id either way. */
const ref = (value: unknown): string | null => str(value) ?? str(obj(value).id);
const when = (seconds: unknown): Date | null => (typeof seconds === 'number' ? new Date(seconds * 1000) : null);
const period = (start: unknown, end: unknown): Period | null => {
  const s = when(start);
  const e = when(end);
  return s && e ? { start: s, end: e } : null;
};

const STATUSES: Readonly<Record<string, ProviderSubscriptionStatus>> = {
  active: 'active',
  trialing: 'active',
  past_due: 'past_due',
  unpaid: 'unpaid',
  canceled: 'canceled',
  incomplete: 'incomplete',
  incomplete_expired: 'canceled',
};

/** A subscription's period: on its items since API 2025-03-31, on the subscription before. */
function subscriptionPeriod(subscription: Json): Period | null {
  const item = obj((obj(subscription.items).data as unknown[] | undefined)?.[0]);
  return period(item.current_period_start, item.current_period_end) ?? period(subscription.current_period_start, subscription.current_period_end);
}

/** An invoice's subscription: under parent.subscription_details since API 2025-03-31, top level before. */
function invoiceSubscription(invoice: Json): string | null {
  return ref(obj(obj(invoice.parent).subscription_details).subscription) ?? ref(invoice.subscription);
}

function invoicePeriod(invoice: Json): Period | null {
  const line = obj((obj(invoice.lines).data as unknown[] | undefined)?.[0]);
  return period(obj(line.period).start, obj(line.period).end);
}

const unitAmountCents = (tier: Tier) => planOf(tier).priceUsdPerMonth * 100;

/**
 * Stripe through its SDK: Checkout in subscription mode with inline prices from the plan
 * catalogue (no Price ids to keep in sync), the Customer Portal, and webhooks verified
 * with the SDK (signature and timestamp tolerance).
 */
export class StripePaymentProvider implements PaymentProvider {
  readonly kind = 'stripe' as const;
  private readonly stripe: Stripe;

  constructor(private readonly options: StripeProviderOptions) {
    const api = options.apiUrl ? new URL(options.apiUrl) : undefined;
    this.stripe = new Stripe(options.secretKey, {
      maxNetworkRetries: 2,
      timeout: 20_000,
      ...(api ? { host: api.hostname, port: api.port || (api.protocol === 'https:' ? 443 : 80), protocol: api.protocol.replace(':', '') as 'http' | 'https' } : {}),
    });
  }

  async createCheckout(input: CheckoutInput): Promise<CheckoutCreated> {
    const plan = planOf(input.tier);
    const session = await this.call(() =>
      this.stripe.checkout.sessions.create({
        mode: 'subscription',
        customer_email: input.email,
        client_reference_id: input.userId,
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: 'usd',
              unit_amount: unitAmountCents(input.tier),
              recurring: { interval: 'month' },
              product_data: { name: `Vigil ${plan.name}`, metadata: { tier: input.tier } },
            },
          },
        ],
        metadata: { tier: input.tier, user_id: input.userId },
        subscription_data: { metadata: { tier: input.tier, user_id: input.userId } },
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
      }),
    );
    if (!session.url) throw new DomainError('PAYMENT_PROCESSING_ERROR', 'Stripe did not return a checkout URL.');
    return { sessionId: session.id, url: session.url };
  }

  async createPortal(customerRef: string | null, returnUrl: string): Promise<string> {
    if (!customerRef) throw new DomainError('CUSTOMER_NOT_FOUND', 'No Stripe customer for this client: complete the initial setup first.');
    const portal = await this.call(() => this.stripe.billingPortal.sessions.create({ customer: customerRef, return_url: returnUrl }));
    return portal.url;
  }

  parseWebhook(payload: string, signature: string): ProviderEvent {
    let event: Stripe.Event;
    try {
      event = this.stripe.webhooks.constructEvent(payload, signature, this.options.webhookSecret, this.options.toleranceSeconds);
    } catch (error) {
      throw new DomainError('INVALID_SIGNATURE', `Webhook signature verification failed: ${error instanceof Error ? error.message : 'unknown error'}`);
    }
    const data = obj(obj(event.data).object);
    const base = { eventId: event.id, occurredAt: new Date(event.created * 1000) };
    switch (event.type) {
      case 'checkout.session.completed':
        return { kind: 'checkout_completed', ...base, sessionId: str(data.id) ?? '', customerRef: ref(data.customer), subscriptionRef: ref(data.subscription), period: null };
      case 'customer.subscription.updated':
        return {
          kind: 'subscription_updated',
          ...base,
          subscriptionRef: str(data.id) ?? '',
          customerRef: ref(data.customer) ?? '',
          status: STATUSES[String(data.status)] ?? 'other',
          period: subscriptionPeriod(data),
        };
      case 'customer.subscription.deleted':
        return { kind: 'subscription_deleted', ...base, subscriptionRef: str(data.id) ?? '', customerRef: ref(data.customer) ?? '' };
      case 'invoice.payment_failed':
        return { kind: 'invoice_payment_failed', ...base, customerRef: ref(data.customer) ?? '', subscriptionRef: invoiceSubscription(data) };
      case 'invoice.paid':
        return { kind: 'invoice_paid', ...base, customerRef: ref(data.customer) ?? '', subscriptionRef: invoiceSubscription(data), period: invoicePeriod(data) };
      default:
        return { kind: 'ignored', eventId: event.id, type: event.type };
    }
  }

  /** Swaps the subscription item to the new tier's price without Stripe's own proration, then invoices ours now. */
  async upgrade(charge: UpgradeCharge): Promise<void> {
    if (!charge.customerRef || !charge.subscriptionRef) throw new DomainError('CUSTOMER_NOT_FOUND', 'No Stripe subscription for this client: complete the initial setup first.');
    const subscriptionRef = charge.subscriptionRef;
    const customerRef = charge.customerRef;
    const subscription = await this.call(() => this.stripe.subscriptions.retrieve(subscriptionRef));
    const item = subscription.items.data[0];
    if (!item) throw new DomainError('PAYMENT_PROCESSING_ERROR', 'The Stripe subscription has no item to upgrade.');
    const product = ref(item.price.product);
    if (!product) throw new DomainError('PAYMENT_PROCESSING_ERROR', 'The Stripe subscription item has no product.');
    await this.call(() =>
      this.stripe.subscriptions.update(subscriptionRef, {
        items: [{ id: item.id, price_data: { currency: 'usd', product, unit_amount: unitAmountCents(charge.toTier), recurring: { interval: 'month' } } }],
        proration_behavior: 'none',
        metadata: { tier: charge.toTier },
      }),
    );
    if (charge.proratedCents <= 0) return;
    await this.call(() => this.stripe.invoiceItems.create({ customer: customerRef, amount: charge.proratedCents, currency: 'usd', description: charge.description }));
    const invoice = await this.call(() => this.stripe.invoices.create({ customer: customerRef, pending_invoice_items_behavior: 'include', auto_advance: false }));
    await this.call(() => this.stripe.invoices.pay(invoice.id!));
  }

  /** A Stripe failure becomes a typed error: never a plain Error across NATS. */
  private async call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      if (error instanceof DomainError) throw error;
      const message = error instanceof Error ? error.message : String(error);
      throw new DomainError('PAYMENT_PROCESSING_ERROR', `Payment processing error: ${message}`);
    }
  }
}
