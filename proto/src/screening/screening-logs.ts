import { z } from 'zod';
import { MATCH_LABELS, matchStatusSchema, screeningActorSchema, tierSchema } from './common.js';
import {
  APPROVE_REASON_CODES,
  BLOCK_REASON_CODES,
  previousDecisionSchema,
  reviewPartySchema,
  rememberedDecisionSchema,
  reviewActorSchema,
  reviewDecisionBodySchema,
  reviewListEntrySchema,
  searchedInputSchema,
} from './reviews.js';
import { matchExplanationSchema } from './screen.js';

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
  limit: z
    .number()
    .int()
    .min(1)
    .max(SCREENING_LOGS_PAGE_MAX)
    .default(SCREENING_LOGS_PAGE_DEFAULT)
    .describe('1 to 500, default 100.'),
  offset: z.number().int().min(0).max(1_000_000).default(0),
};

/**
 * Who ran the screenings to list: `user:<id>` (a member), `api_key` or `api_key:<keyId>`,
 * `bulk_job` or `bulk_job:<jobId>`, `user` (any member), `monitoring`.
 */
export const screenedByFilterSchema = z
  .string()
  .regex(
    /^(monitoring|(user|api_key|bulk_job)(:[A-Za-z0-9_.@-]{1,100})?)$/,
    'must be user[:<id>], api_key[:<id>], bulk_job[:<id>] or monitoring',
  )
  .describe('user[:<id>], api_key[:<keyId>], bulk_job[:<jobId>] or monitoring.');
export type ScreenedByFilter = z.infer<typeof screenedByFilterSchema>;

/** The filters the Logs and Alerts pages share: a name, a date range, who ran it. */
const historyFilterShape = {
  /** Substring of the searched name (or e-mail), regardless of case and of accents. */
  searchedName: z
    .string()
    .trim()
    .min(1)
    .max(300)
    .optional()
    .describe('Part of the searched name, any case, accents ignored.'),
  /** Inclusive; a bare date means from the start of that day (UTC). */
  fromDate: dateBoundSchema.optional().describe('YYYY-MM-DD or an ISO 8601 instant; inclusive.'),
  /** Inclusive; a bare date means to the end of that day (UTC). */
  toDate: dateBoundSchema.optional().describe('YYYY-MM-DD (whole day) or an ISO 8601 instant; inclusive.'),
  screenedBy: screenedByFilterSchema.optional(),
};
const datesInOrder = [
  (r: { fromDate?: string | undefined; toDate?: string | undefined }) =>
    !r.fromDate || !r.toDate || Date.parse(r.fromDate) <= Date.parse(r.toDate),
  { message: 'fromDate must not be after toDate', path: ['fromDate'] },
] as const;

export const screeningLogsRequestSchema = z
  .object({
    clientId: clientIdSchema,
    ...historyFilterShape,
    matchFound: z.boolean().optional(),
    /** blocked (the Alerts tab), review or clear. */
    status: matchStatusSchema.optional(),
    ...pagingShape,
  })
  .refine(datesInOrder[0], { ...datesInOrder[1], path: ['fromDate'] });

/** Who decided a blocked screening's case, when, and why. */
export const screeningDecisionSchema = z.object({
  at: z.string(),
  by_email: z.string().nullable(),
  reason_code: z.string().nullable(),
  note: z.string().nullable(),
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
  /** Who ran it: a member, an API key (id and prefix), a bulk job or monitoring; null for screens logged before. */
  screened_by: screeningActorSchema.nullable(),
  /** A block an analyst overturned on review: `status` is then `clear`, and this says who, when and why. */
  cleared: screeningDecisionSchema.nullable(),
});

