import { Injectable } from '@nestjs/common';
import { DomainError } from '@vigil/platform';
import type {
  BulkAddReply,
  BulkRemoveReply,
  CheckMonitoredEntityReply,
  MonitoredEntitiesReply,
  MonitoredEntity,
  MonitoringActor,
  MonitoringCaller,
  MonitoringSettings,
  MonitoringStatus,
  MonitoringStats,
  ParsedNewMonitoredEntity,
} from '@vigil/proto';
import { ChecksRepository } from '../checks/checks.repository.js';
import { ChecksScheduler } from '../checks/checks.scheduler.js';
import { ChecksService } from '../checks/checks.service.js';
import { ClientChangesPublisher } from '../client-changes/client-changes.publisher.js';
import { MonitoringClientsRepository } from '../clients/monitoring-clients.repository.js';
import { MonitoredEntitiesRepository } from './monitored-entities.repository.js';

export const entityNotFound = (id: string) => new DomainError('NOT_FOUND', `No monitored entity ${id}.`);

/** Monitored entities of one client: add, list, change status, remove, check now, stats, settings. */
@Injectable()
export class MonitoredEntitiesService {
  constructor(
    private readonly entities: MonitoredEntitiesRepository,
    private readonly clients: MonitoringClientsRepository,
    private readonly checksRepository: ChecksRepository,
    private readonly checks: ChecksService,
    private readonly scheduler: ChecksScheduler,
    private readonly changes: ClientChangesPublisher,
  ) {}

  async create(caller: MonitoringCaller, entity: ParsedNewMonitoredEntity): Promise<MonitoredEntity> {
    return (await this.createMany(caller, [entity]))[0]!;
  }

  async bulkAdd(caller: MonitoringCaller, entities: readonly ParsedNewMonitoredEntity[]): Promise<BulkAddReply> {
    const created = await this.createMany(caller, entities);
    return { entities: created, created: created.length };
  }

  private async createMany(caller: MonitoringCaller, entities: readonly ParsedNewMonitoredEntity[]) {
    const client = await this.clients.remember(caller);
    const created = await this.entities.create(caller.clientId, entities, client.settings.default_check_frequency);
    this.scheduler.kick();
    return created;
  }

  async list(
    caller: MonitoringCaller,
    query: {
      status?: MonitoringStatus | undefined;
      origin?: 'manual' | 'client_list' | undefined;
      limit: number;
      offset: number;
    },
  ): Promise<MonitoredEntitiesReply> {
    await this.clients.remember(caller);
    const page = await this.entities.list(caller.clientId, query, query);
    return { ...page, limit: query.limit, offset: query.offset };
  }

  async setStatus(caller: MonitoringCaller, id: string, to: MonitoringStatus): Promise<MonitoredEntity> {
    await this.clients.remember(caller);
    const changed = await this.entities.transition(caller.clientId, id, to);
    if (changed) {
      if (to === 'active') this.scheduler.kick();
      return changed;
    }
    const current = await this.entities.get(caller.clientId, id);
    if (!current) throw entityNotFound(id);
    throw new DomainError(
      'CONFLICT',
      `A ${current.monitoring_status} entity cannot be set ${to}: an active entity can be paused, a paused or stopped one set active, any one stopped.`,
    );
  }

  async delete(caller: MonitoringCaller, id: string): Promise<{ id: string; deleted: true }> {
    if (!(await this.entities.delete(caller.clientId, id))) throw entityNotFound(id);
    return { id, deleted: true };
  }

  async bulkRemove(caller: MonitoringCaller, ids: readonly string[]): Promise<BulkRemoveReply> {
    const removed = await this.entities.deleteMany(caller.clientId, ids);
    if (!removed)
      throw new DomainError('NOT_FOUND', 'Some of these entities are not monitored by this client; none was removed.');
    return { removed: removed.length, entityIds: removed };
  }

  /** The manual check: screened now, its alerts raised before answering. */
  async check(caller: MonitoringCaller, id: string): Promise<CheckMonitoredEntityReply> {
    await this.clients.remember(caller);
    const entity = await this.entities.get(caller.clientId, id);
    if (!entity) throw entityNotFound(id);
    if (entity.monitoring_status === 'stopped') {
      throw new DomainError('CONFLICT', 'Monitoring of this entity is stopped; set it active to check it.');
    }
    const targets = await this.checksRepository.targets(caller.clientId, [id]);
    const raised = await this.checks.check(targets);
    const after = await this.entities.get(caller.clientId, id);
    if (!after) throw entityNotFound(id);
    if (after.screening_status === 'unknown' && after.last_checked === entity.last_checked) {
      throw new DomainError('SERVICE_UNAVAILABLE', 'The screening service did not answer; the check will be retried.');
    }
    return { entity: after, alerts: raised.get(id) ?? [] };
  }

  async stats(caller: MonitoringCaller): Promise<{ stats: MonitoringStats }> {
    await this.clients.remember(caller);
    return { stats: await this.entities.stats(caller.clientId) };
  }

  async settings(caller: MonitoringCaller): Promise<{ settings: MonitoringSettings }> {
    return { settings: (await this.clients.remember(caller)).settings };
  }

  /** Every update reaches the client's audit chain, a repeat of the same values included. */
  async updateSettings(
    caller: MonitoringCaller,
    actor: MonitoringActor,
    change: Partial<MonitoringSettings>,
  ): Promise<{ settings: MonitoringSettings }> {
    const { settings: previous } = await this.clients.remember(caller);
    const settings = await this.clients.updateSettings(caller.clientId, change);
    await this.changes.changed({
      change: 'settings.changed',
      clientId: caller.clientId,
      actor,
      details: { changed: change, previous, now: settings },
    });
    return { settings };
  }
}
