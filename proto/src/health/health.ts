import { z } from 'zod';
import { SERVICE_NAMES } from '../services.js';

export const healthCheckSchema = z.object({
  status: z.enum(['up', 'down']),
  latencyMs: z.number().nonnegative().optional(),
  detail: z.string().optional(),
});

/** Reply to `health.v1.<service>`. */
export const healthReplySchema = z.object({
  service: z.enum(SERVICE_NAMES),
  status: z.enum(['up', 'down']),
  version: z.string(),
  uptimeSeconds: z.number().nonnegative(),
  checks: z.record(z.string(), healthCheckSchema),
});

export type HealthCheck = z.infer<typeof healthCheckSchema>;
export type HealthReply = z.infer<typeof healthReplySchema>;
