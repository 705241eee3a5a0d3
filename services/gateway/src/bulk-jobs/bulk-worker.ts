import { Logger } from '@nestjs/common';
import { AckPolicy, jetstream, type ConsumerMessages } from '@nats-io/jetstream';
import { nanos, type NatsConnection } from '@nats-io/transport-node';
import { DomainError, RpcClient, runWithRequestId } from '@vigil/platform';
import {
  REQUEST_ID_HEADER,
  bulkJobChunkSchema,
  streams,
  subjects,
  type BulkJobCompletedEvent,
  type BulkScreenResponse,
} from '@vigil/proto';
import type { GatewayConfig } from '../env.js';
import { BulkJobsRepository } from './bulk-jobs.repository.js';

export const BULK_CONSUMER = 'bulk-workers';

/**
 * Consumes the BULK_JOBS work queue: each chunk is screened through
 * `screening.v1.bulk-screen`, its results stored, then acknowledged. A worker killed
 * mid-chunk never acknowledges, so JetStream hands the chunk to another worker after
 * BULK_ACK_WAIT_MS; the results table's key turns the second delivery into a no-op
 * for rows already written.
 */
export class BulkWorker {
  private readonly logger = new Logger(BulkWorker.name);
  private messages: ConsumerMessages | undefined;
  private stopped = false;

  constructor(
    private readonly nc: NatsConnection,
    private readonly rpc: RpcClient,
    private readonly jobs: BulkJobsRepository,
    private readonly config: Pick<GatewayConfig, 'BULK_ACK_WAIT_MS' | 'BULK_SCREEN_TIMEOUT_MS'>,
  ) {}

  async start(): Promise<void> {
    const js = jetstream(this.nc);
    const jsm = await js.jetstreamManager();
    const consumer = {
      durable_name: BULK_CONSUMER,
      ack_policy: AckPolicy.Explicit,
      ack_wait: nanos(this.config.BULK_ACK_WAIT_MS),
      max_deliver: -1,
      filter_subject: subjects.gateway.bulkChunk,
    };
    try {
      await jsm.consumers.info(streams.bulkJobs.name, BULK_CONSUMER);
    } catch {
      await jsm.consumers.add(streams.bulkJobs.name, consumer).catch(() => undefined);
    }
    const source = await js.consumers.get(streams.bulkJobs.name, BULK_CONSUMER);
    this.messages = await source.consume({ max_messages: 2 });
    void (async () => {
      for await (const msg of this.messages!) {
        if (this.stopped) break;
        const requestId = msg.headers?.get(REQUEST_ID_HEADER) || undefined;
        await runWithRequestId(requestId, async () => {
          // Tell JetStream we are alive while screening a large chunk.
          const heartbeat = setInterval(
            () => msg.working(),
            Math.max(500, Math.floor(this.config.BULK_ACK_WAIT_MS / 2)),
          );
          try {
            await this.process(msg.json());
            msg.ack();
          } catch (error) {
            const permanent = error instanceof DomainError && error.code === 'VALIDATION_FAILED';
            this.logger.warn(
              `chunk failed${permanent ? ' permanently' : ', will retry'}: ${error instanceof Error ? error.message : String(error)}`,
            );
            if (permanent) msg.term();
            else msg.nak(1_000);
          } finally {
            clearInterval(heartbeat);
          }
        });
      }
    })();
  }

  private async process(payload: unknown) {
    const chunk = bulkJobChunkSchema.parse(payload);
    const reply = await this.rpc.request<BulkScreenResponse>(
      subjects.screening.bulkScreen,
      {
        ...chunk.caller,
        names: chunk.names,
        limit: chunk.limit,
        ...(chunk.thresholds !== undefined ? { thresholds: chunk.thresholds } : {}),
      },
      { timeoutMs: this.config.BULK_SCREEN_TIMEOUT_MS },
    );
    if (reply.results.length !== chunk.names.length) {
      throw new Error(`screening answered ${reply.results.length} results for ${chunk.names.length} names`);
    }
    const { processed, total } = await this.jobs.saveChunk(chunk.jobId, chunk.firstRow, reply.results);
    if (total > 0 && processed >= total) {
      // For webhooks (monitoring); a redelivered last chunk announces it again, which monitoring de-duplicates.
      const event: BulkJobCompletedEvent = {
        jobId: chunk.jobId,
        clientId: chunk.clientId,
        total,
        completedAt: new Date().toISOString(),
      };
      this.nc.publish(subjects.gateway.bulkJobCompleted, JSON.stringify(event));
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.messages?.close().catch(() => undefined);
  }
}
