import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { AckPolicy, DeliverPolicy, type ConsumerMessages } from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';
import { Nats } from '@vigil/platform';
import { bulkJobCompletedEventSchema, durableConsumers, screenedEventSchema, streams, subjects } from '@vigil/proto';
import { MONITORING_CONFIG } from '../config.token.js';
import type { MonitoringConfig } from '../env.js';
import { PushPublisher } from '../push/push.publisher.js';
import { WebhooksRepository } from '../webhooks/webhooks.repository.js';

// Named in the bus's permission table: the only consumers monitoring may create on these streams.
export const SCREENINGS_CONSUMER = durableConsumers.monitoringReviewItems.durable;
export const BULK_JOBS_CONSUMER = durableConsumers.monitoringBulkJobs.durable;

/**
 * Turns other services' events into webhook deliveries and live pushes:
 * - `screening.v1.screened` with status review (a new item in the client's review queue) →
 *   `screening.review_required`, from a durable JetStream consumer (idempotent by screening id);
 * - `bulk.v1.job-completed` → `bulk_job.completed`, from a durable JetStream consumer of BULK_JOB_EVENTS
 *   (idempotent by job id: the delivery's key is `bulk_job:<jobId>`, unique per endpoint), so a job
 *   that finished while monitoring was down is still announced once it is back.
 */
@Injectable()
export class NotificationsConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(NotificationsConsumer.name);
  private messages: ConsumerMessages | undefined;
  private bulkJobMessages: ConsumerMessages | undefined;
  private stopped = false;

  constructor(
    private readonly nats: Nats,
    private readonly webhooks: WebhooksRepository,
    private readonly push: PushPublisher,
    @Inject(MONITORING_CONFIG) private readonly config: MonitoringConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.EVENT_CONSUMERS) return;
    void this.start();
  }

  private async start(): Promise<void> {
    await Promise.all([
      this.keepTrying('SCREENINGS', () => this.attachScreenings()),
      this.keepTrying('BULK_JOB_EVENTS', () => this.attachBulkJobs()),
    ]);
  }

  /** A stream's publisher creates it at boot, which may be after this service starts. */
  private async keepTrying(stream: string, attach: () => Promise<void>): Promise<void> {
    for (let attempt = 0; !this.stopped; attempt++) {
      try {
        await attach();
        return;
      } catch (error) {
        if (attempt % 20 === 0) {
          this.logger.warn(
            `waiting for the ${stream} stream: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  }

  private async attachBulkJobs(): Promise<void> {
    const { js } = this.nats;
    const jsm = await this.nats.jetstreamManager();
    await jsm.streams.info(streams.bulkJobEvents.name);
    try {
      await jsm.consumers.info(streams.bulkJobEvents.name, BULK_JOBS_CONSUMER);
    } catch {
      await jsm.consumers.add(streams.bulkJobEvents.name, {
        durable_name: BULK_JOBS_CONSUMER,
        ack_policy: AckPolicy.Explicit,
        ack_wait: nanos(30_000),
        max_deliver: -1,
        // Everything the stream still holds: jobs finished before this consumer first existed count too.
        deliver_policy: DeliverPolicy.All,
        filter_subject: subjects.gateway.bulkJobCompleted,
      });
    }
    const consumer = await js.consumers.get(streams.bulkJobEvents.name, BULK_JOBS_CONSUMER);
    this.bulkJobMessages = await consumer.consume({ max_messages: 100 });
    void (async () => {
      for await (const msg of this.bulkJobMessages!) {
        if (this.stopped) break;
        const parsed = bulkJobCompletedEventSchema.safeParse(msg.json());
        if (!parsed.success) {
          msg.term();
          continue;
        }
        const { jobId, clientId, total, completedAt } = parsed.data;
        try {
          await this.webhooks.enqueue(this.webhooks.db, clientId, 'bulk_job.completed', `bulk_job:${jobId}`, {
            job_id: jobId,
            total,
            completed_at: completedAt,
          });
          msg.ack();
        } catch (error) {
          this.logger.warn(
            `bulk_job.completed for ${jobId}: ${error instanceof Error ? error.message : String(error)}`,
          );
          msg.nak(2_000);
        }
      }
    })();
  }

  private async attachScreenings(): Promise<void> {
    const { js } = this.nats;
    const jsm = await this.nats.jetstreamManager();
    await jsm.streams.info(streams.screenings.name);
    try {
      await jsm.consumers.info(streams.screenings.name, SCREENINGS_CONSUMER);
    } catch {
      await jsm.consumers.add(streams.screenings.name, {
        durable_name: SCREENINGS_CONSUMER,
        ack_policy: AckPolicy.Explicit,
        ack_wait: nanos(30_000),
        max_deliver: -1,
        deliver_policy: DeliverPolicy.New,
        filter_subject: subjects.screening.screened,
      });
    }
    const consumer = await js.consumers.get(streams.screenings.name, SCREENINGS_CONSUMER);
    this.messages = await consumer.consume({ max_messages: 100 });
    void (async () => {
      for await (const msg of this.messages!) {
        if (this.stopped) break;
        const parsed = screenedEventSchema.safeParse(msg.json());
        if (!parsed.success) {
          msg.term();
          continue;
        }
        const event = parsed.data;
        if (event.status !== 'review') {
          msg.ack();
          continue;
        }
        const review = {
          screening_id: event.screeningId,
          searched_name: event.searchedName,
          matched_name: event.matchedName,
          score: event.score,
          created_at: event.createdAt,
        };
        try {
          await this.webhooks.enqueue(
            this.webhooks.db,
            event.clientId,
            'screening.review_required',
            `review:${event.screeningId}`,
            review,
          );
          this.push.send(event.clientId, { type: 'screening.review_required', review });
          msg.ack();
        } catch (error) {
          this.logger.warn(
            `review item ${event.screeningId}: ${error instanceof Error ? error.message : String(error)}`,
          );
          msg.nak(2_000);
        }
      }
    })();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    await this.messages?.close().catch(() => undefined);
    await this.bulkJobMessages?.close().catch(() => undefined);
  }
}
