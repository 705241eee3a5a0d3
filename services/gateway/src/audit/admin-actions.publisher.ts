import { Injectable, Logger, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { EventPublisher, currentRequestId } from '@vigil/platform';
import { subjects, type AdminAction, type AdminActionEvent } from '@vigil/proto';
import type { Request } from 'express';
import { randomUUID } from 'node:crypto';
import { callerOf, type SessionUser } from '../credentials/credentials.js';
import { loggedEndpoint } from '../security-events/logged-request.js';

export type AdminActionTarget = { clientId: string | null; clientName: string | null };

/** Who made a change and from where, as the verified request says. */
export type AdminActor = { user: SessionUser | undefined; ip: string | null; endpoint: string };

export function actorOf(req: Request): AdminActor {
  return { user: callerOf(req).user, ip: req.ip ?? null, endpoint: loggedEndpoint(req.originalUrl) };
}

/** The acting admin of the route, for `AdminActions.record`. */
export const CurrentActor = createParamDecorator((_: unknown, ctx: ExecutionContext) =>
  actorOf(ctx.switchToHttp().getRequest<Request>()),
);

/**
 * Publishes what an administrator changed, after the change succeeded, to the ADMIN_ACTIONS
 * stream the audit service consumes. Awaited (the stream's acknowledgement comes back in about
 * a millisecond) so the answer goes out only once the record is durable; a broker failure is
 * logged and does not turn a change that happened into an error.
 */
@Injectable()
export class AdminActions {
  private readonly logger = new Logger(AdminActions.name);

  constructor(private readonly events: EventPublisher) {}

  async record(
    action: AdminAction,
    actor: AdminActor,
    target: AdminActionTarget,
    details: Record<string, unknown> = {},
  ): Promise<void> {
    const user = actor.user;
    if (!user) throw new Error(`admin action ${action} recorded without a verified user`);
    const event: AdminActionEvent = {
      id: randomUUID(),
      action,
      actorId: user.id,
      actorEmail: user.email,
      clientId: target.clientId,
      clientName: target.clientName,
      ip: actor.ip,
      endpoint: actor.endpoint,
      requestId: currentRequestId() ?? null,
      details,
      occurredAt: new Date().toISOString(),
    };
    try {
      await this.events.publish(subjects.gateway.adminAction, event, event.id);
    } catch (error) {
      this.logger.error(
        `could not publish admin action ${action} (${event.id}): ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}
