import { z } from 'zod';
import { entityTypeSchema, feedSchema, screeningCallerSchema } from './common.js';

/** Free-text lookup across the lists for the dashboard: names, aliases and source ids. */
export const searchRequestSchema = screeningCallerSchema.pick({ feeds: true }).extend({
  query: z.string().trim().min(2).max(200),
  limit: z.number().int().min(1).max(100).default(20),
});

export const searchHitSchema = z.object({
  id: z.string(),
  name: z.string(),
  matchedName: z.string(),
  entityType: entityTypeSchema,
  source: z.string(),
  sourceId: z.string(),
  sourceDataset: z.string(),
  feed: feedSchema,
  programs: z.array(z.string()),
  /** 1 for an id or exact-text hit; otherwise the matching score. */
  score: z.number(),
  matchedBy: z.enum(['id', 'text', 'name']),
});

export const searchResponseSchema = z.object({ query: z.string(), hits: z.array(searchHitSchema) });

export type SearchRequest = z.input<typeof searchRequestSchema>;
export type ParsedSearchRequest = z.infer<typeof searchRequestSchema>;
export type SearchHit = z.infer<typeof searchHitSchema>;
export type SearchResponse = z.infer<typeof searchResponseSchema>;
