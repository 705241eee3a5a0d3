import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { parseMessage } from '@vigil/platform';
import {
  bulkAddRequestSchema,
  bulkRemoveRequestSchema,
  callerOnlyRequestSchema,
  createMonitoredEntityRequestSchema,
  listMonitoredEntitiesRequestSchema,
  monitoredEntityRefRequestSchema,
  subjects,
  updateMonitoredEntityRequestSchema,
  updateMonitoringSettingsRequestSchema,
  type BulkAddReply,
  type BulkRemoveReply,
  type CheckMonitoredEntityReply,
  type MonitoredEntitiesReply,
  type MonitoredEntity,
  type MonitoringSettings,
  type MonitoringStats,
} from '@vigil/proto';
import { MonitoredEntitiesService } from './monitored-entities.service.js';

const on = subjects.monitoring;

@Controller()
export class MonitoredEntitiesHandler {
  constructor(private readonly service: MonitoredEntitiesService) {}

  @MessagePattern(on.entities.create)
  create(@Payload() data: unknown): Promise<MonitoredEntity> {
    const { caller, ...entity } = parseMessage(createMonitoredEntityRequestSchema, data, 'monitored entity');
    return this.service.create(caller, entity);
  }

  @MessagePattern(on.entities.list)
  list(@Payload() data: unknown): Promise<MonitoredEntitiesReply> {
    const { caller, ...query } = parseMessage(listMonitoredEntitiesRequestSchema, data, 'query');
    return this.service.list(caller, query);
  }

  @MessagePattern(on.entities.update)
  update(@Payload() data: unknown): Promise<MonitoredEntity> {
    const request = parseMessage(updateMonitoredEntityRequestSchema, data, 'status change');
    return this.service.setStatus(request.caller, request.id, request.monitoring_status);
  }

  @MessagePattern(on.entities.delete)
  delete(@Payload() data: unknown): Promise<{ id: string; deleted: true }> {
    const request = parseMessage(monitoredEntityRefRequestSchema, data, 'deletion');
    return this.service.delete(request.caller, request.id);
  }

  @MessagePattern(on.entities.check)
  check(@Payload() data: unknown): Promise<CheckMonitoredEntityReply> {
    const request = parseMessage(monitoredEntityRefRequestSchema, data, 'manual check');
    return this.service.check(request.caller, request.id);
  }

  @MessagePattern(on.entities.bulkAdd)
  bulkAdd(@Payload() data: unknown): Promise<BulkAddReply> {
    const request = parseMessage(bulkAddRequestSchema, data, 'bulk add');
    return this.service.bulkAdd(request.caller, request.entities);
  }

  @MessagePattern(on.entities.bulkRemove)
  bulkRemove(@Payload() data: unknown): Promise<BulkRemoveReply> {
    const request = parseMessage(bulkRemoveRequestSchema, data, 'bulk remove');
    return this.service.bulkRemove(request.caller, request.entityIds);
  }

  @MessagePattern(on.stats)
  stats(@Payload() data: unknown): Promise<{ stats: MonitoringStats }> {
    return this.service.stats(parseMessage(callerOnlyRequestSchema, data, 'stats request').caller);
  }

  @MessagePattern(on.settings.get)
  settings(@Payload() data: unknown): Promise<{ settings: MonitoringSettings }> {
    return this.service.settings(parseMessage(callerOnlyRequestSchema, data, 'settings request').caller);
  }

  @MessagePattern(on.settings.update)
  updateSettings(@Payload() data: unknown): Promise<{ settings: MonitoringSettings }> {
    const { caller, ...change } = parseMessage(updateMonitoringSettingsRequestSchema, data, 'settings');
    return this.service.updateSettings(caller, change);
  }
}