export const screeningLogsResponseSchema = z.object({
  logs: z.array(screeningLogSchema),
  /** Rows matching the filters, for paging. */
  total: z.number().int().nonnegative(),
  /** The page's tabs (All / Matches / Alerts / Clear) under the name, date and screened-by filters, whatever matchFound and status say. */
  counts: z.object({
    all: z.number().int().nonnegative(),
    matches: z.number().int().nonnegative(),
    alerts: z.number().int().nonnegative(),
    clear: z.number().int().nonnegative(),
  }),
  limit: z.number().int(),
  offset: z.number().int(),
});

export const sanctionAlertsRequestSchema = z
  .object({
    clientId: clientIdSchema,
    ...historyFilterShape,
    reviewed: z.boolean().optional(),
    confidence: z.enum(MATCH_LABELS).optional(),
    ...pagingShape,
  })
  .refine(datesInOrder[0], { ...datesInOrder[1], path: ['fromDate'] });

/** A blocked screening; its case in the review queue confirms or overturns the block. */
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
  /** Set when the screening's case was decided (confirmed or overturned), not before. */
  reviewed: z.boolean(),
  /** Who ran the screening that raised it (see the screening log's). */
  screened_by: screeningActorSchema.nullable(),
  /** `confirmed`: the block stands; `cleared`: it was overturned. Null while unreviewed. */
  review_outcome: z.enum(['confirmed', 'cleared']).nullable(),
  review: screeningDecisionSchema.nullable(),
});

export const sanctionAlertsResponseSchema = z.object({
  alerts: z.array(sanctionAlertSchema),
  /** Alerts matching the filters, for paging. */
  total: z.number().int().nonnegative(),
  /** Every alert of the client, whatever the filters. */
  all: z.number().int().nonnegative(),
  /** Alerts matching the filters not yet marked reviewed. */
  unreviewed: z.number().int().nonnegative(),
  limit: z.number().int(),
  offset: z.number().int(),
});

/** `proposed`: decided by one member, waiting for a second one's confirmation (four-eyes). */
export const REVIEW_STATUSES = ['pending', 'proposed', 'approved', 'blocked'] as const;
export const reviewStatusSchema = z.enum(REVIEW_STATUSES);

export const reviewsRequestSchema = z.object({
  clientId: clientIdSchema,
  status: reviewStatusSchema.optional(),
  ...pagingShape,
});

export const REVIEW_ACTIONS = ['approve', 'block'] as const;
export const reviewActionSchema = z.enum(REVIEW_ACTIONS);

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
  /** The list entry's primary name when the screening hit it. */
  matched_name: z.string().nullable(),
  /** When the decision became final (a confirmation, under four-eyes). */
  decided_at: z.string().nullable(),
  /** The member whose decision is final: the decider, or the confirmer under four-eyes. */
  decided_by_id: z.string().nullable(),
  decided_by_email: z.string().nullable(),
  /** The decision's reason (the proposal's, while proposed) and its note. */
  reason_code: z.string().nullable(),
  note: z.string().nullable(),
  /** Four-eyes: what was proposed, by whom and when (kept after the confirmation). */
  proposed_action: reviewActionSchema.nullable(),
  proposed_by_id: z.string().nullable(),
  proposed_by_email: z.string().nullable(),
  proposed_at: z.string().nullable(),
  /** Set when a remembered false positive no longer applies because the list entry changed. */
  memory_note: z.string().nullable(),
  /**
   * The band that raised the case: `review`, or `blocked` (the engine blocked the screening; approving
   * overturns the block and clears the screening, blocking confirms it).
   */
  raised_as: z.enum(['review', 'blocked']),
  /** How many real-world parties the screen flagged (the case lists each with its list entries). */
  party_count: z.number().int().nonnegative(),
});

export const reviewsResponseSchema = z.object({
  reviews: z.array(reviewSchema),
  total: z.number().int().nonnegative(),
  /** The queue's filter buttons (Pending, Proposed, Approved, Blocked, All), whatever `status` says. */
  counts: z.object({
    pending: z.number().int().nonnegative(),
    proposed: z.number().int().nonnegative(),
    approved: z.number().int().nonnegative(),
    blocked: z.number().int().nonnegative(),
    all: z.number().int().nonnegative(),
  }),
  limit: z.number().int(),
  offset: z.number().int(),
});

