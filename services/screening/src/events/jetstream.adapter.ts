import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import {
  DeliverPolicy,
  jetstream,
  jetstreamManager,
  type JetStreamClient,
  type JetStreamManager,
} from '@nats-io/jetstream';
import { connect, headers as natsHeaders, type NatsConnection } from '@nats-io/transport-node';
import { ensureStreams, natsConnectionOptions } from '@vigil/platform';
import { streams } from '@vigil/proto';
import { SCREENING_CONFIG } from '../config.token.js';
import type { ScreeningConfig } from '../env.js';

/**
 * The service's JetStream I/O: it owns the LISTS and SCREENINGS streams (created or
 * updated at boot, idempotently), publishes with Nats-Msg-Id for de-duplication, and lets
 * each replica follow new messages on a subject with an ephemeral ordered consumer.
 */
@Injectable()
export class JetStreamAdapter implements OnModuleDestroy {
  private readonly logger = new Logger(JetStreamAdapter.name);
  private connection: Promise<{ nc: NatsConnection; js: JetStreamClient; jsm: JetStreamManager }> | undefined;
  private readonly stops: Array<() => void> = [];
  private closed = false;

  constructor(@Inject(SCREENING_CONFIG) private readonly config: ScreeningConfig) {}

  private connect() {
    this.connection ??= (async () => {
      const nc = await connect(natsConnectionOptions(this.config.NATS_URL, 'vigil-screening-events'));
      const jsm = await jetstreamManager(nc);
      await ensureStreams(jsm, [
        { ...streams.lists, maxAgeDays: 90 },
        { ...streams.screenings, maxAgeDays: 30 },
      ]);
      return { nc, js: jetstream(nc), jsm };
    })().catch((error: unknown) => {
      this.connection = undefined;
      throw error;
    });
    return this.connection;
  }

  /**
   * Publishes a payload that is already JSON (an outbox row as stored) and waits for the
   * stream's acknowledgement; `messageId` de-duplicates re-publication.
   */
  async publishJson(subject: string, json: string, messageId: string, traceparent: string | null = null): Promise<void> {
    const { js } = await this.connect();
    // The request that wrote the row has long answered: its stored traceparent, not the relay's context, names the trace.
    const hdrs = traceparent ? natsHeaders() : undefined;
    if (hdrs) hdrs.set('traceparent', traceparent!);
    await js.publish(subject, json, { msgID: messageId, timeout: 5000, ...(hdrs ? { headers: hdrs } : {}) });
  }

  /**
   * Calls `handler` for each message published on `subject` from now on (every replica
   * gets every message: this is a fan-out, not a work queue). Reconnects on its own.
   */
  async follow(streamName: string, subject: string, handler: (payload: unknown) => Promise<void>): Promise<void> {
    const { js } = await this.connect();
    const consumer = await js.consumers.get(streamName, {
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

  async ping(): Promise<void> {
    const { jsm } = await this.connect();
    await jsm.getAccountInfo();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stops.forEach((stop) => stop());
    const connection = await this.connection?.catch(() => undefined);
    await connection?.nc.close();
  }
}
