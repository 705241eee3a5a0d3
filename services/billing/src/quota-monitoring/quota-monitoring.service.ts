import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { Client, QuotaCheckResponse, QuotaEvent, QuotaMonitoringResponse } from '@vigil/proto';
import { AuthClients } from '../clients/auth-clients.adapter.js';
import { BILLING_CONFIG, type BillingConfig } from '../env.js';
import { MailOutboxRepository } from '../mail/mail-outbox.repository.js';
import { CustomersRepository, type Customer } from '../subscriptions/customers.repository.js';
import { BillingEventsRepository } from './billing-events.repository.js';
import { UsageResets } from './usage-resets.service.js';

export const WARNING_PERCENT = 80;
const percentOf = (usage: number, quota: number) => (quota > 0 ? Math.round((usage / quota) * 1000) / 10 : 0);

type Row = { customer: Customer; client: Client };

/**
 * The admin's quota monitoring: who is near or over quota, whose payment failed, and what
 * billing told them. Warnings are keyed by the client's billing period, so a client is
 * warned (and e-mailed) at most once per kind per period however often the check runs.
 */
@Injectable()
export class QuotaMonitoringService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(QuotaMonitoringService.name);
  private timer: NodeJS.Timeout | undefined;
  private running = false;

  constructor(
    @Inject(BILLING_CONFIG) private readonly config: BillingConfig,
    private readonly customers: CustomersRepository,
    private readonly events: BillingEventsRepository,
    private readonly auth: AuthClients,
    private readonly mail: MailOutboxRepository,
    private readonly usage: UsageResets,
  ) {}

  onApplicationBootstrap() {
    if (this.config.BILLING_CHECK_INTERVAL_MS === 0) return;
    this.timer = setInterval(() => void this.scheduled(), this.config.BILLING_CHECK_INTERVAL_MS);
    this.timer.unref();
  }

  onApplicationShutdown() {
    clearInterval(this.timer);
  }

  async overview(): Promise<QuotaMonitoringResponse> {
    const rows = await this.rows();
    const usageRow = ({ client }: Row) => ({
      client_id: client.id,
      client_name: client.client_name,
      tier: client.tier,
      usage_month: client.usage_month,
      quota_month: client.quota_month,
      usage_percent: percentOf(client.usage_month, client.quota_month),
    });
    const recent = await this.events.recent(50);
    return {
      quotaWarnings: rows.filter(({ client }) => percentOf(client.usage_month, client.quota_month) >= WARNING_PERCENT).map(usageRow),
      quotaExceeded: rows.filter(({ client }) => client.quota_month > 0 && client.usage_month >= client.quota_month).map(usageRow),
      paymentFailures: rows
        .filter(({ client }) => client.subscription_status === 'payment_failed' || client.subscription_status === 'past_due')
        .map(({ client, customer }) => ({
          client_id: client.id,
          client_name: client.client_name,
          tier: client.tier,
          subscription_status: client.subscription_status,
          updated_at: customer.updated_at.toISOString(),
        })),
      recentEvents: recent.map((event) => ({
        id: event.id,
        event_type: event.event_type,
        client_id: event.client_id,
        client_name: event.client_name,
        usage: event.usage,
        quota: event.quota,
        percentage: event.percentage === null ? null : Number(event.percentage),
        created_at: event.created_at.toISOString(),
      })),
    };
  }

  /** Records and mails quota warnings (≥ 80%) and exceeded (≥ 100%) once per client, period and kind. */
  async checkWarnings(): Promise<QuotaCheckResponse> {
    // Usage of a period that has ended is not a reason to warn: start the new periods first.
    await this.usage.rollDuePeriods();
    const rows = await this.rows();
    let notified = 0;
    for (const { customer, client } of rows) {
      if (client.subscription_status !== 'active' || client.quota_month <= 0) continue;
      const percentage = percentOf(client.usage_month, client.quota_month);
      const kinds = [...(percentage >= WARNING_PERCENT ? (['quota_warning'] as const) : []), ...(percentage >= 100 ? (['quota_exceeded'] as const) : [])];
      for (const kind of kinds) {
        const period = customer.period_start.toISOString();
        const first = await this.events.record({ clientId: client.id, period, kind, clientName: client.client_name, usage: client.usage_month, quota: client.quota_month, percentage });
        // Recorded either way (the admin sees it); mailed only if the client wants such mail.
        if (!first || !(await this.allows(client.id, 'quota_warnings'))) continue;
        await this.mail.enqueue(this.quotaMail(kind, customer.email, client.client_name, client.usage_month, client.quota_month));
        await this.events.markNotified(client.id, period, kind);
        notified++;
      }
    }
    return { checked: rows.length, notified };
  }

  /**
   * The gateway counts usage and says when a client crosses 80% or 100%. Recorded under the
   * client's billing period, the same key the scheduled check uses, so whichever notices first
   * sends the one e-mail. True: this was the first such event of the period.
   */
  async recordGatewayEvent(event: QuotaEvent): Promise<boolean> {
    const customer = await this.customers.byClientId(event.client_id);
    const period = customer ? customer.period_start.toISOString() : event.period;
    const first = await this.events.record({
      clientId: event.client_id,
      period,
      kind: event.event_type,
      clientName: event.client_name,
      usage: event.usage,
      quota: event.quota,
      percentage: event.percentage,
    });
    if (!first || !customer) return first;
    if (await this.allows(event.client_id, 'quota_warnings')) {
      await this.mail.enqueue(this.quotaMail(event.event_type, customer.email, event.client_name, event.usage, event.quota));
      await this.events.markNotified(event.client_id, period, event.event_type);
    }
    return true;
  }

  /** Reminds clients whose payment failed, once per billing period. */
  async checkPayments(): Promise<QuotaCheckResponse> {
    const rows = (await this.rows()).filter(({ client }) => client.subscription_status === 'payment_failed' || client.subscription_status === 'past_due');
    let notified = 0;
    for (const { customer, client } of rows) {
      const period = customer.period_start.toISOString();
      if (!(await this.events.record({ clientId: client.id, period, kind: 'payment_recovery_reminder', clientName: client.client_name }))) continue;
      if (!(await this.allows(client.id, 'payment_failures'))) continue;
      await this.mail.enqueue({
        to: customer.email,
        subject: 'Action needed: update your payment method',
        body: `We could not collect the payment for ${client.client_name}'s Vigil subscription. Update your payment method from the account page to keep screening.`,
      });
      await this.events.markNotified(client.id, period, 'payment_recovery_reminder');
      notified++;
    }
    return { checked: rows.length, notified };
  }

  /** The client's notification settings: e-mail alerts on, and this kind on. */
  private async allows(clientId: string, kind: 'quota_warnings' | 'payment_failures'): Promise<boolean> {
    const settings = await this.auth.notificationSettings(clientId);
    return settings.email_alerts && settings[kind];
  }

  private quotaMail(kind: 'quota_warning' | 'quota_exceeded', to: string, clientName: string, usage: number, quota: number) {
    return kind === 'quota_warning'
      ? {
          to,
          subject: `You have used ${Math.floor(percentOf(usage, quota))}% of your Vigil quota`,
          body: `${clientName} has used ${usage} of ${quota} screenings this billing period. Upgrade to avoid interruptions.`,
        }
      : {
          to,
          subject: 'Your Vigil monthly quota is used up',
          body: `${clientName} has used all ${quota} screenings of this billing period. API calls are refused until the period resets or you upgrade.`,
        };
  }

  private async scheduled() {
    if (this.running) return;
    this.running = true;
    try {
      await this.checkWarnings();
      await this.checkPayments();
    } catch (error) {
      this.logger.warn(`scheduled billing checks failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      this.running = false;
    }
  }

  /**
   * Every customer whose client still exists. A deleted client keeps its billing customer (its
   * history stays) but has nothing left to monitor, warn or remind: it is left out, not an error.
   */
  private async rows(): Promise<Row[]> {
    const rows: Row[] = [];
    for (const customer of await this.customers.all()) {
      const client = await this.auth.find(customer.client_id);
      if (client) rows.push({ customer, client });
    }
    return rows;
  }
}