/**
 * `POST /api/sanctions/review/{id}?action=approve|block` with body `{reasonCode, note}`. With the
 * client's four-eyes setting on, the decision is a proposal (status `proposed`) until a second
 * supervisor or owner confirms it.
 */
export const decideReviewRequestSchema = reviewDecisionBodySchema
  .extend({
    clientId: clientIdSchema,
    id: z.uuid(),
    action: reviewActionSchema,
    /** The signed-in member who decides (set by the gateway from the session). */
    actor: reviewActorSchema,
  })
  .superRefine((r, ctx) => {
    const allowed: readonly string[] = r.action === 'approve' ? APPROVE_REASON_CODES : BLOCK_REASON_CODES;
    if (r.reasonCode && !allowed.includes(r.reasonCode)) {
      ctx.addIssue({
        code: 'custom',
        path: ['reasonCode'],
        message: `must be one of ${allowed.join(', ')} to ${r.action}`,
      });
    }
    if (r.reasonCode === 'other' && !r.note) {
      ctx.addIssue({ code: 'custom', path: ['note'], message: 'a note is required when the reason is "other"' });
    }
  });

/** `proposed`: the four-eyes setting made the decision a proposal; `decided`: it is final. */
export const decideReviewResponseSchema = z.object({
  review: reviewSchema,
  outcome: z.enum(['decided', 'proposed']),
  /** The remembered false positive this approval created, if its reason is one the memory keeps. */
  rememberedId: z.string().nullable(),
});

/** `POST /api/sanctions/review/{id}/confirm` and `/return`. */
export const reviewActionResponseSchema = z.object({ review: reviewSchema, rememberedId: z.string().nullable() });

/** `GET /api/sanctions/review/{id}`: everything the case pane shows. */
export const reviewCaseResponseSchema = z.object({
  review: reviewSchema,
  searched: searchedInputSchema,
  /** Null for reviews raised before the entry was kept with them. */
  entry: reviewListEntrySchema.nullable(),
  /** The top result's explanation: which query token met which list token, and the qualifiers. */
  explanation: matchExplanationSchema.nullable(),
  /** Every review- and block-level candidate of the screen, grouped by real-world party, strongest first. */
  parties: z.array(reviewPartySchema),
  previousDecisions: z.array(previousDecisionSchema),
  /** The active remembered decision this review created, if any. */
  remembered: rememberedDecisionSchema.nullable(),
});

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

/** Settling quota leases: how many screens screening logged under each lease (0 for one it never saw). */
export const QUOTA_LEASE_ANSWERS_MAX = 500;
export const quotaLeaseAnswersRequestSchema = z.object({
  leaseIds: z.array(z.uuid()).min(1).max(QUOTA_LEASE_ANSWERS_MAX),
});
export const quotaLeaseAnswersResponseSchema = z.object({
  answers: z.array(z.object({ leaseId: z.uuid(), answered: z.number().int().nonnegative() })),
});
export type QuotaLeaseAnswersResponse = z.infer<typeof quotaLeaseAnswersResponseSchema>;

export type DailyUsageRequest = z.input<typeof dailyUsageRequestSchema>;
export type ParsedDailyUsageRequest = z.infer<typeof dailyUsageRequestSchema>;
export type DailyUsageResponse = z.infer<typeof dailyUsageResponseSchema>;
export type ScreeningLogsRequest = z.input<typeof screeningLogsRequestSchema>;
export type ParsedScreeningLogsRequest = z.infer<typeof screeningLogsRequestSchema>;
export type ScreeningLog = z.infer<typeof screeningLogSchema>;
export type ScreeningDecision = z.infer<typeof screeningDecisionSchema>;
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
export type ReviewActionResponse = z.infer<typeof reviewActionResponseSchema>;
export type ReviewCaseResponse = z.infer<typeof reviewCaseResponseSchema>;
