import { z } from 'zod';
import { emailAddress } from '../email.js';
import {
  entityTypeSchema,
  listVersionRefSchema,
  matchLabelSchema,
  matchStatusSchema,
  requestActorSchema,
  screeningCallerSchema,
  screeningThresholdsSchema,
  feedSchema,
} from './common.js';

const partialDate = z
  .string()
  .trim()
  .regex(/^\d{4}(-\d{2}(-\d{2})?)?$/, 'must be YYYY, YYYY-MM or YYYY-MM-DD');

/**
 * The identifier schemes screening looks up exactly (after each scheme's normalisation). The
 * screening service checks at compile time that this is @vigil/lists' IDENTIFIER_SCHEMES.
 */
export const IDENTIFIER_TYPES = [
  'crypto-address',
  'imo',
  'mmsi',
  'passport',
  'national-id',
  'tax-id',
  'registration',
  'lei',
  'swift-bic',
  'iban',
] as const;
export type IdentifierType = (typeof IDENTIFIER_TYPES)[number];

/** Identifiers per screened party: a customer's documents, wallets and codes, not a list. */
export const SCREEN_IDENTIFIERS_MAX = 20;

/**
 * An identifier to screen: a listed one is blocked on its own; one the list gives differently
 * for a name match (another passport number, another IMO number) is evidence against that match.
 * Check digits are verified where the scheme has them (IMO, LEI, IBAN, wallet checksums): a value
 * that fails them is refused unless a list gives it exactly so.
 */
export const screenIdentifierSchema = z.strictObject({
  type: z.enum(IDENTIFIER_TYPES),
  value: z.string().trim().min(1).max(200),
  /** Issuing country of a passport, ID or registration number: ISO 3166-1 alpha-2. */
  country: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{2}$/, 'must be an ISO 3166-1 alpha-2 code')
    .optional(),
});
export type ScreenIdentifier = z.infer<typeof screenIdentifierSchema>;

/** What a screen takes about the party: a name, an email and/or identifiers, with optional qualifiers. */
export const screenEntityFieldsSchema = z.object({
  /** A wallet address typed here is recognised and screened as one. */
  name: z.string().trim().min(1).max(300).optional(),
  email: emailAddress().optional(),
  identifiers: z.array(screenIdentifierSchema).min(1).max(SCREEN_IDENTIFIERS_MAX).optional(),
  dateOfBirth: partialDate.optional(),
  /** ISO 3166-1 alpha-2 code or English country name. */
  nationality: z.string().trim().min(2).max(60).optional(),
  entityType: z.enum(['individual', 'organization', 'vessel', 'aircraft', 'person', 'company']).optional(),
  /** The client's own id for this customer: part of a remembered false positive's key, not matched. */
  customerReference: z.string().trim().min(1).max(200).optional(),
});

/** The party to screen: a name, an email and/or identifiers, with optional qualifiers. */
export const screenEntitySchema = screenEntityFieldsSchema.refine(
  (e) => e.name !== undefined || e.email !== undefined || e.identifiers !== undefined,
  { message: 'a name, an email or an identifier is required', path: ['name'] },
);

/**
 * How much of each result to return: `full` explains every candidate; `flagged` explains review
 * and blocked results in full and summarises the clear candidates as id, name and score.
 */
export const explainSchema = z.enum(['flagged', 'full']);
export type Explain = z.infer<typeof explainSchema>;

/**
 * The gateway's quota lease a screen is counted under: screening logs the screen under `id` only
 * if the log is written before `answerBy` (the database's clock), and answers the screens it
 * logged; the lease is later settled to the screens logged under it, so a client is charged for
 * exactly the screens answered.
 */
export const quotaLeaseRefSchema = z.object({ id: z.uuid(), answerBy: z.iso.datetime({ offset: true }) });
export type QuotaLeaseRef = z.infer<typeof quotaLeaseRefSchema>;

export const screenRequestSchema = screeningCallerSchema.extend({
  entity: screenEntitySchema,
  thresholds: screeningThresholdsSchema.optional(),
  /** Results to return (best first). */
  limit: z.number().int().min(1).max(50).default(10),
  explain: explainSchema.default('full'),
  /**
   * The log's id, from a caller that may send the same screen again (a retry under one
   * Idempotency-Key whose first answer was lost): the retry is then logged once. Random when absent.
   */
  screeningId: z.uuid().optional(),
  quotaLease: quotaLeaseRefSchema.optional(),
  /** Who runs it, from the gateway's verified credentials; logged with the screen (absent: not named). */
  actor: requestActorSchema.optional(),
});

