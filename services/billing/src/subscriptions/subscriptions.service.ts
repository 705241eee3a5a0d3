import { Inject, Injectable, Logger } from '@nestjs/common';
import { Database, DomainError, type Transaction } from '@vigil/platform';
import {
  addMonth,
  planOf,
  TIERS,
  type BillingUser,
  type CheckoutSessionReply,
  type ClientByEmailResponse,
  type SandboxCheckoutSession,
  type SandboxCompleteCommand,
  type SandboxSessionQuery,
  type SubscriptionCheckReply,
  type SubscriptionStatus,
  type Tier,
  type WebhookReply,
} from '@vigil/proto';
import { AuthClients } from '../clients/auth-clients.adapter.js';
import { BILLING_CONFIG, type BillingConfig } from '../env.js';
import { MailOutboxRepository } from '../mail/mail-outbox.repository.js';
import {
  PAYMENT_PROVIDER,
  type PaymentProvider,
  type Period,
  type ProviderEvent,
} from '../payments/payment-provider.js';
import { SandboxPaymentProvider } from '../payments/sandbox.provider.js';
import { BillingEventsRepository } from '../quota-monitoring/billing-events.repository.js';
import { UsageResets } from '../quota-monitoring/usage-resets.service.js';
import { BillingEventsPublisher } from './billing-events.publisher.js';
import { CheckoutSessionsRepository } from './checkout-sessions.repository.js';
import { CustomersRepository, type Customer } from './customers.repository.js';
import { ProcessedEventsRepository } from './processed-events.repository.js';

export const CLIENT_NOT_FOUND = 'Client not found';

export function parseTier(value: string): Tier {
  const tier = value.trim().toLowerCase();
  if (!(TIERS as readonly string[]).includes(tier))
    throw new DomainError('INVALID_TIER', `Invalid tier "${value}": choose one of ${TIERS.join(', ')}.`);
  return tier as Tier;
}

/** What to do once the provider event's transaction has committed. */
type AfterCommit = () => Promise<void>;

/**
 * Checkout, provisioning and subscription state. Every provider event (a Stripe webhook or
 * a sandbox completion) goes through `apply`, in one transaction that first claims the
 * event id: a redelivery finds it claimed and changes nothing.
 */
@Injectable()
export class SubscriptionsService {
  private readonly logger = new Logger(SubscriptionsService.name);

  constructor(
    @Inject(BILLING_CONFIG) private readonly config: BillingConfig,
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
    private readonly db: Database,
    private readonly customers: CustomersRepository,
    private readonly sessions: CheckoutSessionsRepository,
    private readonly processed: ProcessedEventsRepository,
    private readonly billingEvents: BillingEventsRepository,
    private readonly auth: AuthClients,
    private readonly mail: MailOutboxRepository,
    private readonly publisher: BillingEventsPublisher,
    private readonly usage: UsageResets,
  ) {}

  async createCheckout(
    user: BillingUser,
    tierInput: string,
    clientEmail: string,
    clientName?: string,
  ): Promise<CheckoutSessionReply> {
    const tier = parseTier(tierInput);
    if (clientEmail !== user.email)
      throw new DomainError('FORBIDDEN', "Checkout is for the signed-in user's own e-mail address.");
    const existing = await this.customers.byEmail(clientEmail);
    if (existing && !existing.deleted && existing.subscription_status === 'active') {
      throw new DomainError('CONFLICT', 'This account already has an active subscription: upgrade it instead.');
    }
    const created = await this.provider.createCheckout({
      tier,
      email: clientEmail,
      userId: user.id,
      successUrl: `${this.config.WEB_URL}/payment/success?session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${this.config.WEB_URL}/payment/cancel`,
    });
    await this.sessions.insert({
      id: created.sessionId,
      provider: this.provider.kind,
      user_id: user.id,
      email: clientEmail,
      client_name: clientName ?? null,
      tier,
      amount_usd: planOf(tier).priceUsdPerMonth,
    });
    return { url: created.url, sessionId: created.sessionId };
  }

  async sandboxSession(query: SandboxSessionQuery): Promise<SandboxCheckoutSession> {
    const session = await this.ownSandboxSession(query);
    return {
      id: session.id,
      tier: session.tier,
      clientEmail: session.email,
      amount: session.amount_usd,
      status: session.status,
    };
  }

  /** The sandbox "pays" and then raises exactly what a Stripe checkout.session.completed would. */
  async sandboxComplete(command: SandboxCompleteCommand): Promise<{ redirectUrl: string }> {
    if (!(this.provider instanceof SandboxPaymentProvider))
      throw new DomainError('NOT_FOUND', 'The sandbox payment provider is not in use.');
    const session = await this.ownSandboxSession(command);
    if (session.status === 'expired')
      throw new DomainError('CONFLICT', 'This checkout session has expired: start again from the plans.');
    this.provider.pay(command.cardNumber);
    const now = new Date();
    await this.apply({
      kind: 'checkout_completed',
      eventId: `sandbox:${session.id}:completed`,
      occurredAt: now,
      sessionId: session.id,
      customerRef: null,
      subscriptionRef: null,
      period: { start: now, end: addMonth(now) },
    });
    return { redirectUrl: `${this.config.WEB_URL}/payment/success?session_id=${encodeURIComponent(session.id)}` };
  }

