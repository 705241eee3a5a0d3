import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { gaugeFrom } from '@vigil/platform';
import { ChecksRepository } from '../checks/checks.repository.js';
import { WebhooksRepository } from '../webhooks/webhooks.repository.js';

/** Monitoring's queue depths for Prometheus: re-screens due now and webhook deliveries pending. */
@Injectable()
export class QueueMetrics implements OnApplicationBootstrap {
  constructor(
    private readonly checks: ChecksRepository,
    private readonly webhooks: WebhooksRepository,
  ) {}

  onApplicationBootstrap(): void {
    gaugeFrom('vigil_queue_depth', 'Work waiting in a queue, by queue and state', ['queue', 'state'], async () => {
      const [due, pending] = await Promise.all([this.checks.dueCount(), this.webhooks.pendingTotal()]);
      return [
        { labels: { queue: 'monitoring_checks', state: 'due' }, value: due },
        { labels: { queue: 'webhook_deliveries', state: 'pending' }, value: pending },
      ];
    });
  }
}
