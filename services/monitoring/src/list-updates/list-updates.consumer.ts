import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { AckPolicy, DeliverPolicy, type ConsumerMessages } from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';
import { Nats } from '@vigil/platform';
import { durableConsumers, listsUpdatedEventSchema, streams, subjects } from '@vigil/proto';
import { MONITORING_CONFIG } from '../config.token.js';
import type { MonitoringConfig } from '../env.js';
import { ListUpdatesService } from './list-updates.service.js';

// Named in the bus's permission table: the only consumer monitoring may create on LISTS.
export const LIST_UPDATES_CONSUMER = durableConsumers.monitoringListUpdates.durable;

/**
 * A durable JetStream consumer of `lists.v1.updated`, shared by the replicas (one delivery each
 * event). A replica that dies mid re-screen never acknowledges, so the event comes back after
 * the ack wait; the per-(version, entity) record makes the second pass raise only what the first
 * did not commit.
 */
@Injectable()
export class ListUpdatesConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ListUpdatesConsumer.name);
  private messages: ConsumerMessages | undefined;
  private stopped = false;
  running = false;

  constructor(
    private readonly nats: Nats,
    private readonly service: ListUpdatesService,
    @Inject(MONITORING_CONFIG) private readonly config: MonitoringConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.EVENT_CONSUMERS) void this.start();
  }

  private async start(): Promise<void> {
    // The LISTS stream is screening's: wait for it rather than create it with other settings.
    for (let attempt = 0; !this.stopped; attempt++) {
      try {
        await this.attach();
        return;
      } catch (error) {
        if (attempt % 20 === 0) {
          this.logger.warn(`waiting for the LISTS stream: ${error instanceof Error ? error.message : String(error)}`);
        }
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  }

  private async attach(): Promise<void> {
    const { js } = this.nats;
    const jsm = await this.nats.jetstreamManager();
    await jsm.streams.info(streams.lists.name);
    try {
      await jsm.consumers.info(streams.lists.name, LIST_UPDATES_CONSUMER);
    } catch {
      await jsm.consumers.add(streams.lists.name, {
        durable_name: LIST_UPDATES_CONSUMER,
        ack_policy: AckPolicy.Explicit,
        ack_wait: nanos(this.config.LIST_UPDATES_ACK_WAIT_MS),
        max_deliver: -1,
        // From the consumer's creation on: a new install does not replay 90 days of versions.
        deliver_policy: DeliverPolicy.New,
        filter_subject: subjects.lists.updated,
      });
    }
    const consumer = await js.consumers.get(streams.lists.name, LIST_UPDATES_CONSUMER);
    this.messages = await consumer.consume({ max_messages: 1 });
    this.running = true;
    void (async () => {
      for await (const msg of this.messages!) {
        if (this.stopped) break;
        const heartbeat = setInterval(
          () => msg.working(),
          Math.max(500, Math.floor(this.config.LIST_UPDATES_ACK_WAIT_MS / 3)),
        );
        try {
          const parsed = listsUpdatedEventSchema.safeParse(msg.json());
          if (!parsed.success) {
            this.logger.error(`dropping a malformed lists.v1.updated: ${parsed.error.message}`);
            msg.term();
            continue;
          }
          await this.service.process(parsed.data, () => msg.working());
          msg.ack();
        } catch (error) {
          this.logger.warn(
            `list update re-screen failed, will retry: ${error instanceof Error ? error.message : String(error)}`,
          );
          msg.nak(2_000);
        } finally {
          clearInterval(heartbeat);
        }
      }
      this.running = false;
    })();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    await this.messages?.close().catch(() => undefined);
  }
}
