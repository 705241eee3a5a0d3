import { Injectable, Logger } from '@nestjs/common';
import { subjects, type MonitoringAlert, type MonitoringPush } from '@vigil/proto';
import { NatsEvents } from '../events/nats-events.js';

/** Tells the gateway's live-push streams about a client's new alerts and review items. */
@Injectable()
export class PushPublisher {
  private readonly logger = new Logger(PushPublisher.name);

  constructor(private readonly events: NatsEvents) {}

  alerts(clientId: string, alerts: readonly MonitoringAlert[]): void {
    for (const alert of alerts) this.send(clientId, { type: 'monitoring.alert', alert });
  }

  send(clientId: string, push: MonitoringPush): void {
    this.events.publish(subjects.monitoring.push(clientId), push).catch((error: unknown) => {
      this.logger.warn(`push to ${clientId} failed: ${error instanceof Error ? error.message : String(error)}`);
    });
  }
}
