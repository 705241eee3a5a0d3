import { Controller } from '@nestjs/common';
import { Handles } from '@vigil/platform';
import { contracts, type ParsedRequestOf } from '@vigil/proto';
import { WebhooksService } from './webhooks.service.js';

const on = contracts.monitoring.webhooks;

@Controller()
export class WebhooksHandler {
  constructor(private readonly service: WebhooksService) {}

  @Handles(on.create, 'webhook endpoint')
  create({ caller, actor, ...request }: ParsedRequestOf<typeof on.create>) {
    return this.service.create(caller, actor, request);
  }

  @Handles(on.list, 'webhooks request')
  list(request: ParsedRequestOf<typeof on.list>) {
    return this.service.list(request.caller);
  }

  @Handles(on.delete, 'webhook deletion')
  delete(request: ParsedRequestOf<typeof on.delete>) {
    return this.service.delete(request.caller, request.actor, request.id);
  }

  @Handles(on.deliveries, 'deliveries request')
  deliveries({ caller, id, ...page }: ParsedRequestOf<typeof on.deliveries>) {
    return this.service.deliveries(caller, id, page);
  }

  @Handles(on.rotateSecret, 'webhook secret rotation')
  rotateSecret(request: ParsedRequestOf<typeof on.rotateSecret>) {
    return this.service.rotateSecret(request.caller, request.actor, request.id);
  }

  @Handles(on.test, 'webhook test')
  test(request: ParsedRequestOf<typeof on.test>) {
    return this.service.test(request.caller, request.id);
  }
}
