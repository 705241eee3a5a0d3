import { z } from 'zod';
import { INT4_MAX } from '../text.js';
import { screeningCallerSchema, screeningThresholdsSchema } from '../screening/common.js';
import { bulkNameSchema } from '../screening/bulk-screen.js';

/**
 * `bulk.v1.chunk` (JetStream work-queue stream BULK_JOBS): one slice of an asynchronous
 * bulk job. Rows are numbered from the job's first name, so a redelivered chunk writes
 * the same (jobId, row) results again and is de-duplicated by the results' primary key.
 */
export const bulkJobChunkSchema = z.object({
  jobId: z.uuid(),
  clientId: z.string(),
  /** Index of the first name of this chunk within the job. */
  firstRow: z.number().int().nonnegative().max(INT4_MAX),
  names: z.array(bulkNameSchema).min(1).max(1000),
  caller: screeningCallerSchema,
  thresholds: screeningThresholdsSchema.optional(),
  limit: z.number().int().min(1).max(10),
  /** Who submitted the job, as the gateway verified it (screenedByLabel of the member or key): its rows name them. */
  submittedBy: z.string().max(320).optional(),
});

export type BulkJobChunk = z.infer<typeof bulkJobChunkSchema>;

/**
 * `bulk.v1.job-completed` (JetStream BULK_JOB_EVENTS): published by the worker that stored a job's last
 * results, before it acknowledges that chunk, so at least once; consumers de-duplicate by `jobId`.
 */
export const bulkJobCompletedEventSchema = z.object({
  jobId: z.uuid(),
  clientId: z.string(),
  total: z.number().int().nonnegative(),
  completedAt: z.string(),
});

export type BulkJobCompletedEvent = z.infer<typeof bulkJobCompletedEventSchema>;
