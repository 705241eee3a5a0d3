import { Inject, Injectable } from '@nestjs/common';
import { Database, DomainError, type Transaction } from '@vigil/platform';
import { planOf, TIERS, type Tier, type TierChangedEvent, type UpgradeOption, type UpgradeOptionsResponse, type UpgradePreview } from '@vigil/proto';
import { AuthClients } from '../clients/auth-clients.adapter.js';
import { BILLING_CONFIG, type BillingConfig } from '../env.js';
import { PAYMENT_PROVIDER, type PaymentProvider } from '../payments/payment-provider.js';
import { BillingEventsPublisher } from '../subscriptions/billing-events.publisher.js';
import { CustomersRepository, type Customer } from '../subscriptions/customers.repository.js';
import { parseTier } from '../subscriptions/subscriptions.service.js';
import { prorate } from './proration.js';
import { UpgradesRepository } from './upgrades.repository.js';

const rank = (tier: Tier) => TIERS.indexOf(tier);

export type UpgradeResult = UpgradePreview & { message: string; tier: Tier; quota_month: number };

/** Mid-period upgrades: charge the documented proration now, raise the quota at once. */
@Injectable()
export class UpgradesService {
  constructor(
    @Inject(BILLING_CONFIG) private readonly config: BillingConfig,
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
    private readonly db: Database,
    private readonly customers: CustomersRepository,
    private readonly upgrades: UpgradesRepository,
    private readonly auth: AuthClients,
    private readonly publisher: BillingEventsPublisher,
  ) {}

  async options(clientId: string, now = new Date()): Promise<UpgradeOptionsResponse> {
    const customer = await this.customer(clientId);
    const current = await this.auth.get(clientId);
    const upgradeOptions: UpgradeOption[] = TIERS.filter((tier) => rank(tier) > rank(customer.tier)).map((tier) => {
      const plan = planOf(tier);
      const preview = this.previewOf(customer, current.quota_month, tier, now);
      return {
        tier,
        tierName: plan.name,
        price: plan.priceUsdPerMonth,
        proratedCost: preview.proratedCost,
        quotaIncrease: preview.quotaIncrease,
        newTotalQuota: preview.newTotalQuota,
        features: { monthlyQuota: plan.monthlyQuota, apiRateLimit: plan.rateLimitPerMinute, dashboardAccess: plan.dashboardAccess, webSocketAccess: plan.webSocketAccess },
      };
    });
    return { upgradeOptions };
  }

  async preview(clientId: string, newTier: string, now = new Date()): Promise<UpgradePreview> {
    const customer = await this.customer(clientId);
    const tier = this.checkTarget(customer, newTier);
    const current = await this.auth.get(clientId);
    return this.previewOf(customer, current.quota_month, tier, now);
  }

  /**
   * Holds the customer row for the whole upgrade, so a double click cannot charge twice: the
   * second request waits, then finds the client already on the tier.
   */
  upgrade(clientId: string, newTier: string, now = new Date()): Promise<UpgradeResult> {
    return this.db
      .transaction(async (tx) => this.upgradeLocked(this.present(await this.customers.lockByClientId(clientId, tx)), newTier, now, tx))
      .then(async ({ result, event }) => {
        await this.publisher.tierChanged(event);
        return result;
      });
  }

  private async upgradeLocked(customer: Customer, newTier: string, now: Date, tx: Transaction): Promise<{ result: UpgradeResult; event: TierChangedEvent }> {
    const clientId = customer.client_id;
    const tier = this.checkTarget(customer, newTier);
    if (customer.subscription_status !== 'active') {
      throw new DomainError('SUBSCRIPTION_INACTIVE', `Subscription not active (${customer.subscription_status.replace('_', ' ')}): settle the payment before upgrading.`);
    }
    const current = await this.auth.get(clientId);
    const proration = prorate(planOf(customer.tier).priceUsdPerMonth, planOf(tier).priceUsdPerMonth, customer.period_start, customer.period_end, now);
    if (!Number.isFinite(proration.proratedCents) || proration.proratedCents < 0) throw new DomainError('INVALID_UPGRADE_COST', 'Invalid upgrade cost.');
    if (proration.proratedCost > this.config.MAX_UPGRADE_CHARGE_USD) {
      throw new DomainError('UPGRADE_COST_TOO_HIGH', `Upgrade cost too high: $${proration.proratedCost.toFixed(2)} exceeds the $${this.config.MAX_UPGRADE_CHARGE_USD} limit; contact support.`);
    }
    await this.provider.upgrade({
      customerRef: customer.provider_customer_id,
      subscriptionRef: customer.provider_subscription_id,
      fromTier: customer.tier,
      toTier: tier,
      proratedCents: proration.proratedCents,
      description: `Upgrade ${planOf(customer.tier).name} → ${planOf(tier).name}, ${proration.daysRemaining} of ${proration.daysInPeriod} days`,
    });
    // Charged: now the quota, at once. Usage is kept; only the ceiling rises.
    const client = await this.auth.updateSubscription({ clientId, tier });
    await this.customers.setTier(clientId, tier, tx);
    await this.upgrades.insert({ clientId, fromTier: customer.tier, toTier: tier, proratedCents: proration.proratedCents, daysRemaining: proration.daysRemaining }, tx);
    const event: TierChangedEvent = {
      id: `upgrade:${clientId}:${now.toISOString()}`,
      client_id: clientId,
      occurred_at: now.toISOString(),
      from_tier: customer.tier,
      to_tier: tier,
      quota_month: client.quota_month,
      rate_limit_per_minute: planOf(tier).rateLimitPerMinute,
      prorated_cost_cents: proration.proratedCents,
    };
    const result: UpgradeResult = {
      message: `Upgraded to ${planOf(tier).name}: your quota has been increased immediately.`,
      tier,
      quota_month: client.quota_month,
      proratedCost: proration.proratedCost,
      quotaIncrease: client.quota_month - current.quota_month,
      newTotalQuota: client.quota_month,
      daysRemaining: proration.daysRemaining,
    };
    return { result, event };
  }

  private previewOf(customer: Customer, currentQuota: number, tier: Tier, now: Date): UpgradePreview {
    const proration = prorate(planOf(customer.tier).priceUsdPerMonth, planOf(tier).priceUsdPerMonth, customer.period_start, customer.period_end, now);
    const newTotalQuota = planOf(tier).monthlyQuota;
    return { proratedCost: proration.proratedCost, quotaIncrease: newTotalQuota - currentQuota, newTotalQuota, daysRemaining: proration.daysRemaining };
  }

  private checkTarget(customer: Customer, newTier: string): Tier {
    const tier = parseTier(newTier);
    if (tier === customer.tier) throw new DomainError('ALREADY_ON_TIER', `You are already on the ${planOf(tier).name} tier.`);
    if (rank(tier) < rank(customer.tier)) throw new DomainError('CANNOT_DOWNGRADE', 'Cannot downgrade here: use the billing portal to change to a lower plan.');
    return tier;
  }

  private async customer(clientId: string): Promise<Customer> {
    return this.present(await this.customers.byClientId(clientId));
  }

  private present(customer: Customer | undefined): Customer {
    if (!customer) throw new DomainError('CUSTOMER_NOT_FOUND', 'Customer not found: complete the initial setup first.');
    if (customer.deleted) throw new DomainError('CUSTOMER_DELETED', 'The billing customer for this client was deleted: contact support.');
    return customer;
  }
}
