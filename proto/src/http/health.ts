import { z } from 'zod';
import { SERVICE_NAMES } from '../services.js';

export const serviceHealthSchema = z.object({
  status: z.enum(['up', 'down']),
  latencyMs: z.number(),
  detail: z.string().optional(),
});
export type ServiceHealth = z.infer<typeof serviceHealthSchema>;

/** `GET /health` on the gateway: 200 when every service is up, 503 otherwise. */
export const healthResponseSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  services: z.record(z.enum(SERVICE_NAMES), serviceHealthSchema),
  version: z.string(),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;
