import { z } from 'zod';
import { feedSchema, listVersionRefSchema, matchStatusSchema, screeningActorSchema, tierSchema } from './common.js';

// Events on JetStream. Each carries an `eventId` that is also its Nats-Msg-Id, so a
// redelivered or re-published event is recognised by consumers (and by the stream's
// duplicate window) instead of being applied twice.

/** Above this many ids in one kind, the event carries counts only and `complete: false`. */
export const LIST_DELTA_MAX_IDS = 20_000;

/** `lists.v1.updated`: a source has a new list version. */
export const listsUpdatedEventSchema = z.object({
  eventId: z.string(),
  source: z.string(),
  feed: feedSchema,
  versionId: z.number().int().positive(),
  previousVersionId: z.number().int().positive().nullable(),
  sha256: z.string(),
  entityCount: z.number().int().nonnegative(),
  fetchedAt: z.string(),
  counts: z.object({ added: z.number().int(), changed: z.number().int(), removed: z.number().int() }),
  /** Entity ids (`<source>:<sourceId>`); empty when `complete` is false. */
  added: z.array(z.string()),
  changed: z.array(z.string()),
  removed: z.array(z.string()),
  complete: z.boolean(),
});

/** `lists.v1.refresh-failed`: a source could not be refreshed; its last good version keeps serving. */
export const listsRefreshFailedEventSchema = z.object({
  eventId: z.string(),
  source: z.string(),
  feed: feedSchema,
  stage: z.enum(['fetch', 'parse', 'validate', 'store']),
  error: z.string(),
  failedAt: z.string(),
  /** The version still serving, if any. */
  servingVersionId: z.number().int().positive().nullable(),
});

/** `screening.v1.screened`: one screening, for the audit trail. */
export const screenedEventSchema = z.object({
  eventId: z.string(),
  screeningId: z.string(),
  kind: z.enum(['single', 'bulk']),
  clientId: z.string(),
  tier: tierSchema,
  requestId: z.string().nullable(),
  searchedName: z.string().nullable(),
  searchedEmail: z.string().nullable(),
  matchFound: z.boolean(),
  status: matchStatusSchema,
  score: z.number(),
  topEntityId: z.string().nullable(),
  matchedName: z.string().nullable(),
  sourceList: z.string().nullable(),
  isAlert: z.boolean(),
  listVersions: z.array(listVersionRefSchema.pick({ source: true, versionId: true })),
  createdAt: z.string(),
  /** Who ran it (null: not named; absent from events published before screenings named it). */
  actor: screeningActorSchema.nullable().optional(),
});

export type ListsUpdatedEvent = z.infer<typeof listsUpdatedEventSchema>;
export type ListsRefreshFailedEvent = z.infer<typeof listsRefreshFailedEventSchema>;
export type ScreenedEvent = z.infer<typeof screenedEventSchema>;
