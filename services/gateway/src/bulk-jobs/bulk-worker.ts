import { Logger } from '@nestjs/common';
import { AckPolicy, type ConsumerMessages } from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';
import { DomainError, EventPublisher, Nats, RpcClient, runWithRequestId } from '@vigil/platform';
import {
  INT4_MAX,
  REQUEST_ID_HEADER,
  bulkJobChunkSchema,
  contracts,
  durableConsumers,
  streams,
  subjects,
  toSafeText,
  type BulkName,
  type BulkJobChunk,
  type BulkJobCompletedEvent,
  type BulkJobFailedItem,
  type BulkJobItem,
  type ErrorCode,
} from '@vigil/proto';
import { z } from 'zod';
import type { GatewayConfig } from '../env.js';
import { nameBasedUuid } from '../idempotency/operation-id.js';
import { BulkJobsRepository } from './bulk-jobs.repository.js';

// Named in the bus's permission table: the only consumer the gateway may create on BULK_JOBS.
export const BULK_CONSUMER = durableConsumers.bulkWorkers.durable;

/** Enough of a chunk to charge its rows with a failure when the rest cannot be read. */
const attributableRows = z.object({
  jobId: z.uuid(),
  firstRow: z.number().int().min(0).max(INT4_MAX),
  names: z.array(z.unknown()).min(1).max(1_000),
});

/** Thrown for a delivery past BULK_MAX_DELIVERIES: the chunk is not tried again. */
class GiveUp extends Error {
  constructor(attempt: number) {
    super(`delivered ${attempt} times without being acknowledged`);
  }
}

/** A chunk that cannot become valid by waiting: redelivering it would fail the same way. */
function isPermanent(error: unknown): boolean {
  return (
    error instanceof z.ZodError ||
    error instanceof SyntaxError ||
    (error instanceof DomainError && error.code === 'VALIDATION_FAILED')
  );
}

/** 1 s, 2 s, 4 s … at most 30 s between deliveries of a failing chunk. */
const backoffMs = (attempt: number) => Math.min(30_000, 1_000 * 2 ** Math.max(0, attempt - 1));

function describe(error: unknown): { code: ErrorCode; detail: string } {
  if (error instanceof DomainError) return { code: error.code, detail: error.message };
  if (error instanceof z.ZodError || error instanceof SyntaxError)
    return { code: 'VALIDATION_FAILED', detail: 'The queued chunk is not a valid bulk job chunk.' };
  if (error instanceof GiveUp)
    return { code: 'INTERNAL', detail: 'Screening this row failed repeatedly; it was given up.' };
  return { code: 'INTERNAL', detail: 'Screening this row failed.' };
}

function failedItem(name: unknown, error: unknown): BulkJobFailedItem {
  // A row (an object with a name and maybe a reference) or a bare name, as far as it can be read.
  const row = typeof name === 'object' && name !== null ? (name as { name?: unknown; reference?: unknown }) : null;
  const reference = typeof row?.reference === 'string' ? toSafeText(row.reference) : undefined;
  // Postgres jsonb holds no NUL and JSON no lone surrogate: the name is kept readable, not as sent.
  return {
    searchedName: toSafeText(String(row ? row.name : name)),
    ...(reference !== undefined ? { reference } : {}),
    status: 'failed',
    error: describe(error),
  };
}

/**
 * Consumes the BULK_JOBS work queue: each chunk is screened through
 * `screening.v1.bulk-screen`, its results stored, then acknowledged. A worker killed
 * mid-chunk never acknowledges, so JetStream hands the chunk to another worker after
 * BULK_ACK_WAIT_MS; the results table's key turns the second delivery into a no-op
 * for rows already written. A chunk that keeps failing is retried with a growing delay at most
 * BULK_MAX_DELIVERIES times (a validation failure: once); then each of its rows gets its result or
 * a failure with the reason, and the job completes instead of waiting forever.
 */
export class BulkWorker {
  private readonly logger = new Logger(BulkWorker.name);
  private messages: ConsumerMessages | undefined;
  private stopped = false;

  constructor(
    private readonly nats: Nats,
    private readonly events: EventPublisher,
    private readonly rpc: RpcClient,
    private readonly jobs: BulkJobsRepository,
    private readonly config: Pick<GatewayConfig, 'BULK_ACK_WAIT_MS' | 'BULK_SCREEN_TIMEOUT_MS' | 'BULK_MAX_DELIVERIES'>,
  ) {}

