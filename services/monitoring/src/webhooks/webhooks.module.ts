import { Module } from '@nestjs/common';
import { ChecksModule } from '../checks/checks.module.js';
import { NotificationsConsumer } from '../notifications/notifications.consumer.js';
import { WebhookDeliveryWorker } from './webhook-delivery.worker.js';
import { WebhooksHandler } from './webhooks.handler.js';
import { WebhookSecrets } from './webhook-secrets.js';
import { WebhookSender } from './webhook-sender.js';
import { WebhooksService } from './webhooks.service.js';

@Module({
  imports: [ChecksModule],
  controllers: [WebhooksHandler],
  providers: [WebhooksService, WebhookSecrets, WebhookSender, WebhookDeliveryWorker, NotificationsConsumer],
  exports: [WebhookDeliveryWorker],
})
export class WebhooksModule {}
