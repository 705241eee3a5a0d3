import { Injectable, Logger } from '@nestjs/common';
import { DomainError, EventPublisher } from '@vigil/platform';
import { subjects, type ApiStatusResponse, type QuotaEvent, type ResolvedKey } from '@vigil/proto';
import { QuotaLeases, type Outcome, type Ticket } from './quota-leases.service.js';
import { UsageSync } from './usage-sync.service.js';

/**
 * The usage period a counter belongs to: the client's billing period as auth resolved it with
 * the key (a calendar month for a client without a subscription). Its start is an opaque key:
 * a new period is a new counter, so usage starts at 0 exactly when the period rolls over, and a
 * repeated renewal (same start) cannot reset it twice.
 */
export function quotaPeriod(client: Pick<ResolvedKey, 'periodStart'>): string {
  return client.periodStart;
}

/** Seconds until the period ends and usage starts again (at least 1): a refused caller's Retry-After. */
export function secondsUntilPeriodEnd(client: Pick<ResolvedKey, 'periodEnd'>, at = new Date()): number {
  return Math.max(1, Math.ceil((Date.parse(client.periodEnd) - at.getTime()) / 1000));
}

/** Which thresholds a usage change crossed: 80% (warning) and 100% (exceeded). */
export function crossings(before: number, after: number, quota: number): Array<QuotaEvent['event_type']> {
  const crossed: Array<QuotaEvent['event_type']> = [];
  const warning = Math.ceil(quota * 0.8);
  if (before < warning && after >= warning) crossed.push('quota_warning');
  if (before < quota && after >= quota) crossed.push('quota_exceeded');
  return crossed;
}

/** Names counted for one request, under a lease whose reference the request carries to screening. */
export type Reservation = { clientId: string; period: string; amount: number; ticket: Ticket };

/**
 * How a failed screening ended for its lease's settlement: an error screening answered with is
 * definite (it logs before it answers, and answers nothing it did not log); a timeout or a lost
 * connection may have been logged, and so may a lapsed-lease refusal of one bulk slice among
 * logged ones: those wait for the logs to say.
 */
export function outcomeOf(error: unknown): Outcome {
  const code = error instanceof DomainError ? error.code : undefined;
  return code === undefined || code === 'UPSTREAM_TIMEOUT' || code === 'SERVICE_UNAVAILABLE' || code === 'INTERNAL'
    ? 'unknown'
    : 'refused';
}

/**
 * Monthly quota accounting. Each screened name answered counts one. The counter lives in the
 * gateway's Postgres schema: it is shared by every replica and survives restarts. Replicas
 * take it in leased blocks (QuotaLeases) and count requests in memory; a block is counted in
 * Postgres before any of it is used, so the quota is never overshot however many replicas
 * serve the client at once, and each lease is settled to the screens answered under it.
 */
@Injectable()
export class Quotas {
  private readonly logger = new Logger(Quotas.name);

  constructor(
    private readonly leases: QuotaLeases,
    private readonly events: EventPublisher,
    private readonly usage: UsageSync,
  ) {}

  /**
   * Refuses callers whose subscription is not active, then counts `amount` names or refuses.
   * `windowMs`: how long the work may take (its answer-by time is no later). The reservation must
   * be ended with `settle`.
   */
  async reserve(client: ResolvedKey, amount: number, windowMs?: number): Promise<Reservation> {
    if (client.subscriptionStatus !== 'active') {
      throw new DomainError(
        'SUBSCRIPTION_INACTIVE',
        `The subscription is ${client.subscriptionStatus.replace('_', ' ')}; screening resumes once it is active again.`,
      );
    }
    const period = quotaPeriod(client);
    const taken = await this.leases.take(
      { clientId: client.clientId, period, periodEnd: client.periodEnd, quota: client.quotaMonth },
      amount,
      windowMs,
    );
    if (taken === null) {
      const current = await this.leases.answered(client.clientId, period);
      const remaining = Math.max(0, client.quotaMonth - current);
      throw new DomainError(
        'QUOTA_EXCEEDED',
        remaining === 0
          ? `The monthly quota of ${client.quotaMonth} screenings is used up until the billing period resets (${client.periodEnd}) or the plan is upgraded.`
          : `This request needs ${amount} screenings but only ${remaining} of the monthly ${client.quotaMonth} remain.`,
        undefined,
        secondsUntilPeriodEnd(client),
      );
    }
    // The total moves a block at a time: a threshold is announced when the block that crosses it is taken.
    for (const type of crossings(taken.before, taken.total, client.quotaMonth))
      this.announce(type, client, period, taken.total);
    this.usage.changed(client.clientId, period);
    return { clientId: client.clientId, period, amount, ticket: taken.ticket };
  }

  /**
   * Reports how the reserved work ended. The lease is settled to what screening logged under it,
   * so the client pays only for answers; a refusal frees its names at once for the next request.
   */
  settle(reservation: Reservation, outcome: Outcome) {
    this.leases.end(reservation.ticket, outcome);
    if (outcome === 'refused') this.usage.changed(reservation.clientId, reservation.period);
  }

  async status(client: ResolvedKey): Promise<ApiStatusResponse> {
    const period = quotaPeriod(client);
    const usage = await this.leases.answered(client.clientId, period);
    return {
      tier: client.tier,
      usage,
      quota: client.quotaMonth,
      remaining: Math.max(0, client.quotaMonth - usage),
      client: client.clientName,
      subscriptionStatus: client.subscriptionStatus,
      period,
      periodEnd: client.periodEnd,
    };
  }

  private announce(type: QuotaEvent['event_type'], client: ResolvedKey, period: string, usage: number) {
    const event: QuotaEvent = {
      // One event per client, period and threshold, whichever replica notices first.
      id: `${type}:${client.clientId}:${period}`,
      event_type: type,
      client_id: client.clientId,
      client_name: client.clientName,
      tier: client.tier,
      period,
      usage,
      quota: client.quotaMonth,
      percentage: Math.round((usage / Math.max(1, client.quotaMonth)) * 1000) / 10,
      created_at: new Date().toISOString(),
    };
    const subject = type === 'quota_warning' ? subjects.gateway.quotaWarning : subjects.gateway.quotaExceeded;
    this.events.publish(subject, event, event.id).catch((error: unknown) => {
      this.logger.warn(`could not publish ${type}: ${error instanceof Error ? error.message : String(error)}`);
    });
  }
}