  async webhook(payload: string, signature: string): Promise<WebhookReply> {
    const event = this.provider.parseWebhook(payload, signature);
    const applied = await this.apply(event);
    return { received: true, duplicate: !applied };
  }

  /** Applies one provider event at most once. False: it had been applied before. */
  async apply(event: ProviderEvent): Promise<boolean> {
    const after: AfterCommit[] = [];
    const applied = await this.db.transaction(async (tx) => {
      if (!(await this.processed.claim(event.eventId, event.kind, tx))) return false;
      switch (event.kind) {
        case 'checkout_completed':
          await this.onCheckoutCompleted(event, tx, after);
          break;
        case 'subscription_updated':
          await this.onSubscriptionUpdated(event, tx, after);
          break;
        case 'subscription_deleted':
          await this.onStatus(event, 'cancelled', tx, after);
          break;
        case 'invoice_payment_failed':
          await this.onStatus(event, 'payment_failed', tx, after);
          break;
        case 'invoice_paid':
          await this.onInvoicePaid(event, tx, after);
          break;
        case 'ignored':
          break;
      }
      return true;
    });
    for (const step of after) await step();
    return applied;
  }

  async clientByEmail(user: BillingUser, email: string): Promise<ClientByEmailResponse> {
    if (email !== user.email)
      throw new DomainError('FORBIDDEN', 'You can only look up the client of your own e-mail address.');
    const customer = await this.customers.byEmail(email);
    if (!customer) throw new DomainError('NOT_FOUND', CLIENT_NOT_FOUND);
    const client = await this.auth.get(customer.client_id);
    const apiKey = await this.sessions.takePendingKey(customer.client_id);
    return {
      client: {
        id: client.id,
        client_name: client.client_name,
        ...(apiKey ? { api_key: apiKey } : {}),
        api_key_prefix: client.api_key_prefix,
        tier: client.tier,
        subscription_status: client.subscription_status,
        quota_month: client.quota_month,
        usage_month: client.usage_month,
      },
    };
  }

  async hasSubscription(user: BillingUser, clientId?: string | null): Promise<SubscriptionCheckReply> {
    // A team member's subscription is their client's, whoever bought it.
    const customer = (clientId ? await this.customers.byClientId(clientId) : undefined) ?? (await this.customers.byEmail(user.email));
    if (!customer || customer.deleted) return { hasSubscription: false, tier: null, subscription_status: null };
    return {
      hasSubscription: customer.subscription_status === 'active',
      tier: customer.tier,
      subscription_status: customer.subscription_status,
    };
  }

  async portal(clientId: string): Promise<{ url: string }> {
    const customer = await this.customers.byClientId(clientId);
    if (!customer)
      throw new DomainError(
        'CUSTOMER_NOT_FOUND',
        'No billing customer for this client: complete the initial setup first.',
      );
    if (customer.deleted)
      throw new DomainError('CUSTOMER_DELETED', 'The billing customer for this client was deleted: contact support.');
    return { url: await this.provider.createPortal(customer.provider_customer_id, `${this.config.WEB_URL}/account`) };
  }

  private async ownSandboxSession(query: SandboxSessionQuery) {
    const session = await this.sessions.get(query.sessionId);
    // Someone else's session is as good as none: do not confirm it exists.
    if (!session || session.provider !== 'sandbox' || session.user_id !== query.user.id)
      throw new DomainError('NOT_FOUND', 'Checkout session not found.');
    return session;
  }

