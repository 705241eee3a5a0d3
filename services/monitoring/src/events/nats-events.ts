import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { natsConnectionOptions } from '@vigil/platform';
import { MONITORING_CONFIG } from '../config.token.js';
import type { MonitoringConfig } from '../env.js';

/** The service's own NATS connection for JetStream consumers and plain (core) publishes. */
@Injectable()
export class NatsEvents implements OnModuleDestroy {
  private connection: Promise<{ nc: NatsConnection; js: JetStreamClient; jsm: JetStreamManager }> | undefined;
  private closed = false;

  constructor(@Inject(MONITORING_CONFIG) private readonly config: MonitoringConfig) {}

  connect() {
    this.connection ??= (async () => {
      const nc = await connect(natsConnectionOptions(this.config.NATS_URL, 'vigil-monitoring-events'));
      return { nc, js: jetstream(nc), jsm: await jetstreamManager(nc) };
    })().catch((error: unknown) => {
      this.connection = undefined;
      throw error;
    });
    return this.connection;
  }

  /** Core NATS, fire and forget: for live push, where a missed message only means a later refresh. */
  async publish(subject: string, payload: unknown): Promise<void> {
    if (this.closed) return;
    const { nc } = await this.connect();
    nc.publish(subject, JSON.stringify(payload));
  }

  async onModuleDestroy(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const connection = await this.connection?.catch(() => undefined);
    await connection?.nc.close().catch(() => undefined);
  }
}
