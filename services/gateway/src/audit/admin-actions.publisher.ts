import { Injectable, Logger } from '@nestjs/common';
import { currentRequestId } from '@vigil/platform';
import { subjects, type AdminAction, type AdminActionEvent } from '@vigil/proto';
import type { Request } from 'express';
import { randomUUID } from 'node:crypto';
import { callerOf } from '../credentials/credentials.js';
import { NatsStreams } from '../infra/jetstream.js';

export type AdminActionTarget = { clientId: string | null; clientName: string | null };

/**
 * Publishes what an administrator changed, after the change succeeded, to the ADMIN_ACTIONS
 * stream the audit service consumes. Awaited (the stream's acknowledgement comes back in about
 * a millisecond) so the answer goes out only once the record is durable; a broker failure is
 * logged and does not turn a change that happened into an error.
 */
@Injectable()
export class AdminActions {
  private readonly logger = new Logger(AdminActions.name);

  constructor(private readonly streams: NatsStreams) {}

  async record(
    action: AdminAction,
    req: Request,
    target: AdminActionTarget,
    details: Record<string, unknown> = {},
  ): Promise<void> {
    const user = callerOf(req).user;
    if (!user) throw new Error(`admin action ${action} recorded without a verified user`);
    const event: AdminActionEvent = {
      id: randomUUID(),
      action,
      actorId: user.id,
      actorEmail: user.email,
      clientId: target.clientId,
      clientName: target.clientName,
      ip: req.ip ?? null,
      endpoint: req.originalUrl.split('?')[0]!,
      requestId: currentRequestId() ?? null,
      details,
      occurredAt: new Date().toISOString(),
    };
    try {
      await this.streams.publish(subjects.gateway.adminAction, event, event.id);
    } catch (error) {
      this.logger.error(
        `could not publish admin action ${action} (${event.id}): ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}
