import { z } from 'zod';
import {
  listVersionRefSchema,
  matchLabelSchema,
  matchStatusSchema,
  requestActorSchema,
  screeningCallerSchema,
  screeningThresholdsSchema,
} from './common.js';
import { quotaLeaseRefSchema, screenEntityFieldsSchema, screenResultSchema } from './screen.js';

export const BULK_SCREEN_MAX_NAMES = 1000;

/**
 * A bulk row: every field a single screen takes (the name required, no email), and the client's own
 * `reference` for the row, echoed in its result and nowhere else (not matched, not logged).
 */
export const bulkRowSchema = z.strictObject({
  ...screenEntityFieldsSchema.omit({ email: true }).shape,
  name: z.string().trim().min(1, 'must not be blank').max(300),
  reference: z.string().trim().min(1).max(200).optional(),
});
export type BulkRow = z.infer<typeof bulkRowSchema>;
/** A bare name, or a row with a single screen's fields. */
export const bulkNameSchema = z.union([z.string().trim().min(1, 'must not be blank').max(300), bulkRowSchema]);
export type BulkName = z.infer<typeof bulkNameSchema>;
/** The row a bulk name stands for. */
export const bulkRowOf = (name: BulkName): BulkRow => (typeof name === 'string' ? { name } : name);

const bulkScreenFieldsSchema = screeningCallerSchema.extend({
  names: z
    .array(bulkNameSchema)
    .min(1, 'Please enter at least one entity name')
    .max(BULK_SCREEN_MAX_NAMES, `Maximum ${BULK_SCREEN_MAX_NAMES} entities allowed per batch`),
  thresholds: screeningThresholdsSchema.optional(),
  /** Matches to return per name; only results at or above MEDIUM_SCORE are returned. */
  limit: z.number().int().min(1).max(10).default(3),
  /**
   * The screening id of each name, from a caller that may send the same names again (a bulk job's
   * chunk redelivered after a crash): the retry's logs, alerts, reviews and audit events are then
   * the ones already written, not a second set. Random ids when absent.
   */
  screeningIds: z.array(z.uuid()).max(BULK_SCREEN_MAX_NAMES).optional(),
  /** As for a single screen: each name is logged under the lease, or not at all past `answerBy`. */
  quotaLease: quotaLeaseRefSchema.optional(),
});

const oneIdPerName: [
  (r: { names: unknown[]; screeningIds?: unknown[] | undefined }) => boolean,
  { message: string; path: string[] },
] = [
  (r) => r.screeningIds === undefined || r.screeningIds.length === r.names.length,
  { message: 'screeningIds must hold one id per name', path: ['screeningIds'] },
];

/** `screening.v1.bulk-screen`, the gateway's: `actor` is who it verified (a member, a key, a bulk job). */
export const bulkScreenRequestSchema = bulkScreenFieldsSchema
  .extend({ actor: requestActorSchema.optional() })
  .refine(...oneIdPerName);

/**
 * `screening.v1.rescreen`: monitoring's re-screens of a client's monitored entities. The same
 * request without an actor: only monitoring may publish the subject, so screening logs every
 * screen of it as run by `monitoring`, and no publisher can name a member or a key on it.
 */
export const rescreenRequestSchema = bulkScreenFieldsSchema.refine(...oneIdPerName);

/** A bulk result keeps what triage needs; screening.v1.entity / screen give the full explanation. */
export const bulkMatchSchema = screenResultSchema.pick({
  id: true,
  name: true,
  matchedName: true,
  score: true,
  status: true,
  label: true,
  source: true,
  sourceId: true,
  sourceDataset: true,
  feed: true,
  entityType: true,
});

export const bulkItemSchema = z.object({
  screeningId: z.string(),
  searchedName: z.string(),
  /** The row's `reference`, as the client sent it. */
  reference: z.string().optional(),
  match: z.boolean(),
  blocked: z.boolean(),
  status: matchStatusSchema,
  topScore: z.number(),
  label: matchLabelSchema,
  results: z.array(bulkMatchSchema),
});

export const bulkScreenResponseSchema = z.object({
  results: z.array(bulkItemSchema),
  summary: z.object({ total: z.number().int(), matches: z.number().int(), blocked: z.number().int() }),
  listVersions: z.array(listVersionRefSchema),
  algorithm: z.string(),
  thresholds: z.object({ highScore: z.number(), mediumScore: z.number() }),
  screenedAt: z.string(),
});

export type BulkScreenRequest = z.input<typeof bulkScreenRequestSchema>;
export type ParsedBulkScreenRequest = z.infer<typeof bulkScreenRequestSchema>;
export type RescreenRequest = z.input<typeof rescreenRequestSchema>;
export type ParsedRescreenRequest = z.infer<typeof rescreenRequestSchema>;
export type BulkMatch = z.infer<typeof bulkMatchSchema>;
export type BulkItem = z.infer<typeof bulkItemSchema>;
export type BulkScreenResponse = z.infer<typeof bulkScreenResponseSchema>;
