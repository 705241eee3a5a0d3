import { z } from 'zod';
import { MEMBER_ROLES } from '../auth/common.js';
import { entityIdentifierSchema } from './entity.js';

// Case work on the review queue: who decides and why, the second pair of eyes, and the
// false-positive memory. Field names of what the dashboard reads are the product's (snake_case,
// like the rest of the queue); `clientId` and `actor` are always filled by the gateway from the
// verified credential and session, never from the request body.

const clientIdSchema = z.string().min(1).max(100);

/** The member's role in its client's team: viewers read, analysts decide, supervisors and owners confirm. */
export const reviewMemberRoleSchema = z.enum(MEMBER_ROLES);

/** The signed-in member who acts on a review: named on every decision and audit event. */
export const reviewActorSchema = z.object({
  userId: z.string().min(1).max(100),
  email: z.string().max(320),
  memberRole: reviewMemberRoleSchema,
});

/** Why a hit was cleared. The first four are false positives the memory remembers. */
export const APPROVE_REASON_CODES = [
  'different_person_dob',
  'different_person_country',
  'different_entity_type',
  'name_only_coincidence',
  'other',
] as const;
/** Why a hit was blocked. */
export const BLOCK_REASON_CODES = ['confirmed_match', 'likely_match_escalated', 'other'] as const;
export const REVIEW_REASON_CODES = [...new Set([...APPROVE_REASON_CODES, ...BLOCK_REASON_CODES])] as [
  string,
  ...string[],
];
/** Approve reasons that say "not this listed party": approving with one remembers the decision. */
export const MEMORY_REASON_CODES = [
  'different_person_dob',
  'different_person_country',
  'different_entity_type',
  'name_only_coincidence',
] as const;
export const REVIEW_NOTE_MAX = 2000;

export type ApproveReasonCode = (typeof APPROVE_REASON_CODES)[number];
export type BlockReasonCode = (typeof BLOCK_REASON_CODES)[number];
export type ReviewReasonCode = ApproveReasonCode | BlockReasonCode;

/**
 * `POST /api/sanctions/review/{id}?action=approve|block`, body `{reasonCode, note}`: the reason
 * must be one of the action's list, and `other` needs a note (VALIDATION_FAILED with pointers).
 */
export const reviewDecisionBodySchema = z.object({
  reasonCode: z
    .string()
    .min(1, 'a reason code is required')
    .describe(`approve: ${APPROVE_REASON_CODES.join(', ')}; block: ${BLOCK_REASON_CODES.join(', ')}.`),
  note: z.string().trim().max(REVIEW_NOTE_MAX).optional().describe('Required when reasonCode is "other".'),
});

/** `POST /api/sanctions/review/{id}/return`: a proposal goes back to the queue, with why. */
export const reviewReturnBodySchema = z.object({ note: z.string().trim().max(REVIEW_NOTE_MAX).optional() });

/** `GET /api/sanctions/review/{id}`: one case. */
export const reviewCaseRequestSchema = z.object({ clientId: clientIdSchema, id: z.uuid() });

/** `POST /api/sanctions/review/{id}/confirm`: a second supervisor or owner confirms a proposal. */
export const confirmReviewRequestSchema = z.object({
  clientId: clientIdSchema,
  id: z.uuid(),
  actor: reviewActorSchema,
});

/** `POST /api/sanctions/review/{id}/return`: the proposal goes back to pending (its proposer may withdraw it too). */
export const returnReviewRequestSchema = reviewReturnBodySchema.extend({
  clientId: clientIdSchema,
  id: z.uuid(),
  actor: reviewActorSchema,
});

/** What the analyst searched, as sent: the left side of the case. */
export const searchedInputSchema = z.object({
  name: z.string().nullable(),
  email: z.string().nullable(),
  dateOfBirth: z.string().nullable(),
  country: z.string().nullable(),
  entityType: z.string().nullable(),
  customerReference: z.string().nullable(),
});

/** The list entry as it stood when the screening hit it: the right side of the case. */
export const reviewListEntrySchema = z.object({
  entityId: z.string(),
  name: z.string(),
  names: z.array(z.string()),
  datesOfBirth: z.array(z.string()),
  identifiers: z.array(entityIdentifierSchema),
  nationalities: z.array(z.string()),
  entityType: z.string(),
  programs: z.array(z.string()),
  source: z.string(),
  sourceDataset: z.string(),
  /** The list version the screening searched for this source. */
  listVersion: z.object({ source: z.string(), versionId: z.number().int() }).nullable(),
});

/** One list entry a screen flagged, as the case's parties list it: the entry, its band and score. */
export const partyEntrySchema = reviewListEntrySchema.extend({
  status: z.enum(['review', 'blocked', 'clear']),
  score: z.number(),
  /** Set when a remembered decision cleared this entry on this screen: the review it came from. */
  suppressedBy: z.string().nullable(),
});

/**
 * One real-world party among a screen's hits: list entries that share an identifier, or a name and
 * a date of birth (organisations: a name and an entity type), are one party seen on several lists.
 */
