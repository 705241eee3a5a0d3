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

/**
 * Who ran a screening, as the gateway verified it: the signed-in member (`user`), the API key that
 * alone authenticated the request (`api_key`: its id and display prefix, never the key or its hash),
 * or a background origin (`bulk_job`, `monitoring`). The gateway fills it from the credentials it
 * checked, never from the request body; `monitoring` is set by screening itself for requests on
 * `screening.v1.rescreen`, the subject only monitoring may publish.
 */
export const SCREENING_ACTOR_KINDS = ['user', 'api_key', 'bulk_job', 'monitoring'] as const;
const userActorSchema = z.object({
  kind: z.literal('user'),
  userId: z.string().min(1).max(100),
  email: z.string().max(320),
});
const apiKeyActorSchema = z.object({
  kind: z.literal('api_key'),
  keyId: z.string().min(1).max(100),
  keyPrefix: z.string().min(1).max(40),
});
const bulkJobActorSchema = z.object({
  kind: z.literal('bulk_job'),
  jobId: z.string().min(1).max(100),
  /** Who submitted the job (the member's email or the key's display prefix), as the gateway verified it. */
  submittedBy: z.string().max(320).optional(),
});
/** What the gateway may name on a screening request (monitoring's re-screens have their own subject). */
export const requestActorSchema = z.discriminatedUnion('kind', [
  userActorSchema,
  apiKeyActorSchema,
  bulkJobActorSchema,
]);
export const screeningActorSchema = z.discriminatedUnion('kind', [
  userActorSchema,
  apiKeyActorSchema,
  bulkJobActorSchema,
  z.object({ kind: z.literal('monitoring') }),
]);

/** How the dashboard, its exports and the CSV name who ran a screening (empty when not named). */
export function screenedByLabel(actor: ScreeningActor | null | undefined): string {
  switch (actor?.kind) {
    case undefined:
      return '';
    case 'user':
      return actor.email || `user ${actor.userId}`;
    case 'api_key':
      return `API key ${actor.keyPrefix}…`;
    case 'bulk_job':
      return actor.submittedBy ? `Bulk job ${actor.jobId} by ${actor.submittedBy}` : `Bulk job ${actor.jobId}`;
    case 'monitoring':
      return 'Monitoring';
  }
}

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
export type ScreeningActor = z.infer<typeof screeningActorSchema>;
export type RequestActor = z.infer<typeof requestActorSchema>;
export type ScreeningActorKind = ScreeningActor['kind'];
export type ScreeningThresholds = z.infer<typeof screeningThresholdsSchema>;
export type MatchStatus = z.infer<typeof matchStatusSchema>;
export type MatchLabel = z.infer<typeof matchLabelSchema>;
export type ScreeningEntityType = z.infer<typeof entityTypeSchema>;
export type ListVersionRef = z.infer<typeof listVersionRefSchema>;
