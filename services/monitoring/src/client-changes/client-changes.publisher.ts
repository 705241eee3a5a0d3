import { Injectable, Logger } from '@nestjs/common';
import { EventPublisher } from '@vigil/platform';
import { events, type MonitoringChangedEvent, type WebhookEndpoint } from '@vigil/proto';
import { randomUUID } from 'node:crypto';

/**
 * A client's changes to its monitoring settings and webhooks, into MONITORING_EVENTS for the
 * client's audit chain (issue #33). Published after the change committed, as auth publishes its
 * client changes, the event id as message id so a retried publish is stored once. A broker
 * failure is logged, not answered: the change itself stands (monitoring has no event outbox).
 */
@Injectable()
export class ClientChangesPublisher {
  private readonly logger = new Logger(ClientChangesPublisher.name);

  constructor(private readonly durable: EventPublisher) {}

  async changed(change: Omit<MonitoringChangedEvent, 'id' | 'occurredAt'>): Promise<void> {
    const event: MonitoringChangedEvent = { id: randomUUID(), occurredAt: new Date().toISOString(), ...change };
    await this.durable.publish(events.monitoring.clientChanged.subject, event, event.id).catch((error: unknown) => {
      const reason = error instanceof Error ? error.message : String(error);
      this.logger.warn(`could not publish a monitoring change of ${change.clientId}: ${reason}`);
    });
  }

  /** Monitoring stopped an endpoint that answered 410 Gone: nobody asked, so the actor is the system. */
  async webhookDisabled(clientId: string, endpoint: WebhookEndpoint | null): Promise<void> {
    if (!endpoint) return;
    await this.changed({
      change: 'webhook.disabled',
      clientId,
      actor: { kind: 'system' },
      details: {
        webhook_id: endpoint.id,
        url: endpoint.url,
        event_types: endpoint.event_types,
        reason: endpoint.disabled_reason,
      },
    });
  }
}
