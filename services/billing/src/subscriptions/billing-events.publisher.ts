import { Injectable } from '@nestjs/common';
import { RpcClient } from '@vigil/platform';
import { events, type SubscriptionActivatedEvent, type SubscriptionStatusEvent, type TierChangedEvent } from '@vigil/proto';

/**
 * Billing's events on core NATS, published after the change is committed. A lost event
 * costs nothing essential: the gateway re-reads tier and status from auth within its
 * key-cache TTL (≤ 5 s); the events tell listeners sooner.
 */
@Injectable()
export class BillingEventsPublisher {
  constructor(private readonly rpc: RpcClient) {}

  subscriptionActivated(event: SubscriptionActivatedEvent) {
    return this.rpc.emit(events.billing.subscriptionActivated, event);
  }

  tierChanged(event: TierChangedEvent) {
    return this.rpc.emit(events.billing.tierChanged, event);
  }

  paymentFailed(event: SubscriptionStatusEvent) {
    return this.rpc.emit(events.billing.paymentFailed, event);
  }

  subscriptionCancelled(event: SubscriptionStatusEvent) {
    return this.rpc.emit(events.billing.subscriptionCancelled, event);
  }
}
