import { z } from 'zod';
import type { Tier } from '../clients/tiers.js';
import type { ErrorCode } from '../errors.js';
import { screenEntitySchema } from '../screening/screen.js';
import type { BulkItem } from '../screening/bulk-screen.js';
import { BULK_SCREEN_MAX_NAMES } from '../screening/bulk-screen.js';

/** Batches up to this size are answered at once; larger ones become an asynchronous job. */
export const BULK_SYNC_MAX_NAMES = BULK_SCREEN_MAX_NAMES;
export const BULK_ASYNC_MAX_NAMES = 100_000;
/** Idempotency-Key header: at most this many characters (kept at least 24 h). */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/** `POST /api/v1/screen` and the dashboard's `POST /api/screen`. */
export const apiScreenRequestSchema = screenEntitySchema;

/** `POST /api/v1/bulk-screen` and the dashboard's `POST /api/sanctions/bulk-search`. */
export const apiBulkScreenRequestSchema = z.object({
  names: z
    .array(z.string().trim().min(1, 'must not be blank').max(300))
    .min(1, 'Please enter at least one entity name')
    .max(BULK_ASYNC_MAX_NAMES, `Maximum ${BULK_ASYNC_MAX_NAMES} entities allowed per batch`),
  /** Matches to return per name. */
  limit: z.number().int().min(1).max(10).optional(),
});

export type ApiScreenRequest = z.output<typeof apiScreenRequestSchema>;
export type ApiBulkScreenRequest = z.output<typeof apiBulkScreenRequestSchema>;

export const BULK_JOB_STATUSES = ['queued', 'running', 'completed'] as const;
export type BulkJobStatus = (typeof BULK_JOB_STATUSES)[number];

/** `202` answer of an asynchronous bulk request. */
export type BulkJobAccepted = { jobId: string; status: BulkJobStatus; total: number; statusUrl: string };

/**
 * A row of a bulk job that could not be screened (screening refused it, or kept failing until the
 * worker gave up): its reason, so the job still completes and says which rows need another look.
 */
export type BulkJobFailedItem = { searchedName: string; status: 'failed'; error: { code: ErrorCode; detail: string } };
export type BulkJobItem = BulkItem | BulkJobFailedItem;

/** `GET /api/v1/jobs/{id}?offset&limit` (JSON); `?format=csv` downloads every result as CSV. */
export type BulkJobResponse = {
  id: string;
  status: BulkJobStatus;
  total: number;
  processed: number;
  /** Rows among the processed ones that carry an `error` instead of a screening result. */
  failed: number;
  /** processed / total, 0..1; never decreases. */
  progress: number;
  createdAt: string;
  completedAt: string | null;
  results: Array<BulkJobItem & { row: number }>;
  page: { offset: number; limit: number; returned: number };
};

/** `GET /api/status` and `GET /api/v1/status`: the calling client's current usage period. */
export type ApiStatusResponse = {
  tier: Tier;
  usage: number;
  quota: number;
  remaining: number;
  client: string;
  subscriptionStatus: string;
  /** Start of the usage period (the billing period), ISO 8601. */
  period: string;
  /** When usage starts again at 0, ISO 8601. */
  periodEnd: string;
};
