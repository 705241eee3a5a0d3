import { z } from 'zod';
import { feedSchema, screeningCallerSchema } from './common.js';
import { entityDetailsSchema } from './entity.js';

export const LIST_STATUSES = ['active', 'updating', 'inactive'] as const;

export const listsRequestSchema = z.object({});

/** One source as the Lists page shows it. */
export const listInfoSchema = z.object({
  /** Source key, e.g. ofac-sdn; the prefix of its entity ids. */
  source: z.string(),
  name: z.string(),
  /** Publisher and where the data comes from (URL or file). */
  publisher: z.string(),
  location: z.string(),
  feed: feedSchema,
  sourceDataset: z.string(),
  /** active: serving a version; updating: an ingestion is running; inactive: nothing to serve. */
  status: z.enum(LIST_STATUSES),
  description: z.string(),
  entityCount: z.number().int().nonnegative(),
  /** Current list version id (null before the first good ingestion). */
  version: z.number().int().nullable(),
  fileSize: z.number().int().nonnegative().nullable(),
  /** When the current version was fetched. */
  lastUpdated: z.string().nullable(),
  /** SHA-256 of the current version's bytes. */
  checksum: z.string().nullable(),
  lastCheckedAt: z.string().nullable(),
  /** The last refresh failure, when it came after the current version. */
  lastError: z.string().nullable(),
  refreshIntervalMinutes: z.number().int().positive(),
});

export const listsResponseSchema = z.object({ lists: z.array(listInfoSchema) });

/**
 * The anonymous `GET /api/lists` (the public Watchlists page): names, versions and checksums with
 * the counts the page shows. Never where the server keeps or fetches its files, nor its errors.
 */
export const publicListInfoSchema = listInfoSchema.pick({
  source: true,
  name: true,
  feed: true,
  status: true,
  entityCount: true,
  version: true,
  lastUpdated: true,
  checksum: true,
});
export const publicListsResponseSchema = z.object({ lists: z.array(publicListInfoSchema) });

export const DATASET_PAGE_MAX = 2000;

/**
 * A page of a dataset's current entities. Downloads are paged because one NATS
 * message is capped (1 MiB by default); the gateway streams the pages to the client.
 */
export const datasetsRequestSchema = screeningCallerSchema.pick({ feeds: true }).extend({
  source: z.string().min(1).max(100),
  format: z.enum(['json', 'csv']).default('json'),
  /** Opaque cursor from the previous page's `nextCursor`. */
  cursor: z.string().max(300).optional(),
  limit: z.number().int().min(1).max(DATASET_PAGE_MAX).default(500),
});

export const datasetsResponseSchema = z.object({
  source: z.string(),
  format: z.enum(['json', 'csv']),
  version: z.number().int(),
  totalEntities: z.number().int(),
  /** json: the entities of this page. */
  entities: z.array(entityDetailsSchema).optional(),
  /** csv: this page's rows; the first page starts with the header row. */
  csv: z.string().optional(),
  nextCursor: z.string().nullable(),
});

/** Admin: refresh some or all sources now. */
export const refreshRequestSchema = z.object({
  sources: z.array(z.string().min(1)).optional(),
  /**
   * Accept a version the safety checks refuse: one that loses companion files the current
   * version had (e.g. OFAC's alt.csv), or shrinks the list by more than LISTS_MAX_SHRINK.
   */
  force: z.boolean().default(false),
});

export const REFRESH_OUTCOMES = ['updated', 'unchanged', 'failed', 'busy'] as const;

export const refreshOutcomeSchema = z.object({
  source: z.string(),
  outcome: z.enum(REFRESH_OUTCOMES),
  versionId: z.number().int().nullable(),
  delta: z.object({ added: z.number().int(), changed: z.number().int(), removed: z.number().int() }).nullable(),
  error: z.string().nullable(),
  durationMs: z.number().nonnegative(),
});

export const refreshResponseSchema = z.object({ results: z.array(refreshOutcomeSchema) });

export type ListInfo = z.infer<typeof listInfoSchema>;
export type ListsResponse = z.infer<typeof listsResponseSchema>;
export type PublicListInfo = z.infer<typeof publicListInfoSchema>;
export type PublicListsResponse = z.infer<typeof publicListsResponseSchema>;
export type DatasetsRequest = z.input<typeof datasetsRequestSchema>;
export type ParsedDatasetsRequest = z.infer<typeof datasetsRequestSchema>;
export type DatasetsResponse = z.infer<typeof datasetsResponseSchema>;
export type RefreshRequest = z.input<typeof refreshRequestSchema>;
export type RefreshOutcome = z.infer<typeof refreshOutcomeSchema>;
export type RefreshResponse = z.infer<typeof refreshResponseSchema>;
