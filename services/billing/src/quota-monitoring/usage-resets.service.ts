import { Injectable, Logger } from '@nestjs/common';
import { periodAt } from '@vigil/proto';
import { AuthClients } from '../clients/auth-clients.adapter.js';
import type { Period } from '../payments/payment-provider.js';
import { CustomersRepository } from '../subscriptions/customers.repository.js';
import { UsagePeriodsRepository } from './usage-periods.repository.js';

/**
 * Monthly usage starts again at each billing period boundary (the subscription's, not the
 * calendar's). Each (client, period start) is claimed once in usage_periods, so a
 * redelivered webhook or an overlapping schedule run resets nothing twice. Auth is told the new
 * period and resets its usage copy (once per period start, on its side too); the gateway counts
 * usage per period start, so its counter starts at 0 in the new period by itself.
 */
@Injectable()
export class UsageResets {
  private readonly logger = new Logger(UsageResets.name);

  constructor(
    private readonly periods: UsagePeriodsRepository,
    private readonly customers: CustomersRepository,
    private readonly auth: AuthClients,
  ) {}

  /** The first period of a new subscription: auth was told it with provisioning (usage 0 there). */
  async claimWithoutReset(clientId: string, period: Period): Promise<void> {
    await this.periods.claim(clientId, period.start, period.end);
  }

  /** Starts the period (usage 0) in auth if it has begun and was not started before. True: it started now. */
  async resetForPeriod(clientId: string, period: Period, now = new Date()): Promise<boolean> {
    if (period.start.getTime() > now.getTime()) return false;
    if (!(await this.periods.claim(clientId, period.start, period.end))) return false;
    try {
      await this.auth.updateSubscription({
        clientId,
        period: { start: period.start.toISOString(), end: period.end.toISOString() },
      });
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
      // The same successor auth already answers the gateway with (proto's periodAt).
      const { start, end } = periodAt({ start: customer.period_start, end: customer.period_end }, now);
      if (start.getTime() === customer.period_start.getTime()) continue;
      await this.customers.setPeriod(customer.client_id, start, end);
      try {
        if (await this.resetForPeriod(customer.client_id, { start, end }, now)) reset++;
      } catch (error) {
        this.logger.warn(
          `usage reset of ${customer.client_id} failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
    return reset;
  }
}
