import { Injectable, Logger } from '@nestjs/common';
import { RpcClient } from '@vigil/platform';
import { subjects, type FailedAuthEvent, type KeyRevokedEvent, type SessionRevokedEvent } from '@vigil/proto';
import { randomUUID } from 'node:crypto';

/** The auth service's outgoing events. Publishing never fails the request that caused it. */
@Injectable()
export class EventsPublisher {
  private readonly logger = new Logger('EventsPublisher');

  constructor(private readonly rpc: RpcClient) {}

  async failedAuth(event: Omit<FailedAuthEvent, 'id' | 'event' | 'occurred_at'>): Promise<void> {
    await this.publish(subjects.auth.failedAuth, { id: randomUUID(), event: 'FAILED_AUTH', occurred_at: new Date().toISOString(), ...event });
  }

  async sessionRevoked(event: SessionRevokedEvent): Promise<void> {
    await this.publish(subjects.auth.sessionRevoked, event);
  }

  async keyRevoked(event: KeyRevokedEvent): Promise<void> {
    await this.publish(subjects.clients.keyRevoked, event);
  }

  private async publish(subject: string, payload: unknown): Promise<void> {
    try {
      await this.rpc.emit(subject, payload);
    } catch (error) {
      this.logger.warn(`could not publish ${subject}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
