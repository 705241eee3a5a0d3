import {
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  Put,
  Query,
  Req,
  Sse,
  type MessageEvent,
} from '@nestjs/common';
import { ApiBody, ApiQuery } from '@nestjs/swagger';
import { DomainError, parseMessage } from '@vigil/platform';
import {
  ALERT_SEVERITIES,
  CHECK_FREQUENCIES,
  MONITORING_STATUSES,
  WEBHOOK_EVENT_TYPES,
  bulkAddBodySchema,
  bulkRemoveBodySchema,
  createWebhookBodySchema,
  listAlertsQuerySchema,
  listMonitoredEntitiesQuerySchema,
  monitoringSettingsChangeSchema,
  newMonitoredEntitySchema,
  subjects,
  updateMonitoredEntityBodySchema,
  webhookDeliveriesQuerySchema,
  type AlertsReply,
  type BulkAddReply,
  type BulkRemoveReply,
  type CheckMonitoredEntityReply,
  type CreateWebhookReply,
  type MonitoredEntitiesReply,
  type MonitoredEntity,
  type MonitoringAlert,
  type MonitoringServiceStatus,
  type MonitoringSettings,
  type MonitoringStats,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '@vigil/proto';
import type { Request } from 'express';
import { map, type Observable } from 'rxjs';
import { z } from 'zod';
import { bodyOf } from '../auth/caller.js';
import { Credentials } from '../credentials/credentials.js';
import { typedQuery } from '../http/query.js';
import { clientOf } from '../screening-api/screening-api.controller.js';
import { Monitoring } from './monitoring.service.js';

const on = subjects.monitoring;
const uuid = z.uuid();

/** A path id that is not an id names nothing: 404, like an id of another client. */
function idParam(id: string, what: string): string {
  if (!uuid.safeParse(id).success) throw new DomainError('NOT_FOUND', `No ${what} ${id.slice(0, 80)}.`);
  return id;
}

/**
 * Ongoing monitoring (spec §7 "Monitoring"), webhooks and live push, with the dashboard's
 * credentials (the client's API key and a session of one of its users). The body is checked here
 * against the same proto schema monitoring checks; `caller` always comes from the credentials.
 */
@Controller('api/monitoring')
export class MonitoringController {
  constructor(private readonly monitoring: Monitoring) {}

  @Post('entities')
  @HttpCode(201)
  @Credentials('dashboard')
  @ApiBody({
    description: `entity_name (required), entity_email, entity_aliases, check_frequency (${CHECK_FREQUENCIES.join('|')}), notes`,
  })
  create(@Req() req: Request): Promise<MonitoredEntity> {
    const body = parseMessage(newMonitoredEntitySchema, bodyOf(req), 'monitored entity');
    return this.monitoring.request(on.entities.create, clientOf(req), body);
  }

  @Get('entities')
  @Credentials('dashboard')
  @ApiQuery({ name: 'status', required: false, enum: MONITORING_STATUSES })
  @ApiQuery({ name: 'origin', required: false, enum: ['manual', 'client_list'] })
  @ApiQuery({ name: 'limit', required: false, description: '1 to 500, default 50.' })
  @ApiQuery({ name: 'offset', required: false })
  list(@Req() req: Request, @Query() query: Record<string, unknown>): Promise<MonitoredEntitiesReply> {
    const typed = typedQuery(query, { status: 'string', origin: 'string', limit: 'number', offset: 'number' });
    const parsed = parseMessage(listMonitoredEntitiesQuerySchema, typed, 'query');
    return this.monitoring.request(on.entities.list, clientOf(req), parsed);
  }

  @Put('entities/:id')
  @Credentials('dashboard')
  @ApiBody({ description: `{monitoring_status: ${MONITORING_STATUSES.join('|')}}` })
  update(@Req() req: Request, @Param('id') id: string): Promise<MonitoredEntity> {
    const body = parseMessage(updateMonitoredEntityBodySchema, bodyOf(req), 'status change');
    return this.monitoring.request(on.entities.update, clientOf(req), { ...body, id: idParam(id, 'monitored entity') });
  }

  @Delete('entities/:id')
  @Credentials('dashboard')
  remove(@Req() req: Request, @Param('id') id: string): Promise<{ id: string; deleted: true }> {
    return this.monitoring.request(on.entities.delete, clientOf(req), { id: idParam(id, 'monitored entity') });
  }

  @Post('entities/:id/check')
  @HttpCode(200)
  @Credentials('dashboard')
  check(@Req() req: Request, @Param('id') id: string): Promise<CheckMonitoredEntityReply> {
    return this.monitoring.request(on.entities.check, clientOf(req), { id: idParam(id, 'monitored entity') }, true);
  }

  @Get('alerts')
  @Credentials('dashboard')
  @ApiQuery({ name: 'acknowledged', required: false, enum: ['true', 'false'] })
  @ApiQuery({ name: 'severity', required: false, enum: ALERT_SEVERITIES })
  @ApiQuery({ name: 'limit', required: false, description: '1 to 500, default 50.' })
  @ApiQuery({ name: 'offset', required: false })
  alerts(@Req() req: Request, @Query() query: Record<string, unknown>): Promise<AlertsReply> {
    const typed = typedQuery(query, { acknowledged: 'boolean', severity: 'string', limit: 'number', offset: 'number' });
    const parsed = parseMessage(listAlertsQuerySchema, typed, 'query');
    return this.monitoring.request(on.alerts.list, clientOf(req), parsed);
  }

  @Post('alerts/:id/acknowledge')
  @HttpCode(200)
  @Credentials('dashboard')
  acknowledge(@Req() req: Request, @Param('id') id: string): Promise<MonitoringAlert> {
    return this.monitoring.request(on.alerts.acknowledge, clientOf(req), { id: idParam(id, 'monitoring alert') });
  }

  @Get('stats')
  @Credentials('dashboard')
  stats(@Req() req: Request): Promise<{ stats: MonitoringStats }> {
    return this.monitoring.request(on.stats, clientOf(req));
  }

  @Get('settings')
  @Credentials('dashboard')
  settings(@Req() req: Request): Promise<{ settings: MonitoringSettings }> {
    return this.monitoring.request(on.settings.get, clientOf(req));
  }

  @Put('settings')
  @Credentials('dashboard')
  @ApiBody({ description: 'Any of default_check_frequency, rescreen_on_list_update, alert_on_review.' })
  updateSettings(@Req() req: Request): Promise<{ settings: MonitoringSettings }> {
    const body = parseMessage(monitoringSettingsChangeSchema, bodyOf(req), 'settings');
    return this.monitoring.request(on.settings.update, clientOf(req), body);
  }

  @Post('bulk')
  @HttpCode(201)
  @Credentials('dashboard')
  @ApiBody({
    description: '{entities: [{entity_name, entity_email?, entity_aliases?, check_frequency?, notes?}]}, 1 to 1000.',
  })
  bulkAdd(@Req() req: Request): Promise<BulkAddReply> {
    const body = parseMessage(bulkAddBodySchema, bodyOf(req), 'bulk add');
    return this.monitoring.request(on.entities.bulkAdd, clientOf(req), body, true);
  }

  @Post('bulk/remove')
  @HttpCode(200)
  @Credentials('dashboard')
  @ApiBody({ description: '{entityIds: [uuid]}, 1 to 1000; all of them the client’s, or nothing is removed (404).' })
  bulkRemove(@Req() req: Request): Promise<BulkRemoveReply> {
    const body = parseMessage(bulkRemoveBodySchema, bodyOf(req), 'bulk remove');
    return this.monitoring.request(on.entities.bulkRemove, clientOf(req), body);
  }

  @Get('service/status')
  @Credentials('dashboard')
  status(@Req() req: Request): Promise<MonitoringServiceStatus> {
    return this.monitoring.request(on.serviceStatus, clientOf(req));
  }

  @Post('webhooks')
  @HttpCode(201)
  @Credentials('dashboard')
  @ApiBody({
    description: `{url: https URL, event_types: [${WEBHOOK_EVENT_TYPES.join('|')}], description?}. The secret is shown once.`,
  })
  createWebhook(@Req() req: Request): Promise<CreateWebhookReply> {
    const body = parseMessage(createWebhookBodySchema, bodyOf(req), 'webhook endpoint');
    return this.monitoring.request(on.webhooks.create, clientOf(req), body);
  }

  @Get('webhooks')
  @Credentials('dashboard')
  webhooks(@Req() req: Request): Promise<{ webhooks: WebhookEndpoint[] }> {
    return this.monitoring.request(on.webhooks.list, clientOf(req));
  }

  @Delete('webhooks/:id')
  @Credentials('dashboard')
  deleteWebhook(@Req() req: Request, @Param('id') id: string): Promise<{ id: string; deleted: true }> {
    return this.monitoring.request(on.webhooks.delete, clientOf(req), { id: idParam(id, 'webhook endpoint') });
  }

  @Get('webhooks/:id/deliveries')
  @Credentials('dashboard')
  @ApiQuery({ name: 'limit', required: false, description: '1 to 500, default 50.' })
  @ApiQuery({ name: 'offset', required: false })
  deliveries(
    @Req() req: Request,
    @Param('id') id: string,
    @Query() query: Record<string, unknown>,
  ): Promise<{ deliveries: WebhookDelivery[] }> {
    const typed = typedQuery(query, { limit: 'number', offset: 'number' });
    const parsed = parseMessage(webhookDeliveriesQuerySchema, typed, 'query');
    return this.monitoring.request(on.webhooks.deliveries, clientOf(req), {
      ...parsed,
      id: idParam(id, 'webhook endpoint'),
    });
  }

  /** Server-Sent Events: `monitoring.alert` and `screening.review_required` as they happen (medium tier and up). */
  @Sse('stream')
  @Credentials('dashboard')
  stream(@Req() req: Request): Observable<MessageEvent> {
    return this.monitoring
      .push(clientOf(req))
      .pipe(map((push): MessageEvent => (push ? { type: push.type, data: push } : { type: 'ready', data: {} })));
  }
}