  private async onCheckoutCompleted(
    event: Extract<ProviderEvent, { kind: 'checkout_completed' }>,
    tx: Transaction,
    after: AfterCommit[],
  ) {
    const session = await this.sessions.lock(event.sessionId, tx);
    if (!session) {
      // Not ours (another integration on the same Stripe account): nothing to do, and no retry will help.
      this.logger.warn(`checkout ${event.sessionId} is unknown; ignored`);
      return;
    }
    if (session.status === 'complete') return;
    const provisioned = await this.auth.provision({
      // The organisation named at onboarding; the e-mail address only when none was given.
      clientName: session.client_name ?? session.email,
      contactEmail: session.email,
      tier: session.tier,
      subscriptionStatus: 'active',
      userId: session.user_id,
    });
    const period: Period = event.period ?? { start: event.occurredAt, end: addMonth(event.occurredAt) };
    // Auth learns the billing period in the same step (the gateway counts usage by it): inside the
    // transaction, so if auth cannot be told the event is not claimed and is delivered again.
    const client = await this.auth.updateSubscription({
      clientId: provisioned.client.id,
      ...(provisioned.created ? {} : { tier: session.tier, subscriptionStatus: 'active' as const }),
      period: { start: period.start.toISOString(), end: period.end.toISOString() },
    });
    await this.customers.upsertActive(
      {
        client_id: client.id,
        email: session.email,
        user_id: session.user_id,
        tier: session.tier,
        provider: session.provider,
        provider_customer_id: event.customerRef,
        provider_subscription_id: event.subscriptionRef,
        period_start: period.start,
        period_end: period.end,
      },
      event.occurredAt,
      tx,
    );
    await this.sessions.complete(session.id, client.id, provisioned.api_key, tx);
    const plan = planOf(session.tier);
    // In the transaction: the welcome mail (with the key) is queued if and only if the checkout is recorded.
    await this.mail.enqueue(
      {
        to: session.email,
        subject: `Your Vigil ${plan.name} plan is active`,
        body: provisioned.api_key
          ? `Thank you for subscribing to Vigil ${plan.name}.\n\nYour API key: ${provisioned.api_key}\n\nKeep it secret: it is shown once. Send it in the x-api-key header.\nMonthly quota: ${client.quota_month} screenings.`
          : `Thank you for subscribing to Vigil ${plan.name}. Your existing API key (prefix ${client.api_key_prefix ?? 'none'}) keeps working.\nMonthly quota: ${client.quota_month} screenings.`,
      },
      tx,
    );
    after.push(async () => {
      await this.usage.claimWithoutReset(client.id, period);
      await this.publisher.subscriptionActivated({
        id: event.eventId,
        client_id: client.id,
        occurred_at: event.occurredAt.toISOString(),
        tier: session.tier,
        quota_month: client.quota_month,
        contact_email: session.email,
      });
    });
  }

  private async onSubscriptionUpdated(
    event: Extract<ProviderEvent, { kind: 'subscription_updated' }>,
    tx: Transaction,
    after: AfterCommit[],
  ) {
    const status: SubscriptionStatus | null =
      event.status === 'active'
        ? 'active'
        : event.status === 'past_due'
          ? 'past_due'
          : event.status === 'unpaid'
            ? 'payment_failed'
            : event.status === 'canceled'
              ? 'cancelled'
              : null;
    const customer = await this.customerFor(event.subscriptionRef, event.customerRef, tx);
    if (event.period) await this.rollPeriod(customer, event.period, tx, after);
    if (status) await this.onStatus(event, status, tx, after, customer);
  }

  private async onInvoicePaid(
    event: Extract<ProviderEvent, { kind: 'invoice_paid' }>,
    tx: Transaction,
    after: AfterCommit[],
  ) {
    const customer = await this.customerFor(event.subscriptionRef, event.customerRef, tx);
    if (event.period) await this.rollPeriod(customer, event.period, tx, after);
    // A paid invoice ends a payment failure.
    if (customer.subscription_status === 'payment_failed' || customer.subscription_status === 'past_due')
      await this.onStatus(event, 'active', tx, after, customer);
  }

  /** A later billing period starts usage afresh; an older one (a late event) changes nothing. */
  private async rollPeriod(customer: Customer, period: Period, tx: Transaction, after: AfterCommit[]) {
    if (period.start.getTime() < customer.period_start.getTime()) return;
    await this.customers.setPeriod(customer.client_id, period.start, period.end, tx);
    after.push(async () => void (await this.usage.resetForPeriod(customer.client_id, period)));
  }

  private async onStatus(
    event: Exclude<ProviderEvent, { kind: 'ignored' | 'checkout_completed' }>,
    status: SubscriptionStatus,
    tx: Transaction,
    after: AfterCommit[],
    known?: Customer,
  ) {
    const customer = known ?? (await this.customerFor(event.subscriptionRef, event.customerRef, tx));
    // An older event than the status we hold (webhooks come in any order) changes nothing.
    if (!(await this.customers.setStatus(customer.client_id, status, event.occurredAt, tx))) return;
    if (customer.subscription_status === status) return;
    await this.auth.updateSubscription({ clientId: customer.client_id, subscriptionStatus: status });
    if (status === 'payment_failed' || status === 'cancelled') {
      const client = await this.auth.get(customer.client_id);
      await this.billingEvents.record(
        {
          clientId: customer.client_id,
          period: customer.period_start.toISOString(),
          kind: status === 'payment_failed' ? 'payment_failed' : 'subscription_cancelled',
          clientName: client.client_name,
        },
        tx,
      );
      const payload = {
        id: event.eventId,
        client_id: customer.client_id,
        occurred_at: event.occurredAt.toISOString(),
        subscription_status: status,
      };
      after.push(() =>
        status === 'payment_failed'
          ? this.publisher.paymentFailed(payload)
          : this.publisher.subscriptionCancelled(payload),
      );
    }
  }

  /**
   * The customer an event is about. Unknown yet (the subscription event overtook its
   * checkout): fail so the event is not claimed and the provider redelivers it later.
   */
  private async customerFor(
    subscriptionRef: string | null,
    customerRef: string | null,
    tx: Transaction,
  ): Promise<Customer> {
    const customer = await this.customers.byProviderRefs(subscriptionRef, customerRef, tx);
    if (!customer)
      throw new DomainError(
        'SERVICE_UNAVAILABLE',
        'The subscription is not known yet; deliver this event again later.',
      );
    return customer;
  }
}
