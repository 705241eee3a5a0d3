import { Module } from '@nestjs/common';
import { AlertsRepository } from '../alerts/alerts.repository.js';
import { MonitoringClientsRepository } from '../clients/monitoring-clients.repository.js';
import { PushPublisher } from '../push/push.publisher.js';
import { WebhooksRepository } from '../webhooks/webhooks.repository.js';
import { ChecksRepository } from './checks.repository.js';
import { ChecksScheduler } from './checks.scheduler.js';
import { ChecksService } from './checks.service.js';
import { ScreeningAdapter } from './screening.adapter.js';

/** Screening monitored entities and raising their alerts, shared by every way a check starts. */
const providers = [
  PushPublisher,
  MonitoringClientsRepository,
  AlertsRepository,
  WebhooksRepository,
  ChecksRepository,
  ScreeningAdapter,
  ChecksService,
  ChecksScheduler,
];

@Module({ providers, exports: providers })
export class ChecksModule {}
