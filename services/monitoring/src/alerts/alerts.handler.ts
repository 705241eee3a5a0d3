import { Controller } from '@nestjs/common';
import { Handles } from '@vigil/platform';
import { contracts, type ParsedRequestOf } from '@vigil/proto';
import { AlertsService } from './alerts.service.js';

const on = contracts.monitoring.alerts;

@Controller()
export class AlertsHandler {
  constructor(private readonly service: AlertsService) {}

  @Handles(on.list, 'query')
  list({ caller, ...query }: ParsedRequestOf<typeof on.list>) {
    return this.service.list(caller, query);
  }

  @Handles(on.acknowledge, 'acknowledgement')
  acknowledge(request: ParsedRequestOf<typeof on.acknowledge>) {
    return this.service.acknowledge(request.caller, request.id);
  }
}
