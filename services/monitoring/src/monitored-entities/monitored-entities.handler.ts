import { Controller } from '@nestjs/common';
import { Handles } from '@vigil/platform';
import { contracts, type ParsedRequestOf } from '@vigil/proto';
import { MonitoredEntitiesService } from './monitored-entities.service.js';

const on = contracts.monitoring;

@Controller()
export class MonitoredEntitiesHandler {
  constructor(private readonly service: MonitoredEntitiesService) {}

  @Handles(on.entities.create, 'monitored entity')
  create({ caller, ...entity }: ParsedRequestOf<typeof on.entities.create>) {
    return this.service.create(caller, entity);
  }

  @Handles(on.entities.list, 'query')
  list({ caller, ...query }: ParsedRequestOf<typeof on.entities.list>) {
    return this.service.list(caller, query);
  }

  @Handles(on.entities.update, 'status change')
  update(request: ParsedRequestOf<typeof on.entities.update>) {
    return this.service.setStatus(request.caller, request.id, request.monitoring_status);
  }

  @Handles(on.entities.delete, 'deletion')
  delete(request: ParsedRequestOf<typeof on.entities.delete>) {
    return this.service.delete(request.caller, request.id);
  }

  @Handles(on.entities.check, 'manual check')
  check(request: ParsedRequestOf<typeof on.entities.check>) {
    return this.service.check(request.caller, request.id);
  }

  @Handles(on.entities.bulkAdd, 'bulk add')
  bulkAdd(request: ParsedRequestOf<typeof on.entities.bulkAdd>) {
    return this.service.bulkAdd(request.caller, request.entities);
  }

  @Handles(on.entities.bulkRemove, 'bulk remove')
  bulkRemove(request: ParsedRequestOf<typeof on.entities.bulkRemove>) {
    return this.service.bulkRemove(request.caller, request.entityIds);
  }

  @Handles(on.stats, 'stats request')
  stats(request: ParsedRequestOf<typeof on.stats>) {
    return this.service.stats(request.caller);
  }

  @Handles(on.settings.get, 'settings request')
  settings(request: ParsedRequestOf<typeof on.settings.get>) {
    return this.service.settings(request.caller);
  }

  @Handles(on.settings.update, 'settings')
  updateSettings({ caller, actor, ...change }: ParsedRequestOf<typeof on.settings.update>) {
    return this.service.updateSettings(caller, actor, change);
  }
}
