import { z } from 'zod';
import { SERVICE_NAMES } from '../services.js';

/** One service's line on the overview: whether it answered, and its request figures over the last hour. */
export const adminServiceFiguresSchema = z.object({
  service: z.enum(SERVICE_NAMES),
  /** It answered the gateway's metrics request in time. */
  up: z.boolean(),
  /** The span the figures cover (less than an hour for a young process); 0 when down. */
  windowSeconds: z.number().nonnegative(),
  requests: z.number().int().nonnegative(),
  requestsPerSecond: z.number().nonnegative(),
  p95LatencyMs: z.number().nonnegative().nullable(),
  errorRate: z.number().min(0).max(1),
});

/**
 * GET /api/client/admin/overview: the stat cards and the per-service figures. A count is null
 * when the service that owns it did not answer (shown as unavailable, never as 0).
 */
export const adminOverviewResponseSchema = z.object({
  activeUsers: z.number().int().nonnegative().nullable(),
  securityAlerts24h: z.number().int().nonnegative().nullable(),
  /** Share of services up, 0–100. */
  systemHealthPercent: z.number().min(0).max(100),
  totalSearches: z.number().int().nonnegative().nullable(),
  services: z.array(adminServiceFiguresSchema),
  generatedAt: z.string(),
});

/** GET /api/client/admin/lists/{source}/versions?limit= */
export const listVersionsQuerySchema = z.object({
  limit: z.number().int().min(1).max(200).default(50),
});
export const listSourceParamSchema = z.string().trim().min(1).max(100).regex(/^[a-z0-9][a-z0-9._-]*$/i);

export type AdminServiceFigures = z.infer<typeof adminServiceFiguresSchema>;
export type AdminOverviewResponse = z.infer<typeof adminOverviewResponseSchema>;
export type ListVersionsQuery = z.infer<typeof listVersionsQuerySchema>;
