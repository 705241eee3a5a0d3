import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { connect, headers as natsHeaders, type NatsConnection } from '@nats-io/transport-node';
import { REQUEST_ID_HEADER, streams } from '@vigil/proto';
import { currentRequestId, ensureStreams, natsConnectionOptions, injectTraceHeaders } from '@vigil/platform';
import { GATEWAY_CONFIG } from '../config.token.js';
import type { GatewayConfig } from '../env.js';

/**
 * The gateway's own NATS connection, beside Nest's request/reply client: plain
 * subscriptions that every replica receives (Nest's handlers sit in the queue group,
 * where only one replica would hear a key revocation) and JetStream publishing.
 * It owns the SECURITY, QUOTA, BULK_JOBS, BULK_JOB_EVENTS and ADMIN_ACTIONS streams and creates them idempotently.
 */
@Injectable()
export class NatsStreams implements OnApplicationShutdown {
  private readonly logger = new Logger(NatsStreams.name);
  private connection: Promise<NatsConnection> | undefined;
  private streamsReady: Promise<{ js: JetStreamClient; jsm: JetStreamManager }> | undefined;

  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {}

  /** The plain NATS connection (core subscriptions work even where JetStream is off). */
  connect(): Promise<NatsConnection> {
    this.connection ??= connect(natsConnectionOptions(this.config.NATS_URL, 'vigil-gateway-streams')).catch(
      (error: unknown) => {
        this.connection = undefined;
        throw error;
      },
    );
    return this.connection;
  }

  /** JetStream, with the gateway's streams created if missing. */
  jetstream(): Promise<{ js: JetStreamClient; jsm: JetStreamManager }> {
    this.streamsReady ??= (async () => {
      const nc = await this.connect();
      const jsm = await jetstreamManager(nc);
      await ensureStreams(jsm, [
        { ...streams.security, maxAgeDays: 90 },
        { ...streams.quota, maxAgeDays: 90 },
        { ...streams.bulkJobs, maxAgeDays: 7, retention: 'workqueue' },
        { ...streams.bulkJobEvents, maxAgeDays: 7 },
        { ...streams.adminActions, maxAgeDays: 90 },
      ]);
      return { js: jetstream(nc), jsm };
    })().catch((error: unknown) => {
      this.streamsReady = undefined;
      throw error;
    });
    return this.streamsReady;
  }

  /** Publishes to a stream and waits for its acknowledgement; `messageId` de-duplicates a re-publication. */
  async publish(subject: string, payload: unknown, messageId?: string): Promise<void> {
    const { js } = await this.jetstream();
    const hdrs = natsHeaders();
    const requestId = currentRequestId();
    if (requestId) hdrs.set(REQUEST_ID_HEADER, requestId);
    injectTraceHeaders(hdrs);
    await js.publish(subject, JSON.stringify(payload), {
      headers: hdrs,
      timeout: 5_000,
      ...(messageId ? { msgID: messageId } : {}),
    });
  }

  /** Every replica gets every message on `subject` (core NATS, no queue group). */
  async subscribe(subject: string, handler: (payload: unknown) => void): Promise<void> {
    const nc = await this.connect();
    const sub = nc.subscribe(subject);
    void (async () => {
      for await (const msg of sub) {
        try {
          const body = msg.json<unknown>();
          // Nest's ClientProxy.emit wraps an event as {pattern, data}; plain publishers send the event itself.
          const isNestPacket = typeof body === 'object' && body !== null && 'pattern' in body && 'data' in body;
          handler(isNestPacket ? (body as { data: unknown }).data : body);
        } catch (error) {
          this.logger.warn(`bad message on ${subject}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    })();
    await nc.flush();
  }

  async onApplicationShutdown() {
    const nc = await this.connection?.catch(() => undefined);
    await nc?.close();
  }
}
