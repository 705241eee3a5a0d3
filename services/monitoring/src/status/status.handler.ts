import { Controller } from '@nestjs/common';
import { Handles } from '@vigil/platform';
import { contracts, type MonitoringServiceStatus, type ParsedRequestOf } from '@vigil/proto';
import { ChecksScheduler } from '../checks/checks.scheduler.js';
import { ListUpdatesConsumer } from '../list-updates/list-updates.consumer.js';
import { ListUpdatesRepository } from '../list-updates/list-updates.repository.js';
import { MonitoredEntitiesRepository } from '../monitored-entities/monitored-entities.repository.js';
import { WebhooksRepository } from '../webhooks/webhooks.repository.js';

/** GET /api/monitoring/service/status: is the machinery behind monitoring running. */
@Controller()
export class StatusHandler {
  constructor(
    private readonly scheduler: ChecksScheduler,
    private readonly consumer: ListUpdatesConsumer,
    private readonly listUpdates: ListUpdatesRepository,
    private readonly entities: MonitoredEntitiesRepository,
    private readonly webhooks: WebhooksRepository,
  ) {}

  @Handles(contracts.monitoring.serviceStatus, 'status request')
  async status({
    caller,
  }: ParsedRequestOf<typeof contracts.monitoring.serviceStatus>): Promise<MonitoringServiceStatus> {
    const [overdue, last, pending] = await Promise.all([
      this.entities.overdueCount(caller.clientId),
      this.listUpdates.last(),
      this.webhooks.pendingCount(caller.clientId),
    ]);
    const running = this.scheduler.enabled && this.consumer.running;
    return {
      status: running ? 'operational' : 'degraded',
      scheduler: {
        running: this.scheduler.enabled,
        last_run_at: this.scheduler.lastRunAt?.toISOString() ?? null,
        overdue_checks: overdue,
      },
      list_updates: { consumer_running: this.consumer.running, last_version: last },
      webhooks: { pending_deliveries: pending },
    };
  }
}
