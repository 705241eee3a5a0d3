import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { parseMessage } from '@vigil/platform';
import {
  callerOnlyRequestSchema,
  createWebhookRequestSchema,
  subjects,
  webhookDeliveriesRequestSchema,
  webhookRefRequestSchema,
  type CreateWebhookReply,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '@vigil/proto';
import { WebhooksService } from './webhooks.service.js';

const on = subjects.monitoring.webhooks;

@Controller()
export class WebhooksHandler {
  constructor(private readonly service: WebhooksService) {}

  @MessagePattern(on.create)
  create(@Payload() data: unknown): Promise<CreateWebhookReply> {
    const { caller, ...request } = parseMessage(createWebhookRequestSchema, data, 'webhook endpoint');
    return this.service.create(caller, request);
  }

  @MessagePattern(on.list)
  list(@Payload() data: unknown): Promise<{ webhooks: WebhookEndpoint[] }> {
    return this.service.list(parseMessage(callerOnlyRequestSchema, data, 'webhooks request').caller);
  }

  @MessagePattern(on.delete)
  delete(@Payload() data: unknown): Promise<{ id: string; deleted: true }> {
    const request = parseMessage(webhookRefRequestSchema, data, 'webhook deletion');
    return this.service.delete(request.caller, request.id);
  }

  @MessagePattern(on.deliveries)
  deliveries(@Payload() data: unknown): Promise<{ deliveries: WebhookDelivery[] }> {
    const { caller, id, ...page } = parseMessage(webhookDeliveriesRequestSchema, data, 'deliveries request');
    return this.service.deliveries(caller, id, page);
  }
}
