import { Injectable, Logger } from '@nestjs/common';
import { EventPublisher, RpcClient } from '@vigil/platform';
import {
  events,
  type ClientChangedEvent,
  type FailedAuthEvent,
  type KeyRevokedEvent,
  type MemberChangedEvent,
  type SessionRevokedEvent,
} from '@vigil/proto';
import { randomUUID } from 'node:crypto';

/** A failed sign-in as the services report it; the user id when the email names an account. */
export type FailedSignIn = Omit<FailedAuthEvent, 'id' | 'event' | 'occurred_at' | 'user_id'> & {
  user_id?: string | null;
};

/** The auth service's outgoing events. Publishing never fails the request that caused it. */
@Injectable()
export class EventsPublisher {
  private readonly logger = new Logger('EventsPublisher');

  constructor(
    private readonly rpc: RpcClient,
    private readonly durable: EventPublisher,
  ) {}

  /**
   * A failed sign-in, into the AUTH_EVENTS stream the audit service stores in its security log
   * (issue #33: before, it went out on core NATS and nobody kept it). The event id is the
   * message id, so a retried publish is stored once. A broker failure is logged, not answered.
   */
  async failedAuth(failure: FailedSignIn): Promise<void> {
    const event: FailedAuthEvent = {
      id: randomUUID(),
      event: 'FAILED_AUTH',
      occurred_at: new Date().toISOString(),
      ...failure,
      user_id: failure.user_id ?? null,
    };
    await this.durable.publish(events.auth.failedAuth.subject, event, event.id).catch((error: unknown) => {
      this.logger.warn(`could not publish a failed sign-in: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  /**
   * A change a client's member made (key, team, notifications), into AUTH_EVENTS for the client's
   * audit chain (issue #33). Like a failed sign-in: published after the change committed, the event
   * id as message id; a broker failure is logged, not answered (the change itself stands).
   */
  async clientChanged(change: Omit<ClientChangedEvent, 'id' | 'occurredAt'>): Promise<void> {
    const event: ClientChangedEvent = { id: randomUUID(), occurredAt: new Date().toISOString(), ...change };
    await this.durable.publish(events.auth.clientChanged.subject, event, event.id).catch((error: unknown) => {
      this.logger.warn(`could not publish a client change: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  async sessionRevoked(event: SessionRevokedEvent): Promise<void> {
    await this.rpc.emit(events.auth.sessionRevoked, event);
  }

  async memberChanged(event: MemberChangedEvent): Promise<void> {
    await this.rpc.emit(events.auth.memberChanged, event);
  }

  async keyRevoked(event: KeyRevokedEvent): Promise<void> {
    await this.rpc.emit(events.clients.keyRevoked, event);
  }
}
