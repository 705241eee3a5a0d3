import { z } from 'zod';
import { FEEDS, TIERS } from '../clients/tiers.js';
import { thresholdConfigSchema } from '../clients/thresholds.js';

// Shapes shared by every screening request and reply.

export const feedSchema = z.enum(FEEDS);
export const tierSchema = z.enum(TIERS);

/**
 * Who is asking and what they may see. The gateway fills this from the client's
 * subscription; the screening service only ever searches `feeds`, whatever else
 * the request says.
 */
export const screeningCallerSchema = z.object({
  clientId: z.string().min(1).max(100),
  tier: tierSchema,
  feeds: z.array(feedSchema).min(1).max(FEEDS.length),
});

/**
 * The client's threshold configuration (null or absent: the global defaults, DEFAULT_THRESHOLDS).
 * All five apply per request: HIGH_SCORE and MEDIUM_SCORE decide status (MEDIUM_SCORE also caps
 * weak matches), DB_SIM_THRESHOLD and TRIGRAM_HITS_MIN decide which list tokens a misspelt query
 * token reaches, LEV_DISTANCE_MAX how many edits a fuzzy token match may have.
 */
export const screeningThresholdsSchema = thresholdConfigSchema.partial().nullable();

export const MATCH_STATUSES = ['blocked', 'review', 'clear'] as const;
export const matchStatusSchema = z.enum(MATCH_STATUSES);

export const MATCH_LABELS = [
  'Exact Match',
  'High Confidence Match',
  'Partial Match',
  'Low Confidence Match',
  'No Match',
] as const;
export const matchLabelSchema = z.enum(MATCH_LABELS);

/** The product's fixed score bands for labels (independent of a client's thresholds). */
export function matchLabel(score: number): MatchLabel {
  if (score >= 0.95) return 'Exact Match';
  if (score >= 0.85) return 'High Confidence Match';
  if (score >= 0.6) return 'Partial Match';
  if (score > 0) return 'Low Confidence Match';
  return 'No Match';
}

export const ENTITY_TYPES = ['individual', 'organization', 'vessel', 'aircraft'] as const;
export const entityTypeSchema = z.enum(ENTITY_TYPES);

/** One list version a screening looked at: the evidence of what "no match" covered. */
export const listVersionRefSchema = z.object({
  source: z.string(),
  feed: feedSchema,
  versionId: z.number().int().positive(),
  sha256: z.string(),
  fetchedAt: z.string(),
  entityCount: z.number().int().nonnegative(),
});

export type ScreeningCaller = z.infer<typeof screeningCallerSchema>;
export type ScreeningThresholds = z.infer<typeof screeningThresholdsSchema>;
export type MatchStatus = z.infer<typeof matchStatusSchema>;
export type MatchLabel = z.infer<typeof matchLabelSchema>;
export type ScreeningEntityType = z.infer<typeof entityTypeSchema>;
export type ListVersionRef = z.infer<typeof listVersionRefSchema>;
