import { z } from 'zod';
import { matchStatusSchema, tierSchema } from './common.js';

// What the dashboard reads back from the screenings a client made: its logs, its sanction
// alerts and its review queue, and the decision on a review. Field names are the product's
// (snake_case, as the web app reads them). `clientId` is always the verified caller's,
// filled by the gateway from the credential, never from the request body.

export const SCREENING_LOGS_PAGE_MAX = 500;
export const SCREENING_LOGS_PAGE_DEFAULT = 100;

const clientIdSchema = z.string().min(1).max(100);
/** A calendar day (whole day, UTC) or an instant with its offset. */
const dateBoundSchema = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);
const pagingShape = {
  limit: z.number().int().min(1).max(SCREENING_LOGS_PAGE_MAX).default(SCREENING_LOGS_PAGE_DEFAULT),
  offset: z.number().int().min(0).max(1_000_000).default(0),
};

export const screeningLogsRequestSchema = z
  .object({
    clientId: clientIdSchema,
    /** Case-insensitive substring of the searched name. */
    searchedName: z.string().trim().min(1).max(300).optional(),
    matchFound: z.boolean().optional(),
    /** Inclusive; a bare date means from the start of that day (UTC). */
    fromDate: dateBoundSchema.optional(),
    /** Inclusive; a bare date means to the end of that day (UTC). */
    toDate: dateBoundSchema.optional(),
    ...pagingShape,
  })
  .refine((r) => !r.fromDate || !r.toDate || Date.parse(r.fromDate) <= Date.parse(r.toDate), {
    message: 'fromDate must not be after toDate',
    path: ['fromDate'],
  });

/** One screened name, as the Screening Logs page reads it. */
export const screeningLogSchema = z.object({
  id: z.string(),
  client_id: z.string(),
  searched_name: z.string().nullable(),
  searched_email: z.string().nullable(),
  match_found: z.boolean(),
  status: matchStatusSchema,
  sanctioned_entity_id: z.string().nullable(),
  matched_entity_name: z.string().nullable(),
  source_list: z.string().nullable(),
  /** 0..1 */
  score: z.number(),
  confidence: z.string(),
  tier: tierSchema,
  is_alert: z.boolean(),
  kind: z.enum(['single', 'bulk']),
  createdAt: z.string(),
});

export const screeningLogsResponseSchema = z.object({
  logs: z.array(screeningLogSchema),
  /** Rows matching the filters, for paging. */
  total: z.number().int().nonnegative(),
  /** The page's tabs (All / Matches / Alerts / Clear) under the name and date filters, whatever matchFound says. */
  counts: z.object({
    all: z.number().int().nonnegative(),
    matches: z.number().int().nonnegative(),
    alerts: z.number().int().nonnegative(),
    clear: z.number().int().nonnegative(),
  }),
  limit: z.number().int(),
  offset: z.number().int(),
});

export const sanctionAlertsRequestSchema = z.object({ clientId: clientIdSchema, ...pagingShape });

/** A blocked screening (read-only on the Alerts page). */
export const sanctionAlertSchema = z.object({
  id: z.string(),
  client_id: z.string(),
  full_name: z.string().nullable(),
  email: z.string().nullable(),
  matched_entity_id: z.string(),
  matched_name: z.string(),
  match_reason: z.string(),
  confidence: z.string(),
  /** 0..1 */
  risk_score: z.number(),
  triggered_at: z.string(),
  reviewed: z.boolean(),
});

export const sanctionAlertsResponseSchema = z.object({
  alerts: z.array(sanctionAlertSchema),
  total: z.number().int().nonnegative(),
  /** Alerts not yet marked reviewed. */
  unreviewed: z.number().int().nonnegative(),
  limit: z.number().int(),
  offset: z.number().int(),
});

export const REVIEW_STATUSES = ['pending', 'approved', 'blocked'] as const;
export const reviewStatusSchema = z.enum(REVIEW_STATUSES);

