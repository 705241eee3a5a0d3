import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { parseMessage } from '@vigil/platform';
import {
  alertRefRequestSchema,
  listAlertsRequestSchema,
  subjects,
  type AlertsReply,
  type MonitoringAlert,
} from '@vigil/proto';
import { AlertsService } from './alerts.service.js';

@Controller()
export class AlertsHandler {
  constructor(private readonly service: AlertsService) {}

  @MessagePattern(subjects.monitoring.alerts.list)
  list(@Payload() data: unknown): Promise<AlertsReply> {
    const { caller, ...query } = parseMessage(listAlertsRequestSchema, data, 'query');
    return this.service.list(caller, query);
  }

  @MessagePattern(subjects.monitoring.alerts.acknowledge)
  acknowledge(@Payload() data: unknown): Promise<MonitoringAlert> {
    const request = parseMessage(alertRefRequestSchema, data, 'acknowledgement');
    return this.service.acknowledge(request.caller, request.id);
  }
}
