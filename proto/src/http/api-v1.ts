import { z } from 'zod';
import { TIERS } from '../clients/tiers.js';
import { ERROR_HTTP_STATUS, type ErrorCode } from '../errors.js';
import { screenEntitySchema } from '../screening/screen.js';
import { BULK_SCREEN_MAX_NAMES, bulkItemSchema, bulkRowSchema } from '../screening/bulk-screen.js';

/** Batches up to this size are answered at once; larger ones become an asynchronous job. */
export const BULK_SYNC_MAX_NAMES = BULK_SCREEN_MAX_NAMES;
export const BULK_ASYNC_MAX_NAMES = 100_000;
/** Idempotency-Key header: at most this many characters (kept at least 24 h). */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/** `POST /api/v1/screen` and the dashboard's `POST /api/screen`. */
export const apiScreenRequestSchema = screenEntitySchema;

/** `POST /api/v1/bulk-screen` and the dashboard's `POST /api/sanctions/bulk-search`. */
export const apiBulkScreenRequestSchema = z
  .object({
    /** Bare names; or `entities`. */
    names: z
      .array(z.string().trim().min(1, 'must not be blank').max(300))
      .min(1, 'Please enter at least one entity name')
      .max(BULK_ASYNC_MAX_NAMES, `Maximum ${BULK_ASYNC_MAX_NAMES} entities allowed per batch`)
      .optional(),
    /** Rows with a single screen's fields and your own `reference`, echoed in each result; or `names`. */
    entities: z
      .array(bulkRowSchema)
      .min(1, 'Please enter at least one entity')
      .max(BULK_ASYNC_MAX_NAMES, `Maximum ${BULK_ASYNC_MAX_NAMES} entities allowed per batch`)
      .optional(),
    /** Matches to return per name. */
    limit: z.number().int().min(1).max(10).optional(),
  })
  .refine((r) => (r.names === undefined) !== (r.entities === undefined), {
    message: 'send either names or entities',
    path: ['names'],
  });

export type ApiScreenRequest = z.output<typeof apiScreenRequestSchema>;
export type ApiBulkScreenRequest = z.output<typeof apiBulkScreenRequestSchema>;

export const BULK_JOB_STATUSES = ['queued', 'running', 'completed'] as const;
export type BulkJobStatus = (typeof BULK_JOB_STATUSES)[number];

const errorCodeSchema = z.enum(Object.keys(ERROR_HTTP_STATUS) as [ErrorCode, ...ErrorCode[]]);

/** `202` answer of an asynchronous bulk request. */
export const bulkJobAcceptedSchema = z.object({
  jobId: z.string(),
  status: z.enum(BULK_JOB_STATUSES),
  total: z.number().int(),
  /** Where to poll the job (also the `Location` header). */
  statusUrl: z.string(),
});
export type BulkJobAccepted = z.infer<typeof bulkJobAcceptedSchema>;

/**
 * A row of a bulk job that could not be screened (screening refused it, or kept failing until the
 * worker gave up): its reason, so the job still completes and says which rows need another look.
 */
export const bulkJobFailedItemSchema = z.object({
  searchedName: z.string(),
  reference: z.string().optional(),
  status: z.literal('failed'),
  error: z.object({ code: errorCodeSchema, detail: z.string() }),
});
export type BulkJobFailedItem = z.infer<typeof bulkJobFailedItemSchema>;
/**
 * A job's screened row also says what it was screened against (chunks of one job may meet different
 * list versions); rows stored before this was recorded lack both.
 */
export const bulkJobScreenedItemSchema = bulkItemSchema.extend({
  listVersions: z.array(z.object({ source: z.string(), versionId: z.number().int() })).optional(),
  algorithm: z.string().optional(),
});
export const bulkJobItemSchema = z.union([bulkJobScreenedItemSchema, bulkJobFailedItemSchema]);
export type BulkJobItem = z.infer<typeof bulkJobItemSchema>;

/** `GET /api/v1/jobs/{id}?offset&limit` (JSON); `?format=csv` downloads every result as CSV. */
export const bulkJobResponseSchema = z.object({
  id: z.string(),
  status: z.enum(BULK_JOB_STATUSES),
  total: z.number().int(),
  processed: z.number().int(),
  /** Rows among the processed ones that carry an `error` instead of a screening result. */
  failed: z.number().int(),
  /** processed / total, 0..1; never decreases. */
  progress: z.number().min(0).max(1),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
  results: z.array(z.intersection(bulkJobItemSchema, z.object({ row: z.number().int() }))),
  page: z.object({
    offset: z.number().int(),
    limit: z.number().int(),
    returned: z.number().int(),
    /** More results are stored past this page now (a running job may add more later). */
    has_more: z.boolean(),
    /** The `offset` of the next page (the row after the last returned); null when nothing is past it yet. */
    next_offset: z.number().int().nullable(),
  }),
});
export type BulkJobResponse = z.infer<typeof bulkJobResponseSchema>;

/** `GET /api/status` and `GET /api/v1/status`: the calling client's current usage period. */
export const apiStatusResponseSchema = z.object({
  tier: z.enum(TIERS),
  usage: z.number(),
  quota: z.number(),
  remaining: z.number(),
  client: z.string(),
  subscriptionStatus: z.string(),
  /** Start of the usage period (the billing period), ISO 8601. */
  period: z.string(),
  /** When usage starts again at 0, ISO 8601. */
  periodEnd: z.string(),
});
export type ApiStatusResponse = z.infer<typeof apiStatusResponseSchema>;
