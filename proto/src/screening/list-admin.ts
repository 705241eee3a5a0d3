import { z } from 'zod';
import { feedSchema } from './common.js';
import { LIST_STATUSES } from './lists.js';

export const INGESTION_STAGES = ['fetch', 'parse', 'validate', 'store'] as const;

/** A source's last failed refresh, shown while it is newer than the version being served. */
export const listFailureSchema = z.object({
  at: z.string(),
  stage: z.enum(INGESTION_STAGES),
  message: z.string(),
});

export const adminListsRequestSchema = z.object({});

/** One source as the admin console's Lists section shows it (GET /api/client/admin/lists). */
export const adminListSchema = z.object({
  source: z.string(),
  name: z.string(),
  feed: feedSchema,
  status: z.enum(LIST_STATUSES),
  /** Current list version id (null before the first good ingestion). */
  version: z.number().int().nullable(),
  entityCount: z.number().int().nonnegative(),
  /** SHA-256 of the current version's bytes. */
  checksum: z.string().nullable(),
  /** When the version being served was fetched. */
  lastSuccessAt: z.string().nullable(),
  /**
   * When the scheduler will next fetch it (last check + refresh interval, or now when never
   * checked); null when scheduled refreshes are off (LISTS_SCHEDULER=false) or the source is disabled.
   */
  nextRefreshAt: z.string().nullable(),
  refreshIntervalMinutes: z.number().int().positive(),
  lastFailure: listFailureSchema.nullable(),
  /**
   * The version the answering replica's screening index serves (null until loaded): `version` is
   * what Postgres holds, and this trails it while a new version is being indexed.
   */
  indexedVersion: z.number().int().nullable(),
});

/** Where screening's candidate index lives: in each replica's memory, or in a search cluster. */
export const INDEX_ENGINES = ['in-process', 'opensearch', 'elasticsearch'] as const;

export const adminListsResponseSchema = z.object({
  /** The index engine of the screening replica that answered. */
  index: z.object({ engine: z.enum(INDEX_ENGINES) }),
  lists: z.array(adminListSchema),
});

export const LIST_VERSIONS_PAGE_MAX = 200;

export const listVersionsRequestSchema = z.object({
  source: z.string().min(1).max(100),
  limit: z.number().int().min(1).max(LIST_VERSIONS_PAGE_MAX).default(50),
});

/** One stored version of a source, newest first, with what changed against the one before it. */
export const listVersionSchema = z.object({
  versionId: z.number().int(),
  fetchedAt: z.string(),
  entityCount: z.number().int().nonnegative(),
  checksum: z.string(),
  fileSize: z.number().int().nonnegative(),
  added: z.number().int().nonnegative(),
  changed: z.number().int().nonnegative(),
  removed: z.number().int().nonnegative(),
  /** What started the ingestion (schedule, admin, boot…). */
  trigger: z.string(),
  /** The version being served now. */
  current: z.boolean(),
});

export const listVersionsResponseSchema = z.object({
  source: z.string(),
  versions: z.array(listVersionSchema),
});

export type ListFailure = z.infer<typeof listFailureSchema>;
export type AdminList = z.infer<typeof adminListSchema>;
export type AdminListsResponse = z.infer<typeof adminListsResponseSchema>;
export type ListVersionsRequest = z.input<typeof listVersionsRequestSchema>;
export type ListVersion = z.infer<typeof listVersionSchema>;
export type ListVersionsResponse = z.infer<typeof listVersionsResponseSchema>;