/** How one query token met the list name: the explanation an analyst reads. */
export const tokenExplanationSchema = z.object({
  query: z.array(z.string()),
  list: z.array(z.string()),
  method: z.string(),
  score: z.number(),
  weight: z.number(),
});

export const qualifierExplanationSchema = z.object({
  qualifier: z.string(),
  effect: z.number(),
  detail: z.string(),
});

export const matchExplanationSchema = z.object({
  /**
   * Plain text, one line per step, as `explainMatch` of the matching core writes it: for the top
   * result and every review or blocked one; empty for the other clear candidates, whose tokens
   * and qualifiers carry the same explanation.
   */
  text: z.string(),
  nameScore: z.number(),
  queryScheme: z.string(),
  listScheme: z.string(),
  tokens: z.array(tokenExplanationSchema),
  unmatchedList: z.array(z.string()),
  qualifiers: z.array(qualifierExplanationSchema),
});

export const screenResultSchema = z.object({
  /** `<source>:<sourceId>`, stable across list versions; use it with screening.v1.entity. */
  id: z.string(),
  /** Primary name on the list. */
  name: z.string(),
  /** The list name or alias that matched. */
  matchedName: z.string(),
  matchedNameStrength: z.enum(['primary', 'strong', 'weak']),
  /**
   * 'email' or 'identifier' when the entity was found by an email address or an identifier it
   * lists (the qualifier says which: "SDN-listed ETH address 0x…").
   */
  matchedOn: z.enum(['name', 'email', 'identifier']),
  score: z.number().min(0).max(1),
  status: matchStatusSchema,
  label: matchLabelSchema,
  entityType: entityTypeSchema,
  source: z.string(),
  sourceId: z.string(),
  /** Dataset identifier for display (e.g. ofac_sdn, un_sanctions, peps). */
  sourceDataset: z.string(),
  feed: feedSchema,
  programs: z.array(z.string()),
  explanation: matchExplanationSchema,
  /**
   * The review whose remembered false-positive decision cleared this result (status `clear`,
   * the original score kept); absent when no memory applies.
   */
  suppressedBy: z.string().optional(),
  /** Why a remembered decision no longer applies to this result (the list entry changed since). */
  memoryNote: z.string().optional(),
});

/**
 * A clear candidate when only flagged results are explained: enough to look it up (screening.v1.entity).
 * Strict, so a full result is never taken for a summary.
 */
export const screenResultSummarySchema = screenResultSchema.pick({ id: true, name: true, score: true }).strict();

export const screenResponseSchema = z.object({
  /** The screening log id, also the id of the `screening.v1.screened` event. */
  screeningId: z.string(),
  searchedName: z.string().nullable(),
  searchedEmail: z.string().nullable(),
  /** A result at or above MEDIUM_SCORE. */
  match: z.boolean(),
  blocked: z.boolean(),
  status: matchStatusSchema,
  topScore: z.number(),
  label: matchLabelSchema,
  results: z.array(screenResultSchema),
  /** Exactly the list versions searched: the feeds allowed, as loaded at that moment. */
  listVersions: z.array(listVersionRefSchema),
  algorithm: z.string(),
  thresholds: z.object({ highScore: z.number(), mediumScore: z.number() }),
  screenedAt: z.string(),
});

/** The answer to `explain: 'flagged'`: full results for review and blocked, summaries for clear candidates. */
export const screenSummaryResponseSchema = screenResponseSchema.extend({
  // Summaries first: they are most results, and a full result fails the strict summary at its first extra key.
  results: z.array(z.union([screenResultSummarySchema, screenResultSchema])),
});

export type ScreenEntity = z.infer<typeof screenEntitySchema>;
export type ScreenRequest = z.input<typeof screenRequestSchema>;
export type ParsedScreenRequest = z.infer<typeof screenRequestSchema>;
export type TokenExplanation = z.infer<typeof tokenExplanationSchema>;
export type MatchExplanation = z.infer<typeof matchExplanationSchema>;
export type ScreenResult = z.infer<typeof screenResultSchema>;
export type ScreenResponse = z.infer<typeof screenResponseSchema>;
export type ScreenResultSummary = z.infer<typeof screenResultSummarySchema>;
export type ScreenSummaryResponse = z.infer<typeof screenSummaryResponseSchema>;
