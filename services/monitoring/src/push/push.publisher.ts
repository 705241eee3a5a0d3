import { Injectable, Logger } from '@nestjs/common';
import { subjects, type MonitoringAlert, type MonitoringPush } from '@vigil/proto';
import { Nats } from '@vigil/platform';

/** Tells the gateway's live-push streams about a client's new alerts and review items. */
@Injectable()
export class PushPublisher {
  private readonly logger = new Logger(PushPublisher.name);

  constructor(private readonly nats: Nats) {}

  alerts(clientId: string, alerts: readonly MonitoringAlert[]): void {
    for (const alert of alerts) this.send(clientId, { type: 'monitoring.alert', alert });
  }

  /** Core NATS, fire and forget: a missed push only means the page refreshes later. */
  send(clientId: string, push: MonitoringPush): void {
    try {
      this.nats.connection.publish(subjects.monitoring.push(clientId), JSON.stringify(push));
    } catch (error) {
      this.logger.warn(`push to ${clientId} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