export const reviewsRequestSchema = z.object({
  clientId: clientIdSchema,
  status: reviewStatusSchema.optional(),
  ...pagingShape,
});

/** A screening in the review band, waiting for (or carrying) an analyst's decision. */
export const reviewSchema = z.object({
  id: z.string(),
  searched_input: z.string(),
  status: reviewStatusSchema,
  confidence: z.string(),
  /** 0..1 */
  screening_score: z.number(),
  created_at: z.string(),
  matched_entity_id: z.string(),
  decided_at: z.string().nullable(),
});

export const reviewsResponseSchema = z.object({
  reviews: z.array(reviewSchema),
  total: z.number().int().nonnegative(),
  /** The queue's filter buttons (Pending, Approved, Blocked, All), whatever `status` says. */
  counts: z.object({
    pending: z.number().int().nonnegative(),
    approved: z.number().int().nonnegative(),
    blocked: z.number().int().nonnegative(),
    all: z.number().int().nonnegative(),
  }),
  limit: z.number().int(),
  offset: z.number().int(),
});

export const REVIEW_ACTIONS = ['approve', 'block'] as const;
export const reviewActionSchema = z.enum(REVIEW_ACTIONS);

export const decideReviewRequestSchema = z.object({
  clientId: clientIdSchema,
  id: z.uuid(),
  action: reviewActionSchema,
  /** The signed-in user who decides, for the audit trail (set by the gateway from the session). */
  actorId: z.string().nullable().default(null),
});

export const decideReviewResponseSchema = z.object({ review: reviewSchema });

/** `screening.v1.logs.daily`: a client's screenings per UTC day, the last `days` days up to today, every day present. */
export const DAILY_USAGE_MAX_DAYS = 90;
export const dailyUsageRequestSchema = z.object({
  clientId: clientIdSchema,
  days: z.number().int().min(1).max(DAILY_USAGE_MAX_DAYS).default(30),
});
export const dailyUsageResponseSchema = z.object({
  days: z.array(
    z.object({
      date: z.iso.date(),
      screenings: z.number().int().nonnegative(),
      matches: z.number().int().nonnegative(),
      blocked: z.number().int().nonnegative(),
    }),
  ),
});

export type DailyUsageRequest = z.input<typeof dailyUsageRequestSchema>;
export type ParsedDailyUsageRequest = z.infer<typeof dailyUsageRequestSchema>;
export type DailyUsageResponse = z.infer<typeof dailyUsageResponseSchema>;
export type ScreeningLogsRequest = z.input<typeof screeningLogsRequestSchema>;
export type ParsedScreeningLogsRequest = z.infer<typeof screeningLogsRequestSchema>;
export type ScreeningLog = z.infer<typeof screeningLogSchema>;
export type ScreeningLogsResponse = z.infer<typeof screeningLogsResponseSchema>;
export type SanctionAlertsRequest = z.input<typeof sanctionAlertsRequestSchema>;
export type ParsedSanctionAlertsRequest = z.infer<typeof sanctionAlertsRequestSchema>;
export type SanctionAlert = z.infer<typeof sanctionAlertSchema>;
export type SanctionAlertsResponse = z.infer<typeof sanctionAlertsResponseSchema>;
export type ReviewStatus = z.infer<typeof reviewStatusSchema>;
export type ReviewsRequest = z.input<typeof reviewsRequestSchema>;
export type ParsedReviewsRequest = z.infer<typeof reviewsRequestSchema>;
export type Review = z.infer<typeof reviewSchema>;
export type ReviewsResponse = z.infer<typeof reviewsResponseSchema>;
export type ReviewAction = z.infer<typeof reviewActionSchema>;
export type DecideReviewRequest = z.infer<typeof decideReviewRequestSchema>;
export type DecideReviewResponse = z.infer<typeof decideReviewResponseSchema>;
