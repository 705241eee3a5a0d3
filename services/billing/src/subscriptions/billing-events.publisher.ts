import { Injectable, Logger } from '@nestjs/common';
import { RpcClient } from '@vigil/platform';
import { subjects, type SubscriptionActivatedEvent, type SubscriptionStatusEvent, type TierChangedEvent } from '@vigil/proto';

/**
 * Billing's events on core NATS, published after the change is committed. A lost event
 * costs nothing essential: the gateway re-reads tier and status from auth within its
 * key-cache TTL (≤ 5 s); the events tell listeners sooner.
 */
@Injectable()
export class BillingEventsPublisher {
  private readonly logger = new Logger(BillingEventsPublisher.name);

  constructor(private readonly rpc: RpcClient) {}

  subscriptionActivated(event: SubscriptionActivatedEvent) {
    return this.publish(subjects.billing.subscriptionActivated, event);
  }

  tierChanged(event: TierChangedEvent) {
    return this.publish(subjects.billing.tierChanged, event);
  }

  paymentFailed(event: SubscriptionStatusEvent) {
    return this.publish(subjects.billing.paymentFailed, event);
  }

  subscriptionCancelled(event: SubscriptionStatusEvent) {
    return this.publish(subjects.billing.subscriptionCancelled, event);
  }

  private async publish(subject: string, payload: unknown) {
    try {
      await this.rpc.emit(subject, payload);
    } catch (error) {
      this.logger.warn(`could not publish ${subject}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
