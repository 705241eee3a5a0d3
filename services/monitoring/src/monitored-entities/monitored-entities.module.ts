import { Module } from '@nestjs/common';
import { AlertsHandler } from '../alerts/alerts.handler.js';
import { AlertsService } from '../alerts/alerts.service.js';
import { ChecksModule } from '../checks/checks.module.js';
import { ListUpdatesModule } from '../list-updates/list-updates.module.js';
import { QueueMetrics } from '../status/queue-metrics.js';
import { StatusHandler } from '../status/status.handler.js';
import { MonitoredEntitiesHandler } from './monitored-entities.handler.js';
import { MonitoredEntitiesRepository } from './monitored-entities.repository.js';
import { MonitoredEntitiesService } from './monitored-entities.service.js';

@Module({
  imports: [ChecksModule, ListUpdatesModule],
  controllers: [MonitoredEntitiesHandler, AlertsHandler, StatusHandler],
  providers: [MonitoredEntitiesRepository, MonitoredEntitiesService, AlertsService, QueueMetrics],
})
export class MonitoredEntitiesModule {}
