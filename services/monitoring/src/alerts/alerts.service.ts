import { Injectable } from '@nestjs/common';
import { DomainError } from '@vigil/platform';
import type { AlertSeverity, AlertsReply, MonitoringAlert, MonitoringCaller } from '@vigil/proto';
import { AlertsRepository } from './alerts.repository.js';

/** A client's monitoring alerts: list with filters, acknowledge. */
@Injectable()
export class AlertsService {
  constructor(private readonly alerts: AlertsRepository) {}

  async list(
    caller: MonitoringCaller,
    query: { acknowledged?: boolean | undefined; severity?: AlertSeverity | undefined; limit: number; offset: number },
  ): Promise<AlertsReply> {
    const page = await this.alerts.list(caller.clientId, query, query);
    return { ...page, limit: query.limit, offset: query.offset };
  }

  /** §4: unacknowledged → acknowledged; a second acknowledgement is a conflict, another client's id not found. */
  async acknowledge(caller: MonitoringCaller, id: string): Promise<MonitoringAlert> {
    const done = await this.alerts.acknowledge(caller.clientId, id);
    if (done) return done;
    if (!(await this.alerts.get(caller.clientId, id))) throw new DomainError('NOT_FOUND', `No monitoring alert ${id}.`);
    throw new DomainError('CONFLICT', 'This alert is already acknowledged.');
  }
}
