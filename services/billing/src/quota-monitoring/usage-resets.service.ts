import { Injectable, Logger } from '@nestjs/common';
import { AuthClients } from '../clients/auth-clients.adapter.js';
import type { Period } from '../payments/payment-provider.js';
import { CustomersRepository } from '../subscriptions/customers.repository.js';
import { addMonth } from '../upgrades/proration.js';
import { UsagePeriodsRepository } from './usage-periods.repository.js';

/**
 * Monthly usage starts again at each billing period boundary (the subscription's, not the
 * calendar's). Each (client, period start) is claimed once in usage_periods, so a
 * redelivered webhook or an overlapping schedule run resets nothing twice.
 */
@Injectable()
export class UsageResets {
  private readonly logger = new Logger(UsageResets.name);

  constructor(
    private readonly periods: UsagePeriodsRepository,
    private readonly customers: CustomersRepository,
    private readonly auth: AuthClients,
  ) {}

  /** The first period of a new subscription: usage is already what provisioning set. */
  async claimWithoutReset(clientId: string, period: Period): Promise<void> {
    await this.periods.claim(clientId, period.start, period.end);
  }

  /** Resets usage to 0 if this period has begun and was not reset before. True: it reset now. */
  async resetForPeriod(clientId: string, period: Period, now = new Date()): Promise<boolean> {
    if (period.start.getTime() > now.getTime()) return false;
    if (!(await this.periods.claim(clientId, period.start, period.end))) return false;
    try {
      await this.auth.updateSubscription({ clientId, usageMonth: 0 });
      return true;
    } catch (error) {
      await this.periods.release(clientId, period.start);
      throw error;
    }
  }

  /**
   * Sandbox subscriptions have no provider to announce renewals: roll their period on when it
   * ends. Stripe subscriptions roll on with invoice.paid / customer.subscription.updated.
   */
  async rollDuePeriods(now = new Date()): Promise<number> {
    let reset = 0;
    for (const customer of await this.customers.all()) {
      if (customer.provider !== 'sandbox' || customer.subscription_status !== 'active') continue;
      let start = customer.period_start;
      let end = customer.period_end;
      while (end.getTime() <= now.getTime()) {
        start = end;
        end = addMonth(end);
      }
      if (start.getTime() === customer.period_start.getTime()) continue;
      await this.customers.setPeriod(customer.client_id, start, end);
      try {
        if (await this.resetForPeriod(customer.client_id, { start, end }, now)) reset++;
      } catch (error) {
        this.logger.warn(`usage reset of ${customer.client_id} failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    return reset;
  }
}
