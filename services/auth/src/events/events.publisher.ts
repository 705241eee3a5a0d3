import { Injectable } from '@nestjs/common';
import { RpcClient } from '@vigil/platform';
import { events, type FailedAuthEvent, type KeyRevokedEvent, type MemberChangedEvent, type SessionRevokedEvent } from '@vigil/proto';
import { randomUUID } from 'node:crypto';

/** The auth service's outgoing events. Publishing never fails the request that caused it. */
@Injectable()
export class EventsPublisher {
  constructor(private readonly rpc: RpcClient) {}

  async failedAuth(event: Omit<FailedAuthEvent, 'id' | 'event' | 'occurred_at'>): Promise<void> {
    await this.rpc.emit(events.auth.failedAuth, { id: randomUUID(), event: 'FAILED_AUTH', occurred_at: new Date().toISOString(), ...event });
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
