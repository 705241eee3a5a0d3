import { Injectable, Logger } from '@nestjs/common';
import { EventPublisher } from '@vigil/platform';
import { subjects, type SecurityEvent } from '@vigil/proto';
import type { Request } from 'express';
import { randomUUID } from 'node:crypto';
import { callerOf } from '../credentials/credentials.js';
import { loggedEndpoint, loggedRequestId } from './logged-request.js';

type EventType = SecurityEvent['event'];

/**
 * Publishes security events to JetStream for the audit service. Fire-and-forget: a
 * broker hiccup is logged, never turned into a failed API call. Endpoint and request id as
 * logged-request.ts allows: no key from the path, nothing unbounded, no id a stranger chose.
 */
@Injectable()
export class SecurityEvents {
  private readonly logger = new Logger(SecurityEvents.name);

  constructor(private readonly events: EventPublisher) {}

  record(event: EventType, req: Request, reason: string | null = null): void {
    const caller = callerOf(req);
    const payload: SecurityEvent = {
      id: randomUUID(),
      event,
      timestamp: new Date().toISOString(),
      details: {
        ip: req.ip ?? null,
        endpoint: loggedEndpoint(req.originalUrl),
        method: req.method,
        adminEmail: caller.user?.role === 'admin' ? caller.user.email : null,
        clientName: caller.client?.clientName ?? null,
        clientId: caller.client?.clientId ?? caller.user?.clientId ?? null,
        userId: caller.user?.id ?? null,
        requestId: loggedRequestId(req, Boolean(caller.user ?? caller.client)),
        reason,
      },
    };
    this.events.publish(subjects.gateway.securityEvent, payload, payload.id).catch((error: unknown) => {
      this.logger.warn(`could not publish ${event}: ${error instanceof Error ? error.message : String(error)}`);
    });
  }
}