export const reviewPartySchema = z.object({
  name: z.string(),
  entityType: z.string(),
  /** The party's strongest band among its entries. */
  status: z.enum(['review', 'blocked', 'clear']),
  score: z.number(),
  entries: z.array(partyEntrySchema),
});

/** A decision (or live proposal) of this client on the same list entity, newest first. */
export const previousDecisionSchema = z.object({
  review_id: z.string(),
  searched_input: z.string(),
  status: z.enum(['proposed', 'approved', 'blocked']),
  reason_code: z.string().nullable(),
  note: z.string().nullable(),
  decided_by_email: z.string().nullable(),
  proposed_by_email: z.string().nullable(),
  decided_at: z.string().nullable(),
  created_at: z.string(),
});

/** A remembered false positive: later screens with exactly this key come back clear. */
export const rememberedDecisionSchema = z.object({
  id: z.string(),
  /** The approved review the memory came from; `suppressedBy` on the screens it clears. */
  review_id: z.string(),
  searched_name: z.string(),
  date_of_birth: z.string().nullable(),
  country: z.string().nullable(),
  entity_type: z.string().nullable(),
  customer_reference: z.string().nullable(),
  entity_id: z.string(),
  entity_name: z.string(),
  reason_code: z.string(),
  note: z.string().nullable(),
  created_by_email: z.string().nullable(),
  created_at: z.string(),
});

export const rememberedRequestSchema = z.object({
  clientId: clientIdSchema,
  limit: z.number().int().min(1).max(500).default(100),
  offset: z.number().int().min(0).max(1_000_000).default(0),
});
/** `GET /api/sanctions/remembered`: the client's active memories (revoked ones no longer listed). */
export const rememberedResponseSchema = z.object({
  remembered: z.array(rememberedDecisionSchema),
  total: z.number().int().nonnegative(),
  limit: z.number().int(),
  offset: z.number().int(),
});

/** `DELETE /api/sanctions/remembered/{id}`: later screens are flagged again. */
export const revokeRememberedRequestSchema = z.object({
  clientId: clientIdSchema,
  id: z.uuid(),
  actor: reviewActorSchema,
});
export const revokeRememberedResponseSchema = z.object({
  revoked: rememberedDecisionSchema.extend({ revoked_at: z.string(), revoked_by_email: z.string().nullable() }),
});

/** `GET /api/sanctions/review-settings`. */
export const reviewSettingsSchema = z.object({
  /** Every approve/block is a proposal a second supervisor or owner confirms. */
  fourEyes: z.boolean(),
  updated_at: z.string().nullable(),
  updated_by_email: z.string().nullable(),
});
export const reviewSettingsRequestSchema = z.object({ clientId: clientIdSchema });
/** `PUT /api/sanctions/review-settings`, body `{fourEyes}`: supervisors and owners only. */
export const reviewSettingsBodySchema = z.object({ fourEyes: z.boolean() });
export const updateReviewSettingsRequestSchema = reviewSettingsBodySchema.extend({
  clientId: clientIdSchema,
  actor: reviewActorSchema,
});

/**
 * How a remembered decision bore on a screening result: `suppressedBy` (the review id) when it
 * cleared it, or the note that it no longer applies because the list entry changed.
 */
export const memoryEffectSchema = z.object({
  suppressedBy: z.string().optional(),
  memoryNote: z.string().optional(),
});

export type ReviewActor = z.infer<typeof reviewActorSchema>;
export type ReviewDecisionBody = z.infer<typeof reviewDecisionBodySchema>;
export type ReviewReturnBody = z.infer<typeof reviewReturnBodySchema>;
export type ReviewCaseRequest = z.infer<typeof reviewCaseRequestSchema>;
export type ConfirmReviewRequest = z.infer<typeof confirmReviewRequestSchema>;
export type ReturnReviewRequest = z.infer<typeof returnReviewRequestSchema>;
export type SearchedInput = z.infer<typeof searchedInputSchema>;
export type ReviewListEntry = z.infer<typeof reviewListEntrySchema>;
export type PreviousDecision = z.infer<typeof previousDecisionSchema>;
export type PartyEntry = z.infer<typeof partyEntrySchema>;
export type ReviewParty = z.infer<typeof reviewPartySchema>;
export type RememberedDecision = z.infer<typeof rememberedDecisionSchema>;
export type RememberedRequest = z.input<typeof rememberedRequestSchema>;
export type ParsedRememberedRequest = z.infer<typeof rememberedRequestSchema>;
export type RememberedResponse = z.infer<typeof rememberedResponseSchema>;
export type RevokeRememberedRequest = z.infer<typeof revokeRememberedRequestSchema>;
export type RevokeRememberedResponse = z.infer<typeof revokeRememberedResponseSchema>;
export type ReviewSettings = z.infer<typeof reviewSettingsSchema>;
export type ReviewSettingsRequest = z.infer<typeof reviewSettingsRequestSchema>;
export type UpdateReviewSettingsRequest = z.infer<typeof updateReviewSettingsRequestSchema>;
export type MemoryEffect = z.infer<typeof memoryEffectSchema>;
