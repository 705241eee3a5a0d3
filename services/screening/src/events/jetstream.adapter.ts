import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { DeliverPolicy } from '@nats-io/jetstream';
import { Nats } from '@vigil/platform';

/**
 * What screening reads from JetStream: each replica follows new messages on a subject with an
 * ephemeral ordered consumer. Its streams (LISTS, SCREENINGS) are created by PlatformModule at
 * boot and published to through the platform's EventPublisher (the outbox relay).
 */
@Injectable()
export class JetStreamAdapter implements OnModuleDestroy {
  private readonly logger = new Logger(JetStreamAdapter.name);
  private readonly stops: Array<() => void> = [];

  constructor(private readonly nats: Nats) {}

  /**
   * Calls `handler` for each message published on `subject` from now on (every replica
   * gets every message: this is a fan-out, not a work queue). Reconnects on its own.
   */
  async follow(streamName: string, subject: string, handler: (payload: unknown) => Promise<void>): Promise<void> {
    await this.nats.streamsReady();
    const consumer = await this.nats.js.consumers.get(streamName, {
      filter_subjects: subject,
      deliver_policy: DeliverPolicy.New,
    });
    const messages = await consumer.consume();
    this.stops.push(() => void messages.stop());
    void (async () => {
      for await (const message of messages) {
        try {
          await handler(message.json());
        } catch (error) {
          this.logger.warn(`handling ${subject} failed: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    })();
  }

  onModuleDestroy(): void {
    this.stops.splice(0).forEach((stop) => stop());
  }
}
