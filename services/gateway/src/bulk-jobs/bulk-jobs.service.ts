import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { DomainError, EventPublisher, gaugeFrom } from '@vigil/platform';
import {
  csvLine,
  subjects,
  type BulkJobAccepted,
  type BulkJobChunk,
  type BulkJobResponse,
  type BulkName,
  type ResolvedKey,
} from '@vigil/proto';
import { randomUUID } from 'node:crypto';
import { GATEWAY_CONFIG } from '../config.token.js';
import type { GatewayConfig } from '../env.js';
import { BulkJobsRepository, type BulkJobRow } from './bulk-jobs.repository.js';

export const JOB_PAGE_MAX = 1_000;
const CSV_COLUMNS = [
  'row',
  'searchedName',
  'match',
  'blocked',
  'status',
  'topScore',
  'label',
  'topMatchName',
  'topMatchSource',
  'topMatchId',
] as const;

@Injectable()
export class BulkJobs implements OnModuleInit {
  constructor(
    private readonly jobs: BulkJobsRepository,
    private readonly events: EventPublisher,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  /** The bulk queue's depth (jobs and names not yet screened), read at scrape time. */
  onModuleInit(): void {
    gaugeFrom('vigil_queue_depth', 'Work waiting in a queue, by queue and state', ['queue', 'state'], async () => {
      const open = await this.jobs.openJobs();
      return (['queued', 'running'] as const).flatMap((state) => {
        const row = open.find((r) => r.status === state);
        return [
          { labels: { queue: 'bulk_jobs', state }, value: row?.jobs ?? 0 },
          { labels: { queue: 'bulk_job_names', state }, value: row?.names ?? 0 },
        ];
      });
    });
  }

  /** Records the job, then queues its chunks; each chunk's message id makes a re-publication harmless. */
  /** Queues a job whose names are charged to quota lease `lease` (see BulkJobsRepository.create). */
  async submit(
    client: ResolvedKey,
    names: BulkName[],
    limit: number,
    lease: string,
    submittedBy?: string,
  ): Promise<BulkJobAccepted> {
    const jobId = randomUUID();
    if (!(await this.jobs.create(jobId, client.clientId, names.length, lease))) {
      throw new DomainError(
        'SERVICE_UNAVAILABLE',
        'The quota lease this job was counted under lapsed before the job was created; nothing was charged. Retry shortly.',
        undefined,
        1,
      );
    }
    try {
      for (let firstRow = 0; firstRow < names.length; firstRow += this.config.BULK_CHUNK_SIZE) {
        const chunk: BulkJobChunk = {
          jobId,
          clientId: client.clientId,
          firstRow,
          names: names.slice(firstRow, firstRow + this.config.BULK_CHUNK_SIZE),
          caller: { clientId: client.clientId, tier: client.tier, feeds: client.feeds },
          thresholds: client.thresholds,
          limit,
          ...(submittedBy ? { submittedBy } : {}),
        };
        await this.events.publish(subjects.gateway.bulkChunk, chunk, `${jobId}:${firstRow}`);
      }
    } catch {
      await this.jobs.remove(jobId).catch(() => undefined);
      throw new DomainError(
        'SERVICE_UNAVAILABLE',
        'The bulk job could not be queued; nothing was charged. Retry shortly.',
      );
    }
    return { jobId, status: 'queued', total: names.length, statusUrl: `/api/v1/jobs/${jobId}` };
  }

  async get(clientId: string, jobId: string, offset: number, limit: number): Promise<BulkJobResponse> {
    const job = await this.owned(clientId, jobId);
    const pageSize = Math.min(limit, JOB_PAGE_MAX);
    // One row past the page says whether there is more without counting.
    const [stored, failed] = await Promise.all([
      this.jobs.results(jobId, offset, pageSize + 1),
      this.jobs.failedCount(jobId),
    ]);
    const results = stored.slice(0, pageSize);
    const hasMore = stored.length > pageSize;
    return {
      id: job.id,
      status: job.status,
      total: job.total,
      processed: job.processed,
      failed,
      progress: Math.round((job.processed / job.total) * 10_000) / 10_000,
      createdAt: job.created_at.toISOString(),
      completedAt: job.completed_at?.toISOString() ?? null,
      results,
      page: {
        offset,
        limit,
        returned: results.length,
        has_more: hasMore,
        next_offset: hasMore ? results.at(-1)!.row + 1 : null,
      },
    };
  }

  /** Every result as CSV, read page by page so a 100,000-row job never sits in memory at once. */
  async *csv(clientId: string, jobId: string): AsyncGenerator<string> {
    await this.owned(clientId, jobId);
    yield csvLine(CSV_COLUMNS);
    for (let offset = 0; ; offset += JOB_PAGE_MAX) {
      const page = await this.jobs.results(jobId, offset, JOB_PAGE_MAX);
      if (page.length === 0) return;
      yield page
        .map((r) => {
          if ('error' in r) return [r.row, r.searchedName, '', '', r.status, '', r.error.detail];
          const top = r.results[0];
          return [
            r.row,
            r.searchedName,
            r.match,
            r.blocked,
            r.status,
            r.topScore,
            r.label,
            top?.name ?? '',
            top?.sourceDataset ?? '',
            top?.id ?? '',
          ];
        })
        .map(csvLine)
        .join('');
      offset = page[page.length - 1]!.row + 1 - JOB_PAGE_MAX;
    }
  }

  /** Every result as one JSON array, read page by page like the CSV. */
  async *json(clientId: string, jobId: string): AsyncGenerator<string> {
    await this.owned(clientId, jobId);
    yield '[';
    let first = true;
    for (let offset = 0; ; offset += JOB_PAGE_MAX) {
      const page = await this.jobs.results(jobId, offset, JOB_PAGE_MAX);
      if (page.length === 0) break;
      for (const result of page) {
        yield (first ? '\n' : ',\n') + JSON.stringify(result);
        first = false;
      }
      offset = page[page.length - 1]!.row + 1 - JOB_PAGE_MAX;
    }
    yield '\n]\n';
  }

  async owned(clientId: string, jobId: string): Promise<BulkJobRow> {
    const job = /^[0-9a-f-]{36}$/i.test(jobId) ? await this.jobs.findOwned(jobId, clientId) : null;
    if (!job) throw new DomainError('NOT_FOUND', 'No such job.');
    return job;
  }
}