  async start(): Promise<void> {
    const { js } = this.nats;
    const jsm = await this.nats.jetstreamManager();
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
          const attempt = msg.info.deliveryCount;
          let payload: unknown;
          try {
            payload = msg.json();
            // Past the cap (a worker died on each earlier delivery, as an input that crashes the
            // process would make it): do not try again, account for the rows and move on.
            if (attempt > this.config.BULK_MAX_DELIVERIES) throw new GiveUp(attempt);
            await this.process(payload);
            msg.ack();
          } catch (error) {
            const final = error instanceof GiveUp || isPermanent(error) || attempt >= this.config.BULK_MAX_DELIVERIES;
            this.logger.warn(
              `chunk failed on delivery ${attempt}${final ? ', giving up' : ', will retry'}: ${describe(error).detail}`,
            );
            if (!final) return msg.nak(backoffMs(attempt));
            try {
              await this.giveUp(payload, error);
              msg.ack();
            } catch (failure) {
              this.logger.error(`cannot record the failed chunk: ${describe(failure).detail}`);
              msg.nak(backoffMs(attempt));
            }
          } finally {
            clearInterval(heartbeat);
          }
        });
      }
    })();
  }

  private async process(payload: unknown) {
    const chunk = bulkJobChunkSchema.parse(payload);
    const results = await this.screen(chunk, chunk.names, chunk.firstRow);
    await this.save(chunk.jobId, chunk.firstRow, results);
  }

  private async screen(chunk: BulkJobChunk, names: BulkName[], firstRow: number): Promise<BulkJobItem[]> {
    const reply = await this.rpc.request(
      contracts.screening.bulkScreen,
      {
        ...chunk.caller,
        // The job's chunks come from the gateway's own stream: its rows are logged as the job's, and
        // name who submitted it (the gateway wrote that from the credentials it verified).
        actor: {
          kind: 'bulk_job',
          jobId: chunk.jobId,
          ...(chunk.submittedBy ? { submittedBy: chunk.submittedBy } : {}),
        },
        names,
        // A redelivered chunk (the worker or screening died before the ack) screens the same rows
        // again: the same ids make screening keep the first logs instead of adding a second set.
        screeningIds: names.map((_, i) => rowScreeningId(chunk.jobId, firstRow + i)),
        limit: chunk.limit,
        ...(chunk.thresholds !== undefined ? { thresholds: chunk.thresholds } : {}),
      },
      { timeoutMs: this.config.BULK_SCREEN_TIMEOUT_MS },
    );
    if (reply.results.length !== names.length) {
      throw new Error(`screening answered ${reply.results.length} results for ${names.length} names`);
    }
    // A job's rows are read long after, chunk by chunk: each says what it was screened against.
    const listVersions = reply.listVersions.map(({ source, versionId }) => ({ source, versionId }));
    return reply.results.map((item) => ({ ...item, listVersions, algorithm: reply.algorithm }));
  }

  /**
   * The chunk will not be retried: every row gets a result or a failure with its reason, so the
   * job completes. A readable chunk is screened name by name, so one bad name fails alone; one
   * the worker cannot read fails all the rows it can attribute (none if it names no job).
   */
  private async giveUp(payload: unknown, error: unknown) {
    const full = bulkJobChunkSchema.safeParse(payload);
    if (full.success && full.data.names.length > 1 && !(error instanceof GiveUp)) {
      const chunk = full.data;
      const items: BulkJobItem[] = [];
      for (const [i, name] of chunk.names.entries()) {
        try {
          items.push(...(await this.screen(chunk, [name], chunk.firstRow + i)));
        } catch (failure) {
          items.push(failedItem(name, failure));
        }
      }
      await this.save(chunk.jobId, chunk.firstRow, items);
      return;
    }
    const rows = attributableRows.safeParse(payload);
    if (!rows.success) {
      this.logger.error('dropped a bulk chunk that names no job');
      return;
    }
    await this.save(
      rows.data.jobId,
      rows.data.firstRow,
      rows.data.names.map((name) => failedItem(name, error)),
    );
  }

  /** Stores a chunk's rows; the chunk that completes the job announces it (for webhooks, monitoring). */
  private async save(jobId: string, firstRow: number, items: BulkJobItem[]) {
    const { processed, total, clientId } = await this.jobs.saveChunk(jobId, firstRow, items);
    if (total > 0 && processed >= total) {
      // Stored in BULK_JOB_EVENTS before the chunk is acknowledged: if the broker does not take it,
      // this throws, the chunk is redelivered and the announcement made again (at least once).
      // The message id lets JetStream drop a repeat within its window; monitoring de-duplicates the rest.
      const event: BulkJobCompletedEvent = { jobId, clientId, total, completedAt: new Date().toISOString() };
      await this.events.publish(subjects.gateway.bulkJobCompleted, event, `bulk-job-completed:${jobId}`);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.messages?.close().catch(() => undefined);
  }
}

/** The screening id of a job's row: the same row always gets the same id. */
export function rowScreeningId(jobId: string, row: number): string {
  return nameBasedUuid(`vigil-bulk-row:${jobId}:${row}`);
}
