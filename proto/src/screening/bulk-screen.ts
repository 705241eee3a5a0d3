import { z } from 'zod';
import {
  listVersionRefSchema,
  matchLabelSchema,
  matchStatusSchema,
  screeningCallerSchema,
  screeningThresholdsSchema,
} from './common.js';
import { quotaLeaseRefSchema, screenIdentifierSchema, screenResultSchema, SCREEN_IDENTIFIERS_MAX } from './screen.js';

export const BULK_SCREEN_MAX_NAMES = 1000;

/**
 * Each row's identifiers, aligned with `names` (an empty list for a row without any): screened as
 * in a single screen, beside the row's name. Answered in one batch only (not in bulk jobs).
 */
export const bulkIdentifiersSchema = z
  .array(z.array(screenIdentifierSchema).max(SCREEN_IDENTIFIERS_MAX))
  .max(BULK_SCREEN_MAX_NAMES);

export const bulkScreenRequestSchema = screeningCallerSchema.extend({
  names: z
    .array(z.string().trim().min(1, 'must not be blank').max(300))
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
  identifiers: bulkIdentifiersSchema.optional(),
  /** As for a single screen: each name is logged under the lease, or not at all past `answerBy`. */
  quotaLease: quotaLeaseRefSchema.optional(),
})
  .refine((r) => r.screeningIds === undefined || r.screeningIds.length === r.names.length, {
    message: 'screeningIds must hold one id per name',
    path: ['screeningIds'],
  })
  .refine((r) => r.identifiers === undefined || r.identifiers.length === r.names.length, {
    message: 'identifiers must hold one list per name',
    path: ['identifiers'],
  });

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
export type BulkMatch = z.infer<typeof bulkMatchSchema>;
export type BulkItem = z.infer<typeof bulkItemSchema>;
export type BulkScreenResponse = z.infer<typeof bulkScreenResponseSchema>;
